package io.ferry.sql.rewrite;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Pulls the conjuncts every branch of an OR shares out of it: {@code (p.k = l.k AND x) OR (p.k = l.k AND y)} becomes
 * {@code p.k = l.k AND (x OR y)}. Written as an OR, the equi-join condition hides inside the disjunction and the join
 * is planned as a cross product with a filter, which on 600K × 20K rows ran for 20 minutes; factored, it is a hash
 * join with a residual filter. Runs on filters (before they are pushed into joins) and on join conditions.
 */
public final class FactorDisjunctionsRule extends RelOptRule {
    public static final FactorDisjunctionsRule FILTER = new FactorDisjunctionsRule(Filter.class);
    public static final FactorDisjunctionsRule JOIN = new FactorDisjunctionsRule(Join.class);

    private FactorDisjunctionsRule(Class<? extends RelNode> kind) {
        super(operand(kind, any()), "FactorDisjunctionsRule:" + kind.getSimpleName());
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        RelNode rel = call.rel(0);
        RexNode condition = rel instanceof Filter f ? f.getCondition() : ((Join) rel).getCondition();
        if (!RexUtil.find(SqlKind.OR).contains(condition)) {
            return;
        }
        RexNode factored = RexUtil.pullFactors(rel.getCluster().getRexBuilder(), condition);
        if (factored.equals(condition)) {
            return;
        }
        if (rel instanceof Filter f) {
            call.transformTo(f.copy(f.getTraitSet(), f.getInput(), factored));
        } else {
            Join j = (Join) rel;
            call.transformTo(j.copy(j.getTraitSet(), factored, j.getLeft(), j.getRight(), j.getJoinType(),
                    j.isSemiJoinDone()));
        }
    }
}
