package io.ferry.core.expr;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * ROUND, TRUNCATE, CEIL and FLOOR of numbers, one loop per function over a whole vector. Exact numbers round half away from
 * zero on their unscaled longs; DOUBLEs round as DuckDB does (C's {@code round}, which also rounds half away from
 * zero), so the two engines agree on every row.
 */
final class RoundingKernels {
    private RoundingKernels() {
    }

    /**
     * {@code x} rounded ({@code cut} false) or cut toward zero (TRUNCATE) to {@code digits} after the point (before it
     * when negative): a DOUBLE stays a DOUBLE, an exact number keeps its type and scale, its dropped digits set to
     * zero; a rounded result beyond the type is 22003.
     */
    static Vector round(Vector v, LongVector digits, FerryType type, boolean cut, int n) {
        long[] d = digits.values();
        boolean[] nulls = Nulls.or(v.nulls(), digits.nulls(), n);
        if (v instanceof DoubleVector dv) {
            double[] x = dv.values();
            double[] r = new double[n];
            for (int i = 0; i < n; i++) {
                r[i] = cut ? truncate(x[i], d[i]) : round(x[i], d[i]);
            }
            return new DoubleVector(r, nulls, n);
        }
        long[] x = ((LongVector) v).values();
        int scale = type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
        long[] r = new long[n];
        long overflow = 0;
        for (int i = 0; i < n; i++) {
            if (d[i] >= scale) {
                r[i] = x[i];
            } else if (d[i] <= scale - Decimals.POWERS.length) {
                // 10^19 and up exceed any long, whose magnitude is then below half a unit
                r[i] = 0;
            } else {
                long unit = Decimals.POWERS[(int) (scale - d[i])];
                long q = x[i] / unit;
                // |x % unit| < unit <= 10^18, so doubling it cannot overflow
                if (!cut && Math.abs(x[i] % unit) * 2 >= unit) {
                    q += Long.signum(x[i]);
                }
                long hi = Math.multiplyHigh(q, unit);
                long lo = q * unit;
                overflow |= nulls != null && nulls[i] ? 0 : hi ^ (lo >> 63);
                r[i] = lo;
            }
        }
        if (overflow != 0) {
            throw FerryException.overflow(type.sqlName());
        }
        ArithmeticKernels.checkWidth(r, nulls, type, n);
        return new LongVector(r, nulls, n);
    }

    /** TRUNCATE as DuckDB computes it: scaled by a power of ten, cut, scaled back; a result that overflows is x. */
    private static double truncate(double x, long digits) {
        double r;
        if (digits >= 0) {
            double modifier = Math.pow(10, digits);
            r = (x < 0 ? Math.ceil(x * modifier) : Math.floor(x * modifier)) / modifier;
        } else {
            double modifier = Math.pow(10, -digits);
            r = (x < 0 ? Math.ceil(x / modifier) : Math.floor(x / modifier)) * modifier;
        }
        return Double.isFinite(r) ? r : x;
    }

    /**
     * DuckDB's ROUND of a DOUBLE: scaled by 10^digits, rounded half away from zero, scaled back. NaN and infinities
     * are themselves; where scaling a finite x overflows to a non-finite value the answer is x itself (digits >= 0,
     * x has no digits that far right) or 0 (digits < 0, x is below half of 10^-digits).
     */
    private static double round(double x, long digits) {
        if (!Double.isFinite(x)) {
            return x;
        }
        if (digits < 0) {
            double modifier = Math.pow(10, -(double) digits);
            double r = halfAwayFromZero(x / modifier) * modifier;
            return Double.isFinite(r) ? r : 0;
        }
        double modifier = Math.pow(10, digits);
        double r = halfAwayFromZero(x * modifier) / modifier;
        return Double.isFinite(r) ? r : x;
    }

    /**
     * C's {@code round}. {@code Math.round} rounds half up (-2.5 to -2) and returns a long; {@code floor(x + 0.5)}
     * rounds 0.49999999999999994 to 1. {@code y - floor(y)} is exact, so the comparison with 0.5 is too.
     */
    private static double halfAwayFromZero(double x) {
        double y = Math.abs(x);
        double f = Math.floor(y);
        return Math.copySign(y - f >= 0.5 ? f + 1 : f, x);
    }

    /**
     * CEIL ({@code up}) or FLOOR of a DOUBLE, or of a DECIMAL as a DECIMAL of scale 0 ({@code scale} is the
     * argument's): the quotient by 10^scale rounded toward +inf or -inf.
     */
    static Vector ceilOrFloor(Vector v, boolean up, int scale, int n) {
        if (v instanceof DoubleVector dv) {
            double[] x = dv.values();
            double[] r = new double[n];
            if (up) {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.ceil(x[i]);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    r[i] = Math.floor(x[i]);
                }
            }
            return new DoubleVector(r, v.nulls(), n);
        }
        long[] x = ((LongVector) v).values();
        long unit = Decimals.POWERS[scale];
        long[] q = new long[n];
        if (up) {
            for (int i = 0; i < n; i++) {
                q[i] = -Math.floorDiv(-x[i], unit);
            }
        } else {
            for (int i = 0; i < n; i++) {
                q[i] = Math.floorDiv(x[i], unit);
            }
        }
        return new LongVector(q, v.nulls(), n);
    }
}
