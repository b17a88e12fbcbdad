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

    /**
     * CAST of one DOUBLE ({@code Double}) or DECIMAL ({@code BigDecimal}) value to an INTEGER, BIGINT or DECIMAL by
     * Ferry's kernel, rounding as it does; the result's long (a DECIMAL's unscaled value), or null for NULL.
     */
    public static Long cast(Object value, FerryType to) {
        if (value == null) {
            return null;
        }
        Literal literal;
        if (value instanceof Double d) {
            literal = new Literal(d, FerryType.DOUBLE);
        } else {
            java.math.BigDecimal decimal = (java.math.BigDecimal) value;
            int scale = Math.min(Math.max(decimal.scale(), 0), FerryType.MAX_DECIMAL_SCALE);
            java.math.BigInteger unscaled = decimal.setScale(scale, java.math.RoundingMode.HALF_UP).unscaledValue();
            if (unscaled.bitLength() > 63) {
                throw io.ferry.core.FerryException.overflow(to.sqlName());
            }
            literal = new Literal(unscaled.longValue(), FerryType.decimal(FerryType.MAX_DECIMAL_PRECISION, scale));
        }
        Vector v = ExprCompiler.compile(new Call(Op.CAST, List.of(literal), to)).eval(ONE_ROW);
        return v.isNull(0) ? null : ((LongVector) v).get(0);
    }
}
