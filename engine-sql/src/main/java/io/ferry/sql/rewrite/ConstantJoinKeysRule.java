package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * A join key that one input holds constant, as a filter on the other input's key: in TPC-DS q78 the store channel's
 * aggregate is of the year 2000 only, and the web and catalog channels' aggregates, joined to it on the year, grouped
 * every year of their sales before the join kept one (652 → 230 ms at SF 1 with the filter written by hand).
 * Calcite's transitive predicate inference would find it, but Ferry does not run it ({@code JoinPredicates}: it took
 * two thirds of the simplification of q64); this reads only the inputs' constants, which their predicates give.
 *
 * <p>Only {@code =} keys (a NULL matches nothing, so a row of the other input with another value matches no row),
 * only non-NULL constants of the key's own type, and only into an input whose rows are dropped when they match none:
 * either input of an inner join, the right of a LEFT, semi- or anti-join, the left of a RIGHT join.
 */
public final class ConstantJoinKeysRule extends RelOptRule {
    public static final ConstantJoinKeysRule INSTANCE = new ConstantJoinKeysRule();

    private ConstantJoinKeysRule() {
        super(operand(LogicalJoin.class, any()), "ConstantJoinKeysRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        JoinRelType type = join.getJoinType();
        boolean intoRight = type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI
                || type == JoinRelType.ANTI;
        boolean intoLeft = type == JoinRelType.INNER || type == JoinRelType.RIGHT;
        if (!intoLeft && !intoRight) {
            return;
        }
        JoinInfo keys = join.analyzeCondition();
        if (!keys.nullExclusionFlags.contains(true)) {
            return;
        }
        RelMetadataQuery mq = call.getMetadataQuery();
        Map<RexNode, RexNode> leftConstants = mq.getPulledUpPredicates(join.getLeft()).constantMap;
        Map<RexNode, RexNode> rightConstants = mq.getPulledUpPredicates(join.getRight()).constantMap;
        RexBuilder rex = join.getCluster().getRexBuilder();
        List<RexNode> onLeft = new ArrayList<>();
        List<RexNode> onRight = new ArrayList<>();
        for (int k = 0; k < keys.leftKeys.size(); k++) {
            if (!keys.nullExclusionFlags.get(k)) {
                continue; // IS NOT DISTINCT FROM: a NULL row of the other input matches too
            }
            RexNode leftKey = RexInputRef.of(keys.leftKeys.get(k), join.getLeft().getRowType());
            RexNode rightKey = RexInputRef.of(keys.rightKeys.get(k), join.getRight().getRowType());
            RexNode leftValue = leftConstants.get(leftKey);
            RexNode rightValue = rightConstants.get(rightKey);
            if (intoRight && usable(leftValue, rightKey) && rightValue == null) {
                add(onRight, join.getRight(), rex.makeCall(SqlStdOperatorTable.EQUALS, rightKey, leftValue));
            }
            if (intoLeft && usable(rightValue, leftKey) && leftValue == null) {
                add(onLeft, join.getLeft(), rex.makeCall(SqlStdOperatorTable.EQUALS, leftKey, rightValue));
            }
        }
        if (onLeft.isEmpty() && onRight.isEmpty()) {
            return;
        }
        call.transformTo(join.copy(join.getTraitSet(), join.getCondition(), filtered(join.getLeft(), onLeft, rex),
                filtered(join.getRight(), onRight, rex), type, join.isSemiJoinDone()));
    }

    /** A constant to compare the other input's key with: not NULL, deterministic, of the key's type. */
    private static boolean usable(RexNode value, RexNode key) {
        return value != null && !(value instanceof RexLiteral literal && literal.isNull())
                && RexUtil.isDeterministic(value) && SqlTypeUtil.equalSansNullability(value.getType(), key.getType());
    }

    /**
     * Adds {@code comparison} unless {@code input} is a filter with it already: one whose constant its predicates do
     * not show (a CAST of a literal they do not take for one) is not added twice.
     */
    private static void add(List<RexNode> conditions, RelNode input, RexNode comparison) {
        RelNode rel = input instanceof HepRelVertex vertex ? vertex.getCurrentRel() : input;
        if (!(rel instanceof LogicalFilter filter)
                || !RelOptUtil.conjunctions(filter.getCondition()).contains(comparison)) {
            conditions.add(comparison);
        }
    }

    private static RelNode filtered(RelNode input, List<RexNode> conditions, RexBuilder rex) {
        return conditions.isEmpty() ? input : LogicalFilter.create(input, RexUtil.composeConjunction(rex, conditions));
    }
}
