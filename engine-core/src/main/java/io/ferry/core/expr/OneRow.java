package io.ferry.core.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * One call of a kernel on one row of constants: how Calcite's row engine gives the answers of Ferry's kernels for the
 * functions Ferry defines for it, with no second implementation to keep in step. Slow per row, as the row engine is.
 */
public final class OneRow {
    private static final Batch ONE_ROW = new Batch(1, new Vector[0]);
    private static final BigInteger LONG_DIGITS_BOUND = BigInteger.TEN.pow(FerryType.MAX_DECIMAL_DIGITS);

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
        Vector v = castVector(value, to);
        return v == null || v.isNull(0) ? null : ((LongVector) v).get(0);
    }

    /**
     * CAST of one DOUBLE or DECIMAL value to a DECIMAL of any precision by Ferry's kernel; null for NULL. A DECIMAL
     * of more than 18 digits is 128 bits wide, in a BYTES vector ({@link WideDecimal}), and so may the value be.
     */
    public static BigDecimal castToDecimal(Object value, FerryType to) {
        Vector v = castVector(value, to);
        if (v == null || v.isNull(0)) {
            return null;
        }
        return v instanceof BytesVector b ? WideDecimal.get(b, 0, to.scale())
                : BigDecimal.valueOf(((LongVector) v).get(0), to.scale());
    }

    private static Vector castVector(Object value, FerryType to) {
        if (value == null) {
            return null;
        }
        Literal literal;
        if (value instanceof Double d) {
            literal = new Literal(d, FerryType.DOUBLE);
        } else {
            BigDecimal decimal = (BigDecimal) value;
            int scale = Math.min(Math.max(decimal.scale(), 0), FerryType.MAX_DECIMAL_SCALE);
            BigInteger unscaled = decimal.setScale(scale, RoundingMode.HALF_UP).unscaledValue();
            if (unscaled.bitLength() > 127) {
                throw FerryException.overflow(to.sqlName());
            }
            // a DECIMAL of up to 18 digits is a long; a wider one is 128 bits (the literal's type says which)
            literal = unscaled.abs().compareTo(LONG_DIGITS_BOUND) < 0
                    ? new Literal(unscaled.longValue(), FerryType.decimal(FerryType.MAX_DECIMAL_DIGITS, scale))
                    : new Literal(unscaled, FerryType.decimal(WideDecimal.MAX_PRECISION, scale));
        }
        return ExprCompiler.compile(new Call(Op.CAST, List.of(literal), to)).eval(ONE_ROW);
    }
}
