package io.ferry.core.expr;

import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** AND, OR, NOT and the IS tests with SQL's three-valued logic. */
final class LogicKernels {
    private LogicKernels() {
    }

    /** AND: false if any side is false (even if the other is NULL); NULL if any side is NULL; else true. */
    static LongVector and(LongVector a, LongVector b, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        boolean[] an = a.nulls();
        boolean[] bn = b.nulls();
        if (an == null && bn == null) {
            for (int i = 0; i < n; i++) {
                r[i] = x[i] & y[i];
            }
            return new LongVector(r, null, n);
        }
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            boolean xn = an != null && an[i];
            boolean yn = bn != null && bn[i];
            boolean xf = !xn && x[i] == 0;
            boolean yf = !yn && y[i] == 0;
            if (xf || yf) {
                r[i] = 0;
            } else if (xn || yn) {
                nulls[i] = true;
            } else {
                r[i] = 1;
            }
        }
        return new LongVector(r, nulls, n);
    }

    /** OR: true if any side is true; NULL if any side is NULL; else false. */
    static LongVector or(LongVector a, LongVector b, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        boolean[] an = a.nulls();
        boolean[] bn = b.nulls();
        if (an == null && bn == null) {
            for (int i = 0; i < n; i++) {
                r[i] = x[i] | y[i];
            }
            return new LongVector(r, null, n);
        }
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            boolean xn = an != null && an[i];
            boolean yn = bn != null && bn[i];
            boolean xt = !xn && x[i] != 0;
            boolean yt = !yn && y[i] != 0;
            if (xt || yt) {
                r[i] = 1;
            } else if (xn || yn) {
                nulls[i] = true;
            }
        }
        return new LongVector(r, nulls, n);
    }

    static LongVector not(LongVector a, int n) {
        long[] x = a.values();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = x[i] ^ 1;
        }
        return new LongVector(r, a.nulls(), n);
    }

    /** IS NULL, IS NOT NULL, IS [NOT] TRUE, IS [NOT] FALSE: never NULL themselves. */
    static LongVector test(Op op, Vector v, int n) {
        long[] r = new long[n];
        boolean[] nulls = v.nulls();
        long[] x = v instanceof LongVector l ? l.values() : null;
        for (int i = 0; i < n; i++) {
            boolean isNull = nulls != null && nulls[i];
            boolean result = switch (op) {
                case IS_NULL -> isNull;
                case IS_NOT_NULL -> !isNull;
                case IS_TRUE -> !isNull && x[i] != 0;
                case IS_FALSE -> !isNull && x[i] == 0;
                case IS_NOT_TRUE -> isNull || x[i] == 0;
                case IS_NOT_FALSE -> isNull || x[i] != 0;
                default -> throw new IllegalArgumentException(op.name());
            };
            r[i] = result ? 1 : 0;
        }
        return new LongVector(r, null, n);
    }
}
