package io.ferry.core.expr;

import java.util.Arrays;

import io.ferry.core.types.DoubleOrder;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

/** Vectorized comparisons producing BOOLEAN (0/1) vectors; one loop per operator and operand shape. */
final class ComparisonKernels {
    private ComparisonKernels() {
    }

    static LongVector longs(Op op, LongVector a, LongVector b, int n) {
        long[] x = a.values();
        long[] y = b.values();
        long[] r = new long[n];
        switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { r[i] = x[i] == y[i] ? 1 : 0; } }
            case NE -> { for (int i = 0; i < n; i++) { r[i] = x[i] != y[i] ? 1 : 0; } }
            case LT -> { for (int i = 0; i < n; i++) { r[i] = x[i] < y[i] ? 1 : 0; } }
            case LE -> { for (int i = 0; i < n; i++) { r[i] = x[i] <= y[i] ? 1 : 0; } }
            case GT -> { for (int i = 0; i < n; i++) { r[i] = x[i] > y[i] ? 1 : 0; } }
            case GE -> { for (int i = 0; i < n; i++) { r[i] = x[i] >= y[i] ? 1 : 0; } }
            default -> throw new IllegalArgumentException(op.name());
        }
        return new LongVector(r, Nulls.or(a.nulls(), b.nulls(), n), n);
    }

    static LongVector longConst(Op op, LongVector a, long y, int n) {
        long[] x = a.values();
        long[] r = new long[n];
        switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { r[i] = x[i] == y ? 1 : 0; } }
            case NE -> { for (int i = 0; i < n; i++) { r[i] = x[i] != y ? 1 : 0; } }
            case LT -> { for (int i = 0; i < n; i++) { r[i] = x[i] < y ? 1 : 0; } }
            case LE -> { for (int i = 0; i < n; i++) { r[i] = x[i] <= y ? 1 : 0; } }
            case GT -> { for (int i = 0; i < n; i++) { r[i] = x[i] > y ? 1 : 0; } }
            case GE -> { for (int i = 0; i < n; i++) { r[i] = x[i] >= y ? 1 : 0; } }
            default -> throw new IllegalArgumentException(op.name());
        }
        return new LongVector(r, a.nulls(), n);
    }

    /** DOUBLEs in SQL's order ({@link DoubleOrder}): NaN is equal to itself and above every other value. */
    static LongVector doubles(Op op, DoubleVector a, DoubleVector b, int n) {
        double[] x = a.values();
        double[] y = b.values();
        long[] r = new long[n];
        switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { r[i] = DoubleOrder.equal(x[i], y[i]) ? 1 : 0; } }
            case NE -> { for (int i = 0; i < n; i++) { r[i] = !DoubleOrder.equal(x[i], y[i]) ? 1 : 0; } }
            case LT -> { for (int i = 0; i < n; i++) { r[i] = DoubleOrder.less(x[i], y[i]) ? 1 : 0; } }
            case LE -> { for (int i = 0; i < n; i++) { r[i] = DoubleOrder.lessOrEqual(x[i], y[i]) ? 1 : 0; } }
            case GT -> { for (int i = 0; i < n; i++) { r[i] = DoubleOrder.greater(x[i], y[i]) ? 1 : 0; } }
            case GE -> { for (int i = 0; i < n; i++) { r[i] = DoubleOrder.greaterOrEqual(x[i], y[i]) ? 1 : 0; } }
            default -> throw new IllegalArgumentException(op.name());
        }
        return new LongVector(r, Nulls.or(a.nulls(), b.nulls(), n), n);
    }

    static LongVector bytes(Op op, BytesVector a, BytesVector b, int n) {
        byte[] x = a.data();
        byte[] y = b.data();
        int[] xo = a.offsets();
        int[] yo = b.offsets();
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            int c = Arrays.compareUnsigned(x, xo[i], xo[i + 1], y, yo[i], yo[i + 1]);
            r[i] = test(op, c) ? 1 : 0;
        }
        return new LongVector(r, Nulls.or(a.nulls(), b.nulls(), n), n);
    }

    static LongVector bytesConst(Op op, BytesVector a, byte[] y, int n) {
        byte[] x = a.data();
        int[] xo = a.offsets();
        long[] r = new long[n];
        if (op == Op.EQ || op == Op.NE) {
            long hit = op == Op.EQ ? 1 : 0;
            for (int i = 0; i < n; i++) {
                boolean eq = xo[i + 1] - xo[i] == y.length && Arrays.equals(x, xo[i], xo[i + 1], y, 0, y.length);
                r[i] = eq ? hit : 1 - hit;
            }
        } else {
            for (int i = 0; i < n; i++) {
                r[i] = test(op, Arrays.compareUnsigned(x, xo[i], xo[i + 1], y, 0, y.length)) ? 1 : 0;
            }
        }
        return new LongVector(r, a.nulls(), n);
    }

    private static boolean test(Op op, int c) {
        return switch (op) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
            default -> throw new IllegalArgumentException(op.name());
        };
    }
}
