package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import io.ferry.sql.fun.SingleRowCheck;

/**
 * The two aggregate calls that subquery removal writes and Ferry's aggregate has no kernel for become a projection
 * over an aggregate that has. Left as they were, the aggregate ran in Calcite's row engine and took every join
 * above it along, besides compiling their code while planning.
 * <ul>
 * <li>{@code SINGLE_VALUE(x)}, over a scalar subquery not provably of one row (TPC-DS q6, q14b, q54, q58):
 * {@code MIN(x)} beside {@code COUNT(*)}, under {@code FERRY_SINGLE_ROW(count, min)}, which fails with 21000 where
 * the count is above 1 ({@link SingleRowCheck}); one row's MIN is its value, no rows' is NULL.</li>
 * <li>{@code LITERAL_AGG(v)}, the marker of an IN under OR (q45): the constant v beside the group's keys.</li>
 * </ul>
 */
public final class ProjectedAggCallsRule extends RelOptRule {
    public static final ProjectedAggCallsRule INSTANCE = new ProjectedAggCallsRule();

    private ProjectedAggCallsRule() {
        super(operand(LogicalAggregate.class, any()), "ProjectedAggCallsRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE
                || calls.stream().noneMatch(c -> single(c) || literal(c))) {
            return;
        }
        int groups = aggregate.getGroupCount();
        List<AggregateCall> kept = new ArrayList<>();
        boolean counted = calls.stream().anyMatch(ProjectedAggCallsRule::single);
        for (AggregateCall c : calls) {
            if (single(c)) {
                kept.add(AggregateCall.create(SqlStdOperatorTable.MIN, false, c.getArgList(), -1, groups,
                        aggregate.getInput(), c.getType(), c.getName()));
            } else if (!literal(c)) {
                kept.add(c);
            }
        }
        if (counted) {
            kept.add(AggregateCall.create(SqlStdOperatorTable.COUNT, false, List.of(), -1, groups,
                    aggregate.getInput(), null, "rows"));
        }
        Aggregate computable = aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(),
                aggregate.getGroupSet(), aggregate.getGroupSets(), kept);
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            projects.add(rex.makeInputRef(computable, i));
        }
        int next = groups;
        for (AggregateCall c : calls) {
            if (literal(c)) {
                projects.add(rex.ensureType(c.getType(), c.rexList.get(0), true));
                continue;
            }
            RexNode column = rex.makeInputRef(computable, next++);
            projects.add(single(c) ? rex.makeCall(column.getType(), SingleRowCheck.FUNCTION,
                    List.of(rex.makeInputRef(computable, computable.getRowType().getFieldCount() - 1), column))
                    : column);
        }
        call.transformTo(LogicalProject.create(computable, List.of(), projects,
                aggregate.getRowType().getFieldNames(), Set.of()));
    }

    private static boolean single(AggregateCall c) {
        return c.getAggregation().getKind() == SqlKind.SINGLE_VALUE && !c.isDistinct() && c.filterArg < 0;
    }

    private static boolean literal(AggregateCall c) {
        return c.getAggregation().getKind() == SqlKind.LITERAL_AGG && c.rexList.size() == 1;
    }
}
