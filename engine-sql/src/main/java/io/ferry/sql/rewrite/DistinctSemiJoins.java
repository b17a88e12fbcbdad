package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

import io.ferry.sql.rel.JoinSelectivity;

/**
 * An inner join whose rows only decide which rows of one input go on, where duplicates do not matter, as a semi-join
 * of that input: it stops at a row's first match where the inner join listed every one.
 *
 * <p>Duplicates do not matter under an aggregate whose calls do not count rows (DISTINCT, a GROUP BY with no calls or
 * only MIN, MAX and DISTINCT ones) and on the right of a semi-join, down through projections, filters and both inputs
 * of inner joins; not below a window function, which counts its partition's rows, or a non-deterministic call
 * (fuzzer, seed 2712 query 569: {@code SELECT DISTINCT COUNT(*) OVER (PARTITION BY …) FROM t a0 JOIN t a1 ON TRUE}
 * counted 1 and 2 where the pairs were 73 and 146). There an inner join whose columns above are all from one input
 * is a semi-join of that input, where the other input is not the larger (it becomes the side the hash table is built
 * of, as it would have been) and its join keys repeat (a dimension's unique key meets each row once either way; the
 * plan is left alone). TPC-DS
 * q95 ({@code ws_order_number IN (SELECT ws1.ws_order_number FROM web_sales ws1, web_sales ws2 WHERE
 * ws1.ws_order_number = ws2.ws_order_number AND ws1.ws_warehouse_sk <> ws2.ws_warehouse_sk)}) joined each of
 * 719,000 sales with the dozen lines of its order, 8.6 M pairs twice, to keep the order numbers; as a semi-join each
 * sale asks whether one other line of its order left another warehouse.
 *
 * <p>The semi-join has the kept input's columns only; unused constants stand in for the other's until the trimmer,
 * run after this step, drops them.
 */
public final class DistinctSemiJoins {
    private DistinctSemiJoins() {
    }

    /** {@code rel} with such inner joins as semi-joins; {@code rel} itself where there were none. */
    public static RelNode rewrite(RelNode rel) {
        return rewrite(rel, false, ImmutableBitSet.range(rel.getRowType().getFieldCount()));
    }

    /**
     * @param distinct whether the rows' multiplicity is lost above
     * @param used the columns of {@code rel} read above
     */
    private static RelNode rewrite(RelNode rel, boolean distinct, ImmutableBitSet used) {
        if (rel instanceof LogicalAggregate agg) {
            ImmutableBitSet.Builder read = agg.getGroupSet().rebuild();
            boolean countsRows = false;
            for (AggregateCall call : agg.getAggCallList()) {
                read.addAll(call.getArgList());
                if (call.filterArg >= 0) {
                    read.set(call.filterArg);
                }
                SqlKind kind = call.getAggregation().getKind();
                countsRows |= !call.isDistinct() && kind != SqlKind.MIN && kind != SqlKind.MAX;
            }
            return withInputs(rel, rewrite(agg.getInput(), !countsRows, read.build()));
        }
        if (rel instanceof LogicalProject project) {
            // a window function counts the rows of its partition, a non-deterministic one is evaluated per row
            boolean perRow = project.containsOver() || !project.getProjects().stream()
                    .allMatch(RexUtil::isDeterministic);
            ImmutableBitSet.Builder read = ImmutableBitSet.builder();
            for (int field : perRow ? ImmutableBitSet.range(project.getProjects().size()) : used) {
                read.addAll(RelOptUtil.InputFinder.bits(project.getProjects().get(field)));
            }
            return withInputs(rel, rewrite(project.getInput(), distinct && !perRow, read.build()));
        }
        if (rel instanceof LogicalFilter filter) {
            return withInputs(rel, rewrite(filter.getInput(),
                    distinct && RexUtil.isDeterministic(filter.getCondition()),
                    used.union(RelOptUtil.InputFinder.bits(filter.getCondition()))));
        }
        if (rel instanceof LogicalJoin join
                && (join.getJoinType() == JoinRelType.SEMI || join.getJoinType() == JoinRelType.INNER)) {
            return join(join, distinct, used);
        }
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode input : rel.getInputs()) {
            inputs.add(rewrite(input, false, ImmutableBitSet.range(input.getRowType().getFieldCount())));
        }
        return withInputs(rel, inputs.toArray(RelNode[]::new));
    }

    private static RelNode join(LogicalJoin join, boolean distinct, ImmutableBitSet used) {
        int leftCount = join.getLeft().getRowType().getFieldCount();
        int rightCount = join.getRight().getRowType().getFieldCount();
        ImmutableBitSet condition = RelOptUtil.InputFinder.bits(join.getCondition());
        ImmutableBitSet leftRead = used.union(condition).intersect(ImmutableBitSet.range(leftCount));
        ImmutableBitSet rightRead = used.union(condition).get(leftCount, leftCount + rightCount).shift(-leftCount);
        boolean semi = join.getJoinType() == JoinRelType.SEMI;
        RelNode left = rewrite(join.getLeft(), distinct, leftRead);
        RelNode right = rewrite(join.getRight(), distinct || semi, rightRead);
        if (semi || !distinct) {
            return withInputs(join, left, right);
        }
        boolean onlyLeft = used.length() <= leftCount;
        boolean onlyRight = !used.isEmpty() && used.nextSetBit(0) >= leftCount;
        RelNode semiJoin = null;
        if (onlyLeft || onlyRight) {
            RelMetadataQuery mq = JoinSelectivity.query();
            Double leftRows = mq.getRowCount(join.getLeft());
            Double rightRows = mq.getRowCount(join.getRight());
            JoinInfo info = join.analyzeCondition();
            if (leftRows == null || rightRows == null) {
                return withInputs(join, left, right);
            }
            if (onlyLeft && rightRows <= leftRows && !unique(mq, join.getRight(), info.rightSet(), rightRows)) {
                semiJoin = padded(join, LogicalJoin.create(left, right, join.getHints(), join.getCondition(),
                        join.getVariablesSet(), JoinRelType.SEMI), 0);
            } else if (onlyRight && leftRows <= rightRows && !unique(mq, join.getLeft(), info.leftSet(), leftRows)) {
                // the right input kept: the inputs change places, and the condition's columns with them
                Mappings.TargetMapping swap = Mappings.createShiftMapping(leftCount + rightCount, rightCount, 0,
                        leftCount, 0, leftCount, rightCount);
                RexNode swapped = join.getCondition().accept(new RexPermuteInputsShuttle(swap, right, left));
                semiJoin = padded(join, LogicalJoin.create(right, left, join.getHints(), swapped,
                        join.getVariablesSet(), JoinRelType.SEMI), leftCount);
            }
        }
        return semiJoin != null ? semiJoin : withInputs(join, left, right);
    }

    /**
     * Whether {@code keys} are unique in {@code input}, or nearly, by its distinct counts (a computed key counts as
     * repeating): then each row meets at most one there, and the inner join lists no more pairs than the semi-join
     * would try (a dimension's key); the plan is left as it is.
     */
    private static boolean unique(RelMetadataQuery mq, RelNode input, ImmutableBitSet keys, double rows) {
        return !keys.isEmpty() && (Boolean.TRUE.equals(mq.areColumnsUnique(input, keys))
                || JoinSelectivity.groups(input, keys.toArray(), 0, mq) >= NEARLY_UNIQUE * rows);
    }

    /** Distinct keys, at least this share of the rows: a key that repeats too little to be worth a semi-join. */
    private static final double NEARLY_UNIQUE = 0.9;

    /**
     * The semi-join's columns where the inner join had them, from {@code at}; constants of each column's type in the
     * other input's places, which nothing reads; null where a type has no such constant.
     */
    private static RelNode padded(LogicalJoin join, RelNode semiJoin, int at) {
        RexBuilder rex = join.getCluster().getRexBuilder();
        List<RexNode> exprs = new ArrayList<>();
        List<RelDataTypeField> fields = join.getRowType().getFieldList();
        int kept = semiJoin.getRowType().getFieldCount();
        for (int i = 0; i < fields.size(); i++) {
            if (i >= at && i < at + kept) {
                exprs.add(new RexInputRef(i - at, fields.get(i).getType()));
                continue;
            }
            RelDataType type = fields.get(i).getType();
            RexNode constant = type.isNullable() ? rex.makeNullLiteral(type) : zero(rex, type);
            if (constant == null) {
                return null;
            }
            exprs.add(constant);
        }
        return LogicalProject.create(semiJoin, List.of(), exprs, join.getRowType(), Set.of());
    }

    private static RexNode zero(RexBuilder rex, RelDataType type) {
        try {
            RexNode zero = rex.makeZeroLiteral(type);
            return zero.getType().equals(type) ? zero : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static RelNode withInputs(RelNode rel, RelNode... inputs) {
        return List.of(inputs).equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), List.of(inputs));
    }
}
