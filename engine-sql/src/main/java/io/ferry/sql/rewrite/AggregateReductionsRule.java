package io.ferry.sql.rewrite;

import java.util.EnumSet;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.rules.AggregateReduceFunctionsRule;
import org.apache.calcite.sql.SqlKind;

/**
 * The two reductions of Calcite's AggregateReduceFunctionsRule that make an aggregate cheaper in Ferry: MIN, MAX,
 * AVG, ANY_VALUE, FIRST_VALUE and LAST_VALUE of a GROUP BY key become the key (TPC-DS q35's {@code MIN(cd_dep_count)}
 * grouped by {@code cd_dep_count}), and a SUM that cannot be NULL (of a NOT NULL argument, with GROUP BY keys)
 * becomes a {@code $SUM0}, which {@code AggregateCaseToFilterRule} then turns from a sum of {@code CASE WHEN c THEN 1
 * ELSE 0 END} into a count with a FILTER (q50, q62, q99). Not the rest: Ferry's aggregation computes AVG, SUM and the
 * moments itself, faster than as the sums and counts the rule makes of them, so those reductions only ever were
 * choices the cost-based planner declined.
 */
public final class AggregateReductionsRule extends AggregateReduceFunctionsRule {
    public static final AggregateReductionsRule INSTANCE = new AggregateReductionsRule();

    private AggregateReductionsRule() {
        super(Config.DEFAULT.withOperandFor(LogicalAggregate.class).withFunctionsToReduce(EnumSet.of(SqlKind.SUM))
                .withExtraCondition(sum -> !sum.getType().isNullable())
                .withDescription("AggregateReductionsRule").as(Config.class));
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        return aggregate.getAggCallList().stream()
                .anyMatch(c -> canReduce(c) || canReduceAggCallByGrouping(aggregate, c));
    }
}
