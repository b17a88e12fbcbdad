package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.Sample;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;

import io.ferry.sql.rel.BottomUp;

/**
 * A FULL join as its LEFT join, UNION ALL the right rows that no left row matches (an ANTI join of right against
 * left on the same condition) padded with NULLs for the left columns: operators Ferry runs everywhere. On a cluster a
 * hash join's probe side is divided among the nodes and its build side read whole by each, so which build rows
 * matched nobody is known only once every node is done; here each half is an ordinary join whose probe side may be
 * divided: the LEFT join probes with the left input, the ANTI join with the right one against all of the left. The
 * whole ON condition, residual included, decides a match in both halves, so a residual keeps FULL semantics. The
 * price is that each input is computed twice, so an input that may give other rows the second time (a sample
 * without REPEATABLE, RAND()) keeps its FULL join whole, for Calcite's row engine.
 *
 * <p>Runs after the simplifications, which first turn a FULL join that a filter above rejects NULLs for into a LEFT,
 * RIGHT or inner join. Calcite's row engine runs the rewritten form too where Ferry cannot (and its own FULL joins
 * had given wrong rows: {@link NonEquiOuterJoinRule}).
 */
public final class FullJoins {
    public static final Program PROGRAM = BottomUp.program(FullJoins::rewrite);

    private FullJoins() {
    }

    static RelNode rewrite(RelNode rel) {
        if (!(rel instanceof LogicalJoin join) || join.getJoinType() != JoinRelType.FULL
                || !sameRowsEachRun(join.getLeft()) || !sameRowsEachRun(join.getRight())) {
            return rel;
        }
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        int nLeft = left.getRowType().getFieldCount();
        int nRight = right.getRowType().getFieldCount();
        RexBuilder rex = join.getCluster().getRexBuilder();
        RelBuilder b = RelFactories.LOGICAL_BUILDER.create(join.getCluster(), null);
        b.push(left).push(right).join(JoinRelType.LEFT, join.getCondition());
        b.push(right).push(left).join(JoinRelType.ANTI, swapped(join, rex, nLeft, nRight));
        List<RexNode> padded = new ArrayList<>(nLeft + nRight);
        for (RelDataTypeField f : left.getRowType().getFieldList()) {
            padded.add(rex.makeNullLiteral(f.getType()));
        }
        padded.addAll(b.fields());
        b.project(padded).convert(join.getRowType(), false);
        return b.union(true).convert(join.getRowType(), true).build();
    }

    /**
     * Whether {@code rel} gives the same rows each time it runs: no sample without REPEATABLE (each scan draws its
     * own seed), no non-deterministic function such as RAND(). Otherwise the two halves would see two different
     * inputs; such a FULL join stays whole, for Calcite's row engine.
     */
    private static boolean sameRowsEachRun(RelNode rel) {
        if (rel instanceof Sample s && !s.getSamplingParameters().isRepeatable()) {
            return false;
        }
        boolean[] deterministic = {true};
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                deterministic[0] &= call.getOperator().isDeterministic();
                return super.visitCall(call);
            }
        });
        if (!deterministic[0]) {
            return false;
        }
        for (RelNode input : rel.getInputs()) {
            if (!sameRowsEachRun(input)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The join's condition over (right, left) rather than (left, right), its column references typed as the inputs'
     * columns (an outer join's row type has them nullable).
     */
    static RexNode swapped(LogicalJoin join, RexBuilder rex, int nLeft, int nRight) {
        // left columns move up by nRight, right ones down by nLeft
        int[] shift = new int[nLeft + nRight];
        for (int i = 0; i < nLeft + nRight; i++) {
            shift[i] = i < nLeft ? nRight : -nLeft;
        }
        List<RelDataTypeField> leftFields = join.getLeft().getRowType().getFieldList();
        List<RelDataTypeField> rightFields = join.getRight().getRowType().getFieldList();
        List<RelDataTypeField> fields = new ArrayList<>(leftFields);
        fields.addAll(rightFields);
        List<RelDataTypeField> swappedFields = new ArrayList<>(rightFields);
        swappedFields.addAll(leftFields);
        return join.getCondition().accept(new RelOptUtil.RexInputConverter(rex, fields, swappedFields, shift));
    }
}
