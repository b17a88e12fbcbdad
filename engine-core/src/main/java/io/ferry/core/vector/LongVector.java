package io.ferry.core.vector;

import io.ferry.core.types.Physical;

/** BIGINT, INTEGER, DATE, TIMESTAMP, BOOLEAN (0/1) and DECIMAL (unscaled) values. */
public final class LongVector extends Vector {
    private final long[] values;

    public LongVector(long[] values, boolean[] nulls, int size) {
        super(size, nulls);
        this.values = values;
    }

    public LongVector(long[] values, boolean[] nulls) {
        this(values, nulls, values.length);
    }

    public static LongVector constant(long value, int size) {
        long[] v = new long[size];
        java.util.Arrays.fill(v, value);
        return new LongVector(v, null, size);
    }

    public long[] values() {
        return values;
    }

    public long get(int i) {
        return values[i];
    }

    @Override
    public Physical physical() {
        return Physical.LONG;
    }

    @Override
    public LongVector gather(int[] positions, int count) {
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            out[i] = p < 0 ? 0 : values[p];
        }
        return new LongVector(out, gatherNulls(nulls, positions, count), count);
    }

    @Override
    public LongVector compact(boolean[] mask, int count) {
        long[] out = new long[count];
        for (int i = 0, j = 0; j < count; i++) {
            if (mask[i]) {
                out[j++] = values[i];
            }
        }
        return new LongVector(out, compactNulls(nulls, mask, count), count);
    }
}
