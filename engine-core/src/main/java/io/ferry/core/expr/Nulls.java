package io.ferry.core.expr;

/** Null-mask arithmetic shared by the kernels: a null mask of {@code null} means "no nulls". */
final class Nulls {
    private Nulls() {
    }

    static boolean[] or(boolean[] a, boolean[] b, int n) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        boolean[] out = new boolean[n];
        for (int i = 0; i < n; i++) {
            out[i] = a[i] | b[i];
        }
        return out;
    }

    static boolean[] copy(boolean[] a, int n) {
        return a == null ? new boolean[n] : java.util.Arrays.copyOf(a, n);
    }
}
