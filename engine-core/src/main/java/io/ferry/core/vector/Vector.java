package io.ferry.core.vector;

import io.ferry.core.types.Physical;

/**
 * One column of a {@link Batch}: values in a primitive array plus an optional null mask ({@code nulls == null}
 * means no value is NULL). Vectors are written once by the operator that makes them and read-only after.
 */
public abstract sealed class Vector permits LongVector, DoubleVector, BytesVector {
    /** Rows a batch holds at most: big enough to amortize per-batch work, small enough to stay in cache. */
    public static final int MAX_ROWS = 4096;

    protected final int size;
    protected final boolean[] nulls;

    protected Vector(int size, boolean[] nulls) {
        this.size = size;
        this.nulls = nulls;
    }

    public final int size() {
        return size;
    }

    /** The null mask, or {@code null} when no value is NULL. */
    public final boolean[] nulls() {
        return nulls;
    }

    public final boolean isNull(int i) {
        return nulls != null && nulls[i];
    }

    public abstract Physical physical();

    /** Rows at {@code positions[0..count)}; a position of -1 yields NULL (outer-join padding). */
    public abstract Vector gather(int[] positions, int count);

    /** Rows whose {@code mask} entry is true, in order; {@code count} is how many are true. */
    public abstract Vector compact(boolean[] mask, int count);

    /** A vector of {@code size} NULLs of the given physical kind. */
    public static Vector allNull(Physical physical, int size) {
        boolean[] n = new boolean[size];
        java.util.Arrays.fill(n, true);
        return switch (physical) {
            case LONG -> new LongVector(new long[size], n, size);
            case DOUBLE -> new DoubleVector(new double[size], n, size);
            case BYTES -> new BytesVector(new byte[0], new int[size + 1], n, size);
        };
    }

    /**
     * The NULL flags of a gather: a negative position (a row with no match, of an outer join) or a NULL source row;
     * null when no row is NULL. Without source flags, one pass looks for negative positions first (none, in most
     * gathers); with them, each flag is read without a branch on the row. An empty source's positions are all
     * negative, so its flags, if it has any, are not read.
     */
    protected static boolean[] gatherNulls(boolean[] nulls, int[] positions, int count) {
        if (nulls == null || nulls.length == 0) {
            int min = 0;
            for (int i = 0; i < count; i++) {
                min = Math.min(min, positions[i]);
            }
            if (min >= 0) {
                return null;
            }
            boolean[] out = new boolean[count];
            for (int i = 0; i < count; i++) {
                out[i] = positions[i] < 0;
            }
            return out;
        }
        boolean[] out = new boolean[count];
        boolean any = false;
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            boolean isNull = p < 0 | nulls[p & ~(p >> 31)]; // a negative position reads row 0, then is NULL anyway
            out[i] = isNull;
            any |= isNull;
        }
        return any ? out : null;
    }

    protected static boolean[] compactNulls(boolean[] nulls, boolean[] mask, int count) {
        if (nulls == null) {
            return null;
        }
        boolean[] out = new boolean[count];
        boolean any = false;
        for (int i = 0, j = 0; j < count; i++) {
            if (mask[i]) {
                any |= (out[j++] = nulls[i]);
            }
        }
        return any ? out : null;
    }
}
