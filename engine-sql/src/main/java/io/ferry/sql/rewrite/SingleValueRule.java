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
 * Calcite's {@code SINGLE_VALUE(x)}, which subquery removal puts over a scalar subquery it cannot prove to give at
 * most one row, becomes {@code MIN(x)} beside {@code COUNT(*)} in the same aggregate, and a projection that fails
 * with 21000 where the count is above 1 ({@link SingleRowCheck}): one row's MIN is its value, no rows' is NULL. Ferry's
 * aggregate has no SINGLE_VALUE; left as it was, the aggregate ran in Calcite's row engine and took every join above
 * it along (TPC-DS q6, q54, q58, q14b), besides compiling their code while planning.
 */
public final class SingleValueRule extends RelOptRule {
    public static final SingleValueRule INSTANCE = new SingleValueRule();

    private SingleValueRule() {
        super(operand(LogicalAggregate.class, any()), "SingleValueRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || calls.stream().noneMatch(SingleValueRule::single)) {
            return;
        }
        int groups = aggregate.getGroupCount();
        List<AggregateCall> rewritten = new ArrayList<>();
        for (AggregateCall c : calls) {
            rewritten.add(single(c) ? AggregateCall.create(SqlStdOperatorTable.MIN, false, c.getArgList(), -1, groups,
                    aggregate.getInput(), c.getType(), c.getName()) : c);
        }
        rewritten.add(AggregateCall.create(SqlStdOperatorTable.COUNT, false, List.of(), -1, groups,
                aggregate.getInput(), null, "rows"));
        Aggregate counted = aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
                aggregate.getGroupSets(), rewritten);
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        RexNode rows = rex.makeInputRef(counted, groups + calls.size());
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < groups + calls.size(); i++) {
            RexNode column = rex.makeInputRef(counted, i);
            boolean check = i >= groups && single(calls.get(i - groups));
            projects.add(check ? rex.makeCall(column.getType(), SingleRowCheck.FUNCTION, List.of(rows, column))
                    : column);
        }
        call.transformTo(LogicalProject.create(counted, List.of(), projects, aggregate.getRowType().getFieldNames(),
                Set.of()));
    }

    private static boolean single(AggregateCall c) {
        return c.getAggregation().getKind() == SqlKind.SINGLE_VALUE && !c.isDistinct() && c.filterArg < 0;
    }
}
