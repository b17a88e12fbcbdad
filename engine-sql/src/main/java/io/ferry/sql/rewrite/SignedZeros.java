package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

/**
 * -0.0 and 0.0 are one value to SQL, but Calcite's row engine sorts and partitions boxed Doubles with
 * {@code compareTo} and {@code equals}, which tell them apart. Values that Ferry computed reach the row engine with
 * the sign dropped (RowConverter); values the row engine computes itself, as arithmetic over a window function's
 * result, keep it: {@code ORDER BY x, id} over {@code CASE WHEN id = 2 THEN m ELSE -m END} put id 1 (-0.0) before
 * id 2 (0.0), and {@code RANK() OVER (ORDER BY x)} ranked them apart. Where a DOUBLE is sorted or partitioned in
 * the row engine, it is sorted by {@link #positive} of itself instead, which turns -0.0 into 0.0 ({@code = 0}
 * holds for both) and leaves every other value, NULL included, as it is. ({@code x + 0.0} would do it by IEEE
 * arithmetic, but Calcite's simplifier removes an added zero.)
 */
public final class SignedZeros {
    private SignedZeros() {
    }

    /** Whether {@code e} is floating-point, where the sign of a zero can differ. */
    static boolean signed(RexNode e) {
        return SqlTypeName.APPROX_TYPES.contains(e.getType().getSqlTypeName());
    }

    /** {@code CASE WHEN e = 0 THEN 0 ELSE e END}: e, with -0.0 as 0.0. */
    static RexNode positive(RexBuilder rex, RexNode e) {
        // an approximate literal: the row engine reads a DOUBLE constant as a Double, and an exact one is a BigDecimal
        RexNode zero = rex.makeApproxLiteral(0.0, rex.getTypeFactory().createTypeWithNullability(e.getType(), false));
        return rex.makeCall(e.getType(), SqlStdOperatorTable.CASE,
                List.of(rex.makeCall(SqlStdOperatorTable.EQUALS, e, zero), zero, e));
    }

    /** Whether {@code e} is a {@link #positive} call already. */
    static boolean isPositive(RexNode e) {
        return e instanceof RexCall c && c.getKind() == SqlKind.CASE && c.getOperands().size() == 3
                && c.getOperands().get(0).getKind() == SqlKind.EQUALS
                && c.getOperands().get(1) instanceof RexLiteral zero && !zero.isNull()
                && ((RexCall) c.getOperands().get(0)).getOperands().get(1).equals(zero)
                && ((RexCall) c.getOperands().get(0)).getOperands().get(0).equals(c.getOperands().get(2));
    }

    /** Whether {@code rel} computes a window function somewhere below, which puts it in the row engine. */
    static boolean computesWindows(RelNode rel) {
        RelNode r = rel.stripped();
        if (r instanceof Window || r instanceof Project p && RexOver.containsOver(p.getProjects(), null)) {
            return true;
        }
        for (RelNode input : r.getInputs()) {
            if (computesWindows(input)) {
                return true;
            }
        }
        return false;
    }

    /**
     * An ORDER BY of a DOUBLE over window functions sorts the key's {@link #positive} value, put in place of the
     * key below the sort. The answer shows 0.0 for -0.0 then, as everything Ferry computes does (RowConverter); a
     * hidden extra key would be cheaper to explain but not to run: the query's root asks for its rows sorted by the
     * visible column, and the planner sorted them a second time, -0.0 first again.
     */
    public static final class SortRule extends RelOptRule {
        public static final SortRule INSTANCE = new SortRule();

        private SortRule() {
            super(operand(LogicalSort.class, any()), "SignedZeros.SortRule");
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            LogicalSort sort = call.rel(0);
            RelNode input = sort.getInput().stripped();
            RexBuilder rex = sort.getCluster().getRexBuilder();
            RelBuilder builder = call.builder().push(input);
            List<RexNode> fields = new ArrayList<>(builder.fields());
            boolean changed = false;
            for (RelFieldCollation key : sort.getCollation().getFieldCollations()) {
                int i = key.getFieldIndex();
                boolean done = input instanceof Project p && isPositive(p.getProjects().get(i));
                if (signed(fields.get(i)) && !done && !isPositive(fields.get(i))) {
                    fields.set(i, positive(rex, fields.get(i)));
                    changed = true;
                }
            }
            if (!changed || !computesWindows(input)) {
                return;
            }
            builder.project(fields, input.getRowType().getFieldNames(), true);
            call.transformTo(sort.copy(sort.getTraitSet(), builder.build(), sort.getCollation(), sort.offset,
                    sort.fetch));
        }
    }
}
