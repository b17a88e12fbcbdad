package io.ferry.core.expr;

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
