package io.ferry.sql.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite's FilterAggregateTransposeRule (a HAVING condition on group keys filters the aggregate's input instead),
 * except over grouping sets whose keys are not the input's first columns. With grouping sets a condition may only
 * go below if every set groups the keys it reads (elsewhere they are NULL, and the condition is on that NULL);
 * Calcite's rule checks the condition's places among the aggregate's outputs against the sets' input columns, which
 * agree only when the keys are columns 0, 1, 2… of the input. In {@code GROUP BY CUBE(a2.f, a1.i), a1.ei HAVING
 * a2.f} over a join the keys were input columns 1–3, {@code a2.f} output 2 was read as column 2 ({@code a1.ei},
 * grouped in every set), and the condition went below: the sets without {@code a2.f} kept their rows (fuzzer, seed
 * 512 query 818, twice DuckDB's rows).
 */
public final class GroupingSetsFilterTransposeRule extends RelOptRule {
    public static final GroupingSetsFilterTransposeRule INSTANCE = new GroupingSetsFilterTransposeRule();

    private GroupingSetsFilterTransposeRule() {
        super(operand(Filter.class, operand(Aggregate.class, any())), "GroupingSetsFilterTransposeRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(1);
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE
                && !aggregate.getGroupSet().equals(ImmutableBitSet.range(aggregate.getGroupCount()))) {
            return;
        }
        CoreRules.FILTER_AGGREGATE_TRANSPOSE.onMatch(call);
    }
}
