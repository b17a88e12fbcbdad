package io.ferry.core.expr;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Vectorized +, -, *, /, % over longs (with overflow checks at the result type's width) and doubles. One tight
 * loop per operator; overflow is detected branch-free inside the loop and raised after it.
 */
final class ArithmeticKernels {
    private ArithmeticKernels() {
    }

    static Vector longOp(Op op, LongVector a, LongVector b, FerryType type, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        long overflow = 0;
        switch (op) {
            case PLUS -> {
                for (int i = 0; i < n; i++) {
                    long s = x[i] + y[i];
                    overflow |= (x[i] ^ s) & (y[i] ^ s);
                    r[i] = s;
                }
            }
            case MINUS -> {
                for (int i = 0; i < n; i++) {
                    long s = x[i] - y[i];
                    overflow |= (x[i] ^ y[i]) & (x[i] ^ s);
                    r[i] = s;
                }
            }
            case TIMES -> {
                for (int i = 0; i < n; i++) {
                    long hi = Math.multiplyHigh(x[i], y[i]);
                    long lo = x[i] * y[i];
                    overflow |= hi ^ (lo >> 63);
                    r[i] = lo;
                }
                overflow = overflow != 0 ? Long.MIN_VALUE : 0;
            }
            case DIVIDE, MOD -> {
                for (int i = 0; i < n; i++) {
                    if (y[i] == 0) {
                        if (nulls == null || !nulls[i]) {
                            throw FerryException.divisionByZero();
                        }
                        continue;
                    }
                    if (op == Op.DIVIDE) {
                        if (x[i] == Long.MIN_VALUE && y[i] == -1) {
                            overflow = Long.MIN_VALUE;
                        }
                        r[i] = x[i] / y[i];
                    } else {
                        r[i] = y[i] == -1 ? 0 : x[i] % y[i];
                    }
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
        if (overflow < 0) {
            if (nulls == null || anyOverflowOutsideNulls(op, x, y, nulls, n)) {
                throw FerryException.overflow(type.sqlName());
            }
        }
        checkWidth(r, nulls, type, n);
        return new LongVector(r, nulls, n);
    }

    private static boolean anyOverflowOutsideNulls(Op op, long[] x, long[] y, boolean[] nulls, int n) {
        for (int i = 0; i < n; i++) {
            if (nulls[i]) {
                continue;
            }
            try {
                switch (op) {
                    case PLUS -> Math.addExact(x[i], y[i]);
                    case MINUS -> Math.subtractExact(x[i], y[i]);
                    case TIMES -> Math.multiplyExact(x[i], y[i]);
                    default -> {
                        if (x[i] == Long.MIN_VALUE && y[i] == -1) {
                            return true;
                        }
                    }
                }
            } catch (ArithmeticException e) {
                return true;
            }
        }
        return false;
    }

    /** INTEGER results must fit 32 bits, DECIMAL results their precision (a wider one the long). */
    static void checkWidth(long[] r, boolean[] nulls, FerryType type, int n) {
        long bound;
        if (type.kind() == TypeKind.INTEGER) {
            for (int i = 0; i < n; i++) {
                if (r[i] != (int) r[i] && (nulls == null || !nulls[i])) {
                    throw FerryException.overflow(type.sqlName());
                }
            }
            return;
        } else if (type.kind() == TypeKind.DECIMAL && type.precision() <= FerryType.MAX_DECIMAL_DIGITS) {
            bound = Decimals.POWERS[type.precision()];
        } else {
            return;
        }
        for (int i = 0; i < n; i++) {
            if ((r[i] >= bound || r[i] <= -bound) && (nulls == null || !nulls[i])) {
                throw FerryException.overflow(type.sqlName());
            }
        }
    }

    static Vector doubleOp(Op op, DoubleVector a, DoubleVector b, int n) {
        double[] x = a.values();
        double[] y = b.values();
        double[] r = new double[n];
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        switch (op) {
            case PLUS -> {
                for (int i = 0; i < n; i++) {
                    r[i] = x[i] + y[i];
                }
            }
            case MINUS -> {
                for (int i = 0; i < n; i++) {
                    r[i] = x[i] - y[i];
                }
            }
            case TIMES -> {
                for (int i = 0; i < n; i++) {
                    r[i] = x[i] * y[i];
                }
            }
            case DIVIDE, MOD -> {
                for (int i = 0; i < n; i++) {
                    if (y[i] == 0 && (nulls == null || !nulls[i])) {
                        throw FerryException.divisionByZero();
                    }
                    r[i] = op == Op.DIVIDE ? x[i] / y[i] : x[i] % y[i];
                }
            }
            default -> throw new IllegalArgumentException(op.name());
        }
        return new DoubleVector(r, nulls, n);
    }

    /**
     * Whether every product of a {@code ta} and a {@code tb} is a {@code type} as it is: DECIMALs whose digits add up
     * to no more than the result's precision, at most 18 (a long), and whose scales add up to the result's —
     * Calcite's type of a DECIMAL product whenever it stays under 19 digits. Then {@link #exactTimes} needs no
     * checks.
     */
    static boolean productFits(FerryType ta, FerryType tb, FerryType type) {
        return ta.kind() == TypeKind.DECIMAL && tb.kind() == TypeKind.DECIMAL && type.kind() == TypeKind.DECIMAL
                && ta.precision() + tb.precision() <= Math.min(type.precision(), FerryType.MAX_DECIMAL_DIGITS)
                && ta.scale() + tb.scale() == type.scale();
    }

    /**
     * Whether every sum or difference of a {@code ta} and a {@code tb} is a {@code type} as it is: DECIMALs at the
     * result's scale whose integer digits, plus one for the carry, fit the result's precision, at most 18 (a long) —
     * Calcite's type of a DECIMAL sum once its operands are cast to the result's scale. Then {@link #exactSum} needs
     * no checks: |a ± b| < 10^pa + 10^pb <= 10^(max(pa, pb) + 1).
     */
    static boolean sumFits(FerryType ta, FerryType tb, FerryType type) {
        return ta.kind() == TypeKind.DECIMAL && tb.kind() == TypeKind.DECIMAL && type.kind() == TypeKind.DECIMAL
                && ta.scale() == type.scale() && tb.scale() == type.scale()
                && Math.max(ta.precision(), tb.precision()) + 1 <= Math.min(type.precision(),
                        FerryType.MAX_DECIMAL_DIGITS);
    }

    /** Sums and differences that cannot overflow ({@link #sumFits}): one addition per row, nothing else. */
    static Vector exactSum(boolean minus, LongVector a, LongVector b, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        if (minus) {
            for (int i = 0; i < n; i++) {
                r[i] = x[i] - y[i];
            }
        } else {
            for (int i = 0; i < n; i++) {
                r[i] = x[i] + y[i];
            }
        }
        return new LongVector(r, Nulls.or(a.nulls(), b.nulls(), n), n);
    }

    /** Products that cannot overflow ({@link #productFits}): one multiplication per row, nothing else. */
    static Vector exactTimes(LongVector a, LongVector b, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = x[i] * y[i];
        }
        return new LongVector(r, Nulls.or(a.nulls(), b.nulls(), n), n);
    }

    /** DECIMAL * DECIMAL: unscaled product has scale sa + sb; rescale to the result's scale. */
    static Vector decimalTimes(LongVector a, LongVector b, int scaleA, int scaleB, FerryType type, int n) {
        LongVector product = (LongVector) longOp(Op.TIMES, a, b, FerryType.decimal(18, Math.min(18, scaleA + scaleB)), n);
        int shift = type.scale() - (scaleA + scaleB);
        return Decimals.rescale(product, shift, type, n);
    }

    /** DECIMAL / DECIMAL: result unscaled = round(a * 10^(s - sa + sb) / b), computed exactly. */
    static Vector decimalDivide(LongVector a, LongVector b, int scaleA, int scaleB, FerryType type, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        int shift = type.scale() - scaleA + scaleB;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            if (y[i] == 0) {
                throw FerryException.divisionByZero();
            }
            java.math.BigInteger num = java.math.BigInteger.valueOf(x[i]);
            java.math.BigInteger den = java.math.BigInteger.valueOf(y[i]);
            if (shift >= 0) {
                num = num.multiply(java.math.BigInteger.TEN.pow(shift));
            } else {
                den = den.multiply(java.math.BigInteger.TEN.pow(-shift));
            }
            java.math.BigDecimal q = new java.math.BigDecimal(num).divide(new java.math.BigDecimal(den), 0,
                    java.math.RoundingMode.HALF_UP);
            if (q.unscaledValue().bitLength() > 63) {
                throw FerryException.overflow(type.sqlName());
            }
            r[i] = q.longValueExact();
        }
        checkWidth(r, nulls, type, n);
        return new LongVector(r, nulls, n);
    }

    static Vector negate(Vector v, FerryType type, int n) {
        if (v instanceof DoubleVector d) {
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                r[i] = -d.values()[i];
            }
            return new DoubleVector(r, d.nulls(), n);
        }
        LongVector l = (LongVector) v;
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            if (l.values()[i] == Long.MIN_VALUE && !l.isNull(i)) {
                throw FerryException.overflow(type.sqlName());
            }
            r[i] = -l.values()[i];
        }
        return new LongVector(r, l.nulls(), n);
    }

    static Vector abs(Vector v, FerryType type, int n) {
        if (v instanceof DoubleVector d) {
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                r[i] = Math.abs(d.values()[i]);
            }
            return new DoubleVector(r, d.nulls(), n);
        }
        LongVector l = (LongVector) v;
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            if (l.values()[i] == Long.MIN_VALUE && !l.isNull(i)) {
                throw FerryException.overflow(type.sqlName());
            }
            r[i] = Math.abs(l.values()[i]);
        }
        checkWidth(r, l.nulls(), type, n);
        return new LongVector(r, l.nulls(), n);
    }
}
