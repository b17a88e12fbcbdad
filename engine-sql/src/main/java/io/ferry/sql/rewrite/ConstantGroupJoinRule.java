package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * {@code X JOIN (SELECT DISTINCT TRUE FROM S WHERE p) ON TRUE}, which Calcite's subquery removal writes for an
 * uncorrelated {@code IN} or {@code EXISTS}, becomes {@code X} semi-joined with {@code S WHERE p}, with the constant
 * column added back: the aggregate has one row when S has any and none otherwise, so both keep X's rows exactly
 * when S is not empty. Calcite's decorrelator, meeting the aggregate inside a correlated subquery, replaced it with
 * a single constant row, so {@code … AND 7 IN (SELECT …)} was always true there (found by the fuzzer).
 *
 * <p>Not where X holds a correlation still to be removed: the decorrelator copies a semi-join over its rewritten
 * left input as if that input's columns kept their positions, but a correlation turned into a join adds its key
 * column, and the semi-join's parents then read the wrong columns ({@code NOT (k IN (SELECT k … WHERE b.k = a.k))
 * AND EXISTS (SELECT 1 FROM t2)} compared the key with 0 where it meant the count: fuzzer, seed 41, query 9034).
 * The planner's simplification after decorrelation makes those joins semi-joins.
 */
public final class ConstantGroupJoinRule extends RelOptRule {
    public static final ConstantGroupJoinRule INSTANCE = new ConstantGroupJoinRule();

    private ConstantGroupJoinRule() {
        super(operand(LogicalJoin.class, operand(RelNode.class, any()),
                operand(LogicalAggregate.class, operand(LogicalProject.class, any()))), "ConstantGroupJoinRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        RelNode left = call.rel(1);
        LogicalAggregate aggregate = call.rel(2);
        LogicalProject project = call.rel(3);
        if (join.getJoinType() != JoinRelType.INNER || !join.getCondition().isAlwaysTrue()
                || !aggregate.getAggCallList().isEmpty() || aggregate.getGroupSets().size() != 1
                || hasCorrelate(left)) {
            return;
        }
        List<RexNode> constants = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            RexNode e = project.getProjects().get(key);
            if (!(e instanceof RexLiteral)) {
                return;
            }
            constants.add(e);
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        RelBuilder builder = call.builder();
        builder.push(left).push(project.getInput()).semiJoin(rex.makeLiteral(true));
        List<RexNode> out = new ArrayList<>(builder.fields());
        out.addAll(constants);
        builder.project(out, join.getRowType().getFieldNames());
        call.transformTo(builder.convert(join.getRowType(), false).build());
    }

    private static boolean hasCorrelate(RelNode rel) {
        RelNode r = rel.stripped();
        return r instanceof Correlate || r.getInputs().stream().anyMatch(ConstantGroupJoinRule::hasCorrelate);
    }
}
