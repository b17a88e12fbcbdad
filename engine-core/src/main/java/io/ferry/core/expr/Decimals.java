package io.ferry.core.expr;

import java.math.BigDecimal;
import java.math.MathContext;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.LongVector;

/** Scaling of unscaled DECIMAL longs by powers of ten, rounding half away from zero. */
public final class Decimals {
    static final long[] POWERS = new long[19];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * 10;
        }
    }

    private Decimals() {
    }

    public static long pow10(int n) {
        return POWERS[n];
    }

    /** Integers up to 2^53 are exact doubles. */
    private static final double EXACT_DOUBLES = 0x1p53;

    /**
     * An exact sum over a count, rounded once to the nearest double: the mean AVG answers for exact numbers. In
     * doubles where the unscaled sum and the count times 10^scale are exact doubles (one IEEE division rounds
     * correctly), else in 34 significant digits. Dividing a sum past 2^53 as a double rounded it first, so equal means
     * of groups of different sizes came out a unit apart, and a DISTINCT kept both (fuzzer, seed 311 query 2072: AVG
     * of BIGINTs near 10^18, grouped over a cross join).
     */
    public static double average(BigDecimal sum, long count) {
        if (sum.scale() >= 0 && sum.unscaledValue().bitLength() < 63) {
            return average(sum.unscaledValue().longValue(), sum.scale(), count);
        }
        return sum.divide(BigDecimal.valueOf(count), MathContext.DECIMAL128).doubleValue();
    }

    /** {@link #average(BigDecimal, long)} of the sum {@code unscaled / 10^scale}, without allocating where it can. */
    public static double average(long unscaled, int scale, long count) {
        double divisor = count * Math.pow(10, scale);
        if (Math.abs((double) unscaled) <= EXACT_DOUBLES && divisor <= EXACT_DOUBLES) {
            return unscaled / divisor;
        }
        return BigDecimal.valueOf(unscaled, scale).divide(BigDecimal.valueOf(count), MathContext.DECIMAL128)
                .doubleValue();
    }


    /** Multiplies (shift > 0) or divides with rounding (shift < 0) every value by 10^|shift|. */
    static LongVector rescale(LongVector v, int shift, FerryType type, int n) {
        if (shift == 0) {
            ArithmeticKernels.checkWidth(v.values(), v.nulls(), type, n);
            return v;
        }
        long[] x = v.values();
        long[] r = new long[n];
        boolean[] nulls = v.nulls();
        if (shift > 0) {
            if (shift > 18) {
                for (int i = 0; i < n; i++) {
                    if (x[i] != 0 && (nulls == null || !nulls[i])) {
                        throw FerryException.overflow(type.sqlName());
                    }
                }
                return new LongVector(r, nulls, n);
            }
            long f = POWERS[shift];
            for (int i = 0; i < n; i++) {
                long hi = Math.multiplyHigh(x[i], f);
                long lo = x[i] * f;
                if (hi != (lo >> 63) && (nulls == null || !nulls[i])) {
                    throw FerryException.overflow(type.sqlName());
                }
                r[i] = lo;
            }
        } else {
            if (-shift > 18) {
                return new LongVector(r, nulls, n);
            }
            long f = POWERS[-shift];
            long half = f / 2;
            for (int i = 0; i < n; i++) {
                long q = x[i] / f;
                long rem = x[i] % f;
                if (rem >= half && half > 0) {
                    q++;
                } else if (rem <= -half && half > 0) {
                    q--;
                }
                r[i] = q;
            }
        }
        ArithmeticKernels.checkWidth(r, nulls, type, n);
        return new LongVector(r, nulls, n);
    }
}
