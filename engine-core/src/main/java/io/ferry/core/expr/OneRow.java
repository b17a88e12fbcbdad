package io.ferry.core.expr;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * One call of a kernel on one row of constants: how Calcite's row engine gives the answers of Ferry's kernels for the
 * functions Ferry defines for it, with no second implementation to keep in step. Slow per row, as the row engine is.
 */
public final class OneRow {
    private static final Batch ONE_ROW = new Batch(1, new Vector[0]);

    private OneRow() {
    }

    /**
     * {@code op} of {@code args} (Strings, or Numbers taken as BIGINTs), typed {@code result}; null when any argument
     * is, as for every function called this way.
     */
    public static Object eval(Op op, FerryType result, Object... args) {
        List<Expr> literals = new ArrayList<>(args.length);
        for (Object a : args) {
            if (a == null) {
                return null;
            }
            literals.add(a instanceof String s ? new Literal(s, FerryType.VARCHAR)
                    : new Literal(((Number) a).longValue(), FerryType.BIGINT));
        }
        Vector v = ExprCompiler.compile(new Call(op, literals, result)).eval(ONE_ROW);
        if (v.isNull(0)) {
            return null;
        }
        return v instanceof BytesVector b ? b.getString(0) : (Object) ((LongVector) v).get(0);
    }
}
