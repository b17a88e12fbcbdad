package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * RIGHT joins whose condition is not only equalities between the sides, rewritten into LEFT joins with the inputs
 * swapped. Calcite's nested-loop join tracks the unmatched rows of a RIGHT join in an identity set, where a one-column
 * row is a boxed value: equal small values are one object, so {@code RIGHT JOIN … ON a.id < b.k} lost all but one of
 * the unmatched rows with the same k (found by the fuzzer). FULL joins, equi or not, become LEFT and ANTI joins
 * later ({@link FullJoins}).
 */
public final class NonEquiOuterJoinRule extends RelOptRule {
    public static final NonEquiOuterJoinRule INSTANCE = new NonEquiOuterJoinRule();

    private NonEquiOuterJoinRule() {
        super(operand(LogicalJoin.class, any()), "NonEquiOuterJoinRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        if (join.getJoinType() != JoinRelType.RIGHT || join.analyzeCondition().isEqui()) {
            return;
        }
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        int nLeft = left.getRowType().getFieldCount();
        int nRight = right.getRowType().getFieldCount();
        RexNode swapped = FullJoins.swapped(join, join.getCluster().getRexBuilder(), nLeft, nRight);
        RelBuilder b = call.builder();
        b.push(right).push(left).join(JoinRelType.LEFT, swapped);
        b.project(reorder(b, nLeft, nRight), join.getRowType().getFieldNames());
        call.transformTo(b.convert(join.getRowType(), true).build());
    }

    /** Columns of (right, left) put back in (left, right) order. */
    private static List<RexNode> reorder(RelBuilder b, int nLeft, int nRight) {
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < nLeft; i++) {
            out.add(b.field(nRight + i));
        }
        for (int i = 0; i < nRight; i++) {
            out.add(b.field(i));
        }
        return out;
    }
}
