package io.ferry.sql.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * A subquery's filter that compares a column with the outer query's by {@code IS NOT DISTINCT FROM}, which
 * converting SQL writes out as {@code x = $cor.y OR (x IS NULL AND $cor.y IS NULL)}, gets the comparison back as one
 * call before decorrelation. The decorrelator turns each expression over a correlation variable into a column of its
 * own, so {@code $cor.y IS NULL} became a boolean column and the join it built compared with an OR of it: no
 * equality left, a nested loop in Calcite's row engine under everything above it. As one call it becomes a join key
 * whose NULLs match ({@code FerryJoin}); where it stays in a filter, Ferry's kernels evaluate it expanded again.
 */
public final class CorrelatedNullMatchingRule extends RelOptRule {
    public static final CorrelatedNullMatchingRule INSTANCE = new CorrelatedNullMatchingRule();

    private CorrelatedNullMatchingRule() {
        super(operand(LogicalFilter.class, any()), "CorrelatedNullMatchingRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        RexNode condition = filter.getCondition();
        if (!(condition instanceof RexCall c) || !RexUtil.containsCorrelation(condition)) {
            return;
        }
        RexNode collapsed = RelOptUtil.collapseExpandedIsNotDistinctFromExpr(c, filter.getCluster().getRexBuilder());
        if (!collapsed.equals(condition)) {
            call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), collapsed));
        }
    }
}
