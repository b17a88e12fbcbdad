package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.sql.rel.BottomUp;

/**
 * A semi-join or anti-join whose right side reads an enclosing query's correlation variable, as an inner (semi) or
 * left (anti) join with the distinct rows of the right side's join columns. Calcite's subquery removal writes an
 * EXISTS or IN over a subquery that reads only an enclosing query's columns as a semi-join ({@code EXISTS (SELECT 1
 * FROM b WHERE b.g = a.g AND EXISTS (SELECT 1 FROM c WHERE c.k = a.k))}: the inner EXISTS reads a, not b), and its
 * decorrelator does not rewrite a semi-join's correlated side: the whole correlation stayed, and ran row by row of a
 * in Calcite's row engine (fuzzer, once it correlated subqueries two levels up). An inner or left join it does.
 *
 * <p>A semi-join's condition must be equalities of the right side's columns (or none): with distinct keys each left
 * row then meets one right row at most, as the semi-join keeps it once. An anti-join's may be anything: the rows the
 * left join matches are dropped, however many times they matched.
 */
public final class CorrelatedSemiJoins {
    public static final Program PROGRAM = BottomUp.program(node -> node instanceof LogicalJoin join
            && !join.getJoinType().projectsRight() && !RelOptUtil.getVariablesUsed(join.getRight()).isEmpty()
            ? rewrite(join) : node);

    private CorrelatedSemiJoins() {
    }

    private static RelNode rewrite(LogicalJoin join) {
        boolean anti = join.getJoinType() == JoinRelType.ANTI;
        if (!anti && !(join.getJoinType() == JoinRelType.SEMI && join.analyzeCondition().isEqui())) {
            return join;
        }
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(join.getCondition());
        List<Integer> rightColumns = used.get(leftWidth, leftWidth + join.getRight().getRowType().getFieldCount())
                .shift(-leftWidth).asList();
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(join.getCluster(), null);
        builder.push(join.getLeft());
        builder.push(join.getRight());
        List<RexNode> distinct = new ArrayList<>();
        for (int column : rightColumns) {
            distinct.add(builder.field(column));
        }
        // a column no row of the right side has NULL in: the anti-join's test for an unmatched row, and the key of
        // the right side's one row when the condition reads none of its columns
        distinct.add(builder.alias(builder.literal(true), "$matched"));
        builder.project(distinct).distinct();
        RexNode condition = join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int i = ref.getIndex();
                return i < leftWidth ? ref : new RexInputRef(leftWidth + rightColumns.indexOf(i - leftWidth),
                        ref.getType());
            }
        });
        builder.join(anti ? JoinRelType.LEFT : JoinRelType.INNER, condition);
        if (anti) {
            builder.filter(builder.isNull(builder.field(leftWidth + rightColumns.size())));
        }
        List<RexNode> left = new ArrayList<>();
        for (int i = 0; i < leftWidth; i++) {
            left.add(builder.field(i));
        }
        return builder.project(left, join.getRowType().getFieldNames(), true).build();
    }
}
