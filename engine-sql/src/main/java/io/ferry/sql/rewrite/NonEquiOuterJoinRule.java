package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * RIGHT and FULL joins whose condition is not only equalities between the sides, rewritten into joins that keep
 * their right input's duplicates and their unmatched rows. Calcite's nested-loop join tracks the unmatched rows of a RIGHT or FULL join in an identity set, where
 * a one-column row is a boxed value: equal small values are one object, so {@code RIGHT JOIN … ON a.id < b.k} lost
 * all but one of the unmatched rows with the same k (found by the fuzzer). A RIGHT join becomes a LEFT join with
 * the inputs swapped; a FULL join becomes its LEFT join plus, UNION ALL, the right rows no left row matches (an
 * anti-join) padded with NULLs. Calcite's hash join, given a FULL join with a residual condition on one side, also
 * gave extra rows (found by the fuzzer); the LEFT join runs in Ferry's hash join.
 */
public final class NonEquiOuterJoinRule extends RelOptRule {
    public static final NonEquiOuterJoinRule INSTANCE = new NonEquiOuterJoinRule();

    private NonEquiOuterJoinRule() {
        super(operand(LogicalJoin.class, any()), "NonEquiOuterJoinRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        JoinRelType type = join.getJoinType();
        if ((type != JoinRelType.RIGHT && type != JoinRelType.FULL) || join.analyzeCondition().isEqui()) {
            return;
        }
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        int nLeft = left.getRowType().getFieldCount();
        int nRight = right.getRowType().getFieldCount();
        RexBuilder rex = join.getCluster().getRexBuilder();
        // the condition over (right, left) instead of (left, right): left columns move up by nRight, right ones
        // down by nLeft
        int[] shift = new int[nLeft + nRight];
        for (int i = 0; i < nLeft + nRight; i++) {
            shift[i] = i < nLeft ? nRight : -nLeft;
        }
        RexNode swapped = join.getCondition().accept(new RelOptUtil.RexInputConverter(rex,
                join.getRowType().getFieldList(), swappedFields(join, nLeft), shift));
        RelBuilder b = call.builder();
        if (type == JoinRelType.RIGHT) {
            b.push(right).push(left).join(JoinRelType.LEFT, swapped);
            b.project(reorder(b, nLeft, nRight), join.getRowType().getFieldNames());
        } else {
            b.push(left).push(right).join(JoinRelType.LEFT, join.getCondition());
            b.push(right).push(left).join(JoinRelType.ANTI, swapped);
            List<RexNode> padded = new ArrayList<>();
            for (int i = 0; i < nLeft; i++) {
                padded.add(rex.makeNullLiteral(left.getRowType().getFieldList().get(i).getType()));
            }
            padded.addAll(b.fields());
            b.project(padded);
            b.convert(join.getRowType(), false).union(true);
        }
        call.transformTo(b.convert(join.getRowType(), true).build());
    }

    private static List<org.apache.calcite.rel.type.RelDataTypeField> swappedFields(LogicalJoin join, int nLeft) {
        List<org.apache.calcite.rel.type.RelDataTypeField> fields = join.getRowType().getFieldList();
        List<org.apache.calcite.rel.type.RelDataTypeField> out = new ArrayList<>(fields.subList(nLeft, fields.size()));
        out.addAll(fields.subList(0, nLeft));
        return out;
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
