package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

/**
 * -0.0 as 0.0 where Calcite's row engine computes a DOUBLE or REAL (SignedZeros in EXPLAIN, above the calculation).
 * The row engine compares boxed values with {@code equals} and {@code compareTo}, which put -0.0 before 0.0 and
 * apart from it; SQL calls them equal. Values entering the row engine from Ferry's operators are normalized as they
 * are converted ({@link RowConverter}); this covers the ones it makes itself, as {@code 0.0 * d} sorted above a
 * join with a scalar subquery (which, a non-equi join, runs in the row engine) put rows of negative {@code d} first.
 * Only calculations with such a column pay for the pass.
 */
public final class SignedZeros {
    private SignedZeros() {
    }

    public static final Program PROGRAM = BottomUp.program(visited -> {
        if (!(visited instanceof EnumerableCalc calc)) {
            return visited;
        }
        int[] columns = computedFloatingColumns(calc.getProgram());
        return columns.length == 0 ? visited : new RowsWrapper(calc, "SignedZeros",
                EnumerableRel.Prefer.ARRAY, Types.lookupMethod(SignedZeros.class, "positive",
                        Enumerable.class, int[].class),
                (implementor, rows) -> implementor.stash(columns, int[].class));
    });

    /** The output columns a calculation computes (not passes through) of type DOUBLE, FLOAT or REAL. */
    private static int[] computedFloatingColumns(RexProgram program) {
        List<Integer> out = new ArrayList<>();
        List<RexLocalRef> projects = program.getProjectList();
        for (int i = 0; i < projects.size(); i++) {
            SqlTypeName type = projects.get(i).getType().getSqlTypeName();
            if ((type == SqlTypeName.DOUBLE || type == SqlTypeName.FLOAT || type == SqlTypeName.REAL)
                    && program.expandLocalRef(projects.get(i)) instanceof RexCall) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** {@code rows} with -0.0 as 0.0 in {@code columns}: arrays, or the value itself for a single column. */
    public static Enumerable<Object> positive(Enumerable<Object> rows, int[] columns) {
        return rows.select(row -> {
            if (!(row instanceof Object[] values)) {
                return positive(row);
            }
            Object[] copy = null;
            for (int c : columns) {
                Object v = positive(values[c]);
                if (v != values[c]) {
                    if (copy == null) {
                        copy = values.clone();
                    }
                    copy[c] = v;
                }
            }
            return copy == null ? values : copy;
        });
    }

    private static Object positive(Object v) {
        if (v instanceof Double d && d == 0.0 && 1 / d < 0) {
            return 0.0;
        }
        if (v instanceof Float f && f == 0f && 1 / f < 0) {
            return 0f;
        }
        return v;
    }
}
