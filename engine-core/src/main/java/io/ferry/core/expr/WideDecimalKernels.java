package io.ferry.core.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * Arithmetic and casts where an operand or the result is a wide DECIMAL (more than 18 digits, {@link WideDecimal}).
 * Values are decoded into two arrays of 64-bit halves per batch. Sums, differences, products of two longs and
 * rescaling of values that fit a long run on those halves without allocating per row; the rest (a product or rescale
 * of values past a long, quotients, remainders, ROUND, CEIL, FLOOR, text) goes through BigInteger per row, which
 * only values beyond 18 digits reach. Every result is checked against its type's precision: 22003 past it, as for longs.
 */
final class WideDecimalKernels {
    private WideDecimalKernels() {
    }

    /** Whether an exact computation over these types needs the wide kernels. */
    static boolean involved(FerryType a, FerryType b) {
        return a.isWideDecimal() || (b != null && b.isWideDecimal());
    }

    /**
     * A vector of exact type {@code type} from 128-bit values: a value outside the type fails with 22003, or is NULL
     * under TRY_CAST ({@code orNull}). {@code failed} marks values already known not to convert.
     */
    static Vector exact(long[] hi, long[] lo, boolean[] nulls, boolean[] failed, FerryType type, int n,
            boolean orNull) {
        boolean[] bad = failed;
        for (int i = 0; i < n; i++) {
            if ((nulls != null && nulls[i]) || (bad != null && bad[i]) || fits(hi[i], lo[i], type)) {
                continue;
            }
            if (!orNull) {
                throw FerryException.overflow(type.sqlName());
            }
            bad = bad == null ? new boolean[n] : bad;
            bad[i] = true;
        }
        boolean[] outNulls = Nulls.or(nulls, bad, n);
        if (type.isWideDecimal()) {
            return WideDecimal.of(hi, lo, outNulls, n);
        }
        if (outNulls != null) {
            for (int i = 0; i < n; i++) {
                lo[i] = outNulls[i] ? 0 : lo[i];
            }
        }
        return new LongVector(lo, outNulls, n);
    }

    private static boolean fits(long hi, long lo, FerryType type) {
        return switch (type.kind()) {
            case DECIMAL -> WideDecimal.fits(hi, lo, type.precision());
            case INTEGER -> WideDecimal.isLong(hi, lo) && lo == (int) lo;
            default -> WideDecimal.isLong(hi, lo);
        };
    }

    /**
     * Multiplies value {@code i} by 10^shift, or divides it by 10^-shift rounding half away from zero; false where the
     * product passes 128 bits.
     */
    static boolean rescale(long[] hi, long[] lo, int i, int shift) {
        if (shift == 0) {
            return true;
        }
        long x = lo[i];
        if (WideDecimal.isLong(hi[i], x)) {
            if (shift > 0 && shift <= 18) {
                // |x| < 2^63 and 10^shift < 2^63: the 128-bit product is exact
                long f = Decimals.pow10(shift);
                hi[i] = Math.multiplyHigh(x, f);
                lo[i] = x * f;
                return true;
            }
            if (shift < 0 && shift >= -18) {
                long f = Decimals.pow10(-shift);
                long q = x / f;
                long rem = x % f;
                if (rem >= f - rem) {
                    q++;
                } else if (-rem >= f + rem) {
                    q--;
                }
                lo[i] = q;
                hi[i] = q >> 63;
                return true;
            }
        }
        BigInteger v = WideDecimal.toBigInteger(hi[i], x);
        v = shift > 0 ? v.multiply(BigInteger.TEN.pow(shift)) : divideRounded(v, BigInteger.TEN.pow(-shift));
        return store(hi, lo, i, v);
    }

    private static boolean store(long[] hi, long[] lo, int i, BigInteger v) {
        if (v.bitLength() > 127) {
            return false;
        }
        hi[i] = v.shiftRight(64).longValue();
        lo[i] = v.longValue();
        return true;
    }

    /** {@code v / d} rounded half away from zero ({@code d > 0}). */
    private static BigInteger divideRounded(BigInteger v, BigInteger d) {
        BigInteger[] qr = v.divideAndRemainder(d);
        if (qr[1].abs().shiftLeft(1).compareTo(d) >= 0) {
            return qr[0].add(BigInteger.valueOf(v.signum()));
        }
        return qr[0];
    }

    /** CAST where the source or the target is a wide DECIMAL (and neither is VARCHAR). */
    static Vector cast(Vector v, FerryType from, FerryType to, int n, boolean orNull) {
        if (to.kind() == TypeKind.DOUBLE) {
            long[][] h = WideDecimal.halves(v, n);
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                r[i] = WideDecimal.toDouble(h[0][i], h[1][i], scale(from));
            }
            return new DoubleVector(r, v.nulls(), n);
        }
        if (to.kind() == TypeKind.BOOLEAN) {
            long[][] h = WideDecimal.halves(v, n);
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                r[i] = (h[0][i] | h[1][i]) != 0 ? 1 : 0;
            }
            return new LongVector(r, v.nulls(), n);
        }
        boolean numericFrom = from.kind() == TypeKind.DECIMAL || from.kind() == TypeKind.INTEGER
                || from.kind() == TypeKind.BIGINT || from.kind() == TypeKind.DOUBLE;
        boolean exactTo = to.kind() == TypeKind.DECIMAL || to.kind() == TypeKind.INTEGER
                || to.kind() == TypeKind.BIGINT;
        if (!numericFrom || !exactTo) {
            throw new FerryException(io.ferry.core.SqlStates.DATATYPE_MISMATCH, "cannot cast " + from + " to " + to);
        }
        if (v instanceof DoubleVector d) {
            return fromDouble(d, to, n, orNull);
        }
        long[][] h = WideDecimal.halves(v, n);
        boolean[] failed = null;
        int shift = scale(to) - scale(from);
        for (int i = 0; i < n; i++) {
            if (!v.isNull(i) && !rescale(h[0], h[1], i, shift)) {
                if (!orNull) {
                    throw FerryException.overflow(to.sqlName());
                }
                failed = failed == null ? new boolean[n] : failed;
                failed[i] = true;
            }
        }
        return exact(h[0], h[1], v.nulls(), failed, to, n, orNull);
    }

    /** A DOUBLE to a wide DECIMAL: scaled by 10^s, rounded half away from zero, as {@link CastKernels} does. */
    private static Vector fromDouble(DoubleVector d, FerryType to, int n, boolean orNull) {
        long[] hi = new long[n];
        long[] lo = new long[n];
        boolean[] failed = null;
        double factor = Math.pow(10, to.scale());
        for (int i = 0; i < n; i++) {
            if (d.isNull(i)) {
                continue;
            }
            double scaled = d.get(i) * factor;
            double rounded = Math.copySign(Math.floor(Math.abs(scaled) + 0.5), scaled);
            if (!Double.isFinite(rounded) || !store(hi, lo, i, new BigDecimal(rounded).toBigInteger())) {
                if (!orNull) {
                    throw FerryException.overflow(to.sqlName());
                }
                failed = failed == null ? new boolean[n] : failed;
                failed[i] = true;
            }
        }
        return exact(hi, lo, d.nulls(), failed, to, n, orNull);
    }

    /** Text of a wide DECIMAL row, as CAST to VARCHAR writes it. */
    static String format(BytesVector v, int i, FerryType type) {
        return WideDecimal.get(v, i, type.scale()).toPlainString();
    }

    /** Text to a wide DECIMAL, rounding half away from zero to its scale; 22018 for text that is no number. */
    static Vector parse(BytesVector v, FerryType to, int n, boolean orNull) {
        long[] hi = new long[n];
        long[] lo = new long[n];
        boolean[] failed = null;
        for (int i = 0; i < n; i++) {
            if (v.isNull(i)) {
                continue;
            }
            String text = v.getString(i).strip();
            BigDecimal d;
            try {
                d = new BigDecimal(text);
            } catch (NumberFormatException e) {
                if (!orNull) {
                    throw new FerryException(io.ferry.core.SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST,
                            "invalid input for " + to.sqlName() + ": '" + text
                                    + "'; check the value or CAST it to a type that can hold it");
                }
                failed = failed == null ? new boolean[n] : failed;
                failed[i] = true;
                continue;
            }
            if (!store(hi, lo, i, d.setScale(to.scale(), RoundingMode.HALF_UP).unscaledValue())) {
                if (!orNull) {
                    throw FerryException.overflow(to.sqlName());
                }
                failed = failed == null ? new boolean[n] : failed;
                failed[i] = true;
            }
        }
        return exact(hi, lo, v.nulls(), failed, to, n, orNull);
    }

    /**
     * {@code a + b} or {@code a - b} of operands already at the result's scale. Each is below 10^38 in magnitude, so
     * a 128-bit result that wrapped is far outside 38 digits and {@link #exact} refuses it.
     */
    static Vector plusOrMinus(boolean minus, Vector a, Vector b, FerryType type, int n) {
        long[][] x = WideDecimal.halves(a, n);
        long[][] y = WideDecimal.halves(b, n);
        long[] hi = x[0];
        long[] lo = x[1];
        long[] yh = y[0];
        long[] yl = y[1];
        for (int i = 0; i < n; i++) {
            long bh = yh[i];
            long bl = yl[i];
            if (minus) {
                bl = -bl;
                bh = ~bh + (yl[i] == 0 ? 1 : 0);
            }
            long s = lo[i] + bl;
            hi[i] = hi[i] + bh + (Long.compareUnsigned(s, bl) < 0 ? 1 : 0);
            lo[i] = s;
        }
        return exact(hi, lo, Nulls.or(a.nulls(), b.nulls(), n), null, type, n, false);
    }

    /** {@code a * b}: the product has scale sa + sb, then is rescaled to the result's. */
    static Vector times(Vector a, Vector b, int scaleA, int scaleB, FerryType type, int n) {
        if (a instanceof LongVector x && b instanceof LongVector y && type.isWideDecimal()
                && type.scale() == scaleA + scaleB) {
            return longTimes(x, y, type, n);
        }
        long[][] x = WideDecimal.halves(a, n);
        long[][] y = WideDecimal.halves(b, n);
        long[] hi = x[0];
        long[] lo = x[1];
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        int shift = type.scale() - (scaleA + scaleB);
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            boolean ok;
            if (WideDecimal.isLong(hi[i], lo[i]) && WideDecimal.isLong(y[0][i], y[1][i])) {
                long p = lo[i];
                long q = y[1][i];
                hi[i] = Math.multiplyHigh(p, q);
                lo[i] = p * q;
                ok = true;
            } else {
                ok = store(hi, lo, i, WideDecimal.toBigInteger(hi[i], lo[i])
                        .multiply(WideDecimal.toBigInteger(y[0][i], y[1][i])));
            }
            if (!ok || !rescale(hi, lo, i, shift)) {
                throw FerryException.overflow(type.sqlName());
            }
        }
        return exact(hi, lo, nulls, null, type, n, false);
    }

    /**
     * The common wide product, two longs (a DECIMAL(15, 2) times a BIGINT): Math.multiplyHigh gives the exact 128
     * bits, written straight into the result's bytes. Two values below 10^18 multiply to less than 10^36; only a
     * product past the type's precision (a BIGINT operand near its bounds) fails.
     */
    private static Vector longTimes(LongVector a, LongVector b, FerryType type, int n) {
        long[] x = a.values();
        long[] y = b.values();
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        long[] hi = new long[n];
        long[] lo = new long[n];
        for (int i = 0; i < n; i++) {
            hi[i] = Math.multiplyHigh(x[i], y[i]);
            lo[i] = x[i] * y[i];
        }
        // |x * y| <= 2^126 < 10^38 for any two longs: a DECIMAL(38) holds every product unchecked
        return type.precision() < WideDecimal.MAX_PRECISION ? exact(hi, lo, nulls, null, type, n, false)
                : WideDecimal.of(hi, lo, nulls, n);
    }

    /**
     * {@code a / b} to a DECIMAL (the quotient rounded half away from zero at the result's scale) or {@code a % b}
     * (operands at the result's scale, the remainder with the dividend's sign); 22012 for a zero divisor.
     */
    static Vector divideOrModulo(boolean modulo, Vector a, Vector b, int scaleA, int scaleB, FerryType type, int n) {
        long[][] x = WideDecimal.halves(a, n);
        long[][] y = WideDecimal.halves(b, n);
        boolean[] nulls = Nulls.or(a.nulls(), b.nulls(), n);
        long[] hi = new long[n];
        long[] lo = new long[n];
        int shift = type.scale() - scaleA + scaleB;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            BigInteger num = WideDecimal.toBigInteger(x[0][i], x[1][i]);
            BigInteger den = WideDecimal.toBigInteger(y[0][i], y[1][i]);
            if (den.signum() == 0) {
                throw FerryException.divisionByZero();
            }
            BigInteger r;
            if (modulo) {
                r = num.remainder(den);
            } else {
                if (shift >= 0) {
                    num = num.multiply(BigInteger.TEN.pow(shift));
                } else {
                    den = den.multiply(BigInteger.TEN.pow(-shift));
                }
                BigInteger q = divideRounded(num.abs(), den.abs());
                r = num.signum() * den.signum() < 0 ? q.negate() : q;
            }
            if (!store(hi, lo, i, r)) {
                throw FerryException.overflow(type.sqlName());
            }
        }
        return exact(hi, lo, nulls, null, type, n, false);
    }

    /** -x or |x|; the magnitude of a value within its precision is too. */
    static Vector negateOrAbs(boolean abs, Vector v, FerryType type, int n) {
        long[][] h = WideDecimal.halves(v, n);
        long[] hi = h[0];
        long[] lo = h[1];
        for (int i = 0; i < n; i++) {
            if (!abs || hi[i] < 0) {
                long l = lo[i];
                lo[i] = -l;
                hi[i] = ~hi[i] + (l == 0 ? 1 : 0);
            }
        }
        return exact(hi, lo, v.nulls(), null, type, n, false);
    }

    /** SIGN: -1, 0 or 1 in the argument's type (at its scale). */
    static Vector sign(Vector v, FerryType type, int n) {
        long[][] h = WideDecimal.halves(v, n);
        for (int i = 0; i < n; i++) {
            long s = h[0][i] < 0 ? -1 : (h[0][i] | h[1][i]) != 0 ? 1 : 0;
            h[0][i] = s >> 63;
            h[1][i] = s;
            rescale(h[0], h[1], i, scale(type));
        }
        return exact(h[0], h[1], v.nulls(), null, type, n, false);
    }

    /** ROUND or TRUNCATE to {@code digits} after the point, the result at the type's scale (as the long kernel). */
    static Vector round(Vector v, LongVector digits, FerryType type, boolean cut, int n) {
        boolean[] nulls = Nulls.or(v.nulls(), digits.nulls(), n);
        RoundingMode mode = cut ? RoundingMode.DOWN : RoundingMode.HALF_UP;
        int scale = scale(type);
        return map(v, nulls, type, n, type, (d, i) -> {
            long k = Math.max(-WideDecimal.MAX_PRECISION - 1, Math.min(scale, digits.get(i)));
            return d.setScale((int) k, mode).setScale(scale);
        });
    }

    /** CEIL or FLOOR of a DECIMAL of scale {@code scale}, as a DECIMAL of scale 0 ({@code type}). */
    static Vector ceilOrFloor(Vector v, boolean up, FerryType from, FerryType type, int n) {
        RoundingMode mode = up ? RoundingMode.CEILING : RoundingMode.FLOOR;
        return map(v, v.nulls(), from, n, type, (d, i) -> d.setScale(0, mode));
    }

    private interface RowFunction {
        BigDecimal apply(BigDecimal value, int row);
    }

    /** {@code f} over each non-NULL row's value as a BigDecimal, the results at {@code type}'s scale. */
    private static Vector map(Vector v, boolean[] nulls, FerryType from, int n, FerryType type, RowFunction f) {
        long[][] h = WideDecimal.halves(v, n);
        long[] hi = new long[n];
        long[] lo = new long[n];
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            BigDecimal d = new BigDecimal(WideDecimal.toBigInteger(h[0][i], h[1][i]), scale(from));
            BigDecimal r = f.apply(d, i).setScale(scale(type), RoundingMode.HALF_UP);
            if (!store(hi, lo, i, r.unscaledValue())) {
                throw FerryException.overflow(type.sqlName());
            }
        }
        return exact(hi, lo, nulls, null, type, n, false);
    }

    static int scale(FerryType t) {
        return t.kind() == TypeKind.DECIMAL ? t.scale() : 0;
    }
}
