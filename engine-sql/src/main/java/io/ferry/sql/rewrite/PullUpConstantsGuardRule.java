package io.ferry.sql.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.rules.CoreRules;

/**
 * Calcite's AggregateProjectPullUpConstantsRule (constant group keys taken out of an aggregate), for plain aggregates
 * only. Over grouping sets ({@code ROLLUP(TRUE, dt, dt)}) it took the constant for a key of every set and rebuilt a
 * plain aggregate, losing the sets that leave the constant out (caught only by Calcite's type check: XX000 "Cannot add
 * expression of different type to set", fuzzer seed 1008 query 1683). There the constant stays a key, which Ferry
 * groups by like any other.
 */
public final class PullUpConstantsGuardRule extends RelOptRule {
    public static final PullUpConstantsGuardRule INSTANCE = new PullUpConstantsGuardRule();

    private PullUpConstantsGuardRule() {
        super(operand(Aggregate.class, operand(RelNode.class, any())), "PullUpConstantsGuardRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        if (aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
            CoreRules.AGGREGATE_ANY_PULL_UP_CONSTANTS.onMatch(call);
        }
    }
}
