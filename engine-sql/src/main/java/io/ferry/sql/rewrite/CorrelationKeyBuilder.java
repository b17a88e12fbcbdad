package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The relational builder Ferry gives Calcite's decorrelator, which joins each decorrelated subquery back to the
 * rows it was correlated to on the correlation keys: with {@code =} where it finds the subquery's key never NULL,
 * else with {@code IS NOT DISTINCT FROM}, so that a NULL key still meets the subquery's answer for NULL (a count
 * of 0, an empty NOT IN that is TRUE). Its proof that a key is never NULL trusts a join condition that rejects
 * NULLs on either input of the join, also for the input a LEFT join keeps whole: beside an earlier scalar subquery
 * (a LEFT join on {@code a.k = b.k}), {@code a.k NOT IN (SELECT … WHERE b.k = a.k)} was joined back on {@code =},
 * and a row with a NULL {@code a.k} answered NULL instead of TRUE (fuzzer, seed 11, query 1689).
 *
 * <p>The decorrelator builds those key comparisons with {@link #equals(RexNode, RexNode)}, its only call of it, right
 * before it joins the two sides with {@link #join(JoinRelType, RexNode)}; this builder remembers them, and when the
 * join is built, turns each whose right key is not provably non-NULL by {@link #neverNull} back into
 * {@code IS NOT DISTINCT FROM}. Keys that are (the usual case: the subquery grouped by a column it filtered on) keep
 * {@code =}, the hash join Ferry runs.
 */
public final class CorrelationKeyBuilder extends RelBuilder {
    private final Set<RexNode> keyEqualities = Collections.newSetFromMap(new IdentityHashMap<>());

    public CorrelationKeyBuilder(RelOptCluster cluster) {
        super(Contexts.of(RelFactories.DEFAULT_STRUCT), cluster, null);
    }

    @Override
    public RexNode equals(RexNode operand0, RexNode operand1) {
        RexNode equality = super.equals(operand0, operand1);
        keyEqualities.add(equality);
        return equality;
    }

    @Override
    public RelBuilder join(JoinRelType joinType, RexNode condition) {
        if (keyEqualities.isEmpty()) {
            return super.join(joinType, condition);
        }
        RelNode right = peek();
        int leftCount = peek(1).getRowType().getFieldCount();
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (keyEqualities.contains(conjunct) && conjunct instanceof RexCall call
                    && call.getOperands().get(1) instanceof RexInputRef key
                    && !neverNull(right, key.getIndex() - leftCount)) {
                conjuncts.add(isNotDistinctFrom(call.getOperands().get(0), key));
            } else {
                conjuncts.add(conjunct);
            }
        }
        keyEqualities.clear();
        return super.join(joinType, RexUtil.composeConjunction(getRexBuilder(), conjuncts));
    }

    /**
     * Whether column {@code index} of {@code rel} holds no NULL: its type says so, or it is a column that a filter,
     * or a join that drops the rows its condition does not accept, keeps only where it is not NULL.
     */
    static boolean neverNull(RelNode rel, int index) {
        if (!rel.getRowType().getFieldList().get(index).getType().isNullable()) {
            return true;
        }
        if (rel instanceof Project project) {
            return project.getProjects().get(index) instanceof RexInputRef ref && neverNull(project.getInput(),
                    ref.getIndex());
        }
        if (rel instanceof Aggregate aggregate) {
            return index < aggregate.getGroupCount()
                    && neverNull(aggregate.getInput(), aggregate.getGroupSet().asList().get(index));
        }
        if (rel instanceof Filter filter) {
            return Strong.isNotTrue(filter.getCondition(), ImmutableBitSet.of(index))
                    || neverNull(filter.getInput(), index);
        }
        if (rel instanceof Join join) {
            int leftCount = join.getLeft().getRowType().getFieldCount();
            boolean left = index < leftCount;
            JoinRelType type = join.getJoinType();
            // only the inputs whose unmatched rows the join drops: both of an inner join, the left of a semi-join
            boolean filtered = type == JoinRelType.INNER || (left && type == JoinRelType.SEMI);
            if (filtered && Strong.isNotTrue(join.getCondition(), ImmutableBitSet.of(index))) {
                return true;
            }
            if (left) {
                return !type.generatesNullsOnLeft() && neverNull(join.getLeft(), index);
            }
            return !type.generatesNullsOnRight() && type.projectsRight() && neverNull(join.getRight(),
                    index - leftCount);
        }
        return false;
    }
}
