package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** The distinct values of one grouping column, by group id, in a growable columnar store. */
final class KeyColumn {
    private final Physical physical;
    private long[] longs;
    private double[] doubles;
    private byte[] bytes;
    private int[] offsets;
    private boolean[] nulls;
    private int size;

    KeyColumn(Physical physical, int capacity) {
        this.physical = physical;
        switch (physical) {
            case LONG -> longs = new long[capacity];
            case DOUBLE -> doubles = new double[capacity];
            case BYTES -> {
                bytes = new byte[capacity * 8];
                offsets = new int[capacity + 1];
            }
        }
        nulls = new boolean[capacity];
    }

    /** Bytes held, for memory accounting. */
    long bytesUsed() {
        return switch (physical) {
            case LONG -> 9L * nulls.length;
            case DOUBLE -> 9L * nulls.length;
            case BYTES -> bytes.length + 5L * nulls.length;
        };
    }

    void append(Vector v, int row) {
        if (size == nulls.length) {
            grow();
        }
        boolean isNull = v.isNull(row);
        nulls[size] = isNull;
        switch (physical) {
            case LONG -> longs[size] = isNull ? 0 : ((LongVector) v).get(row);
            case DOUBLE -> doubles[size] = isNull ? 0 : ((DoubleVector) v).get(row);
            case BYTES -> {
                BytesVector b = (BytesVector) v;
                int len = isNull ? 0 : b.length(row);
                int at = offsets[size];
                if (at + len > bytes.length) {
                    bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, at + len));
                }
                if (len > 0) {
                    System.arraycopy(b.data(), b.start(row), bytes, at, len);
                }
                offsets[size + 1] = at + len;
            }
        }
        size++;
    }

    boolean equalsAt(int group, Vector v, int row) {
        boolean isNull = v.isNull(row);
        if (isNull || nulls[group]) {
            return isNull == nulls[group];
        }
        return switch (physical) {
            case LONG -> longs[group] == ((LongVector) v).get(row);
            case DOUBLE -> Double.compare(doubles[group] == 0.0 ? 0.0 : doubles[group],
                    ((DoubleVector) v).get(row) == 0.0 ? 0.0 : ((DoubleVector) v).get(row)) == 0;
            case BYTES -> ((BytesVector) v).equalsAt(row, bytes, offsets[group], offsets[group + 1] - offsets[group]);
        };
    }

    private void grow() {
        int cap = nulls.length * 2;
        nulls = Arrays.copyOf(nulls, cap);
        switch (physical) {
            case LONG -> longs = Arrays.copyOf(longs, cap);
            case DOUBLE -> doubles = Arrays.copyOf(doubles, cap);
            case BYTES -> offsets = Arrays.copyOf(offsets, cap + 1);
        }
    }

    /** Groups {@code [from, from + count)} as a vector. */
    Vector toVector(int from, int count) {
        boolean any = false;
        for (int i = from; i < from + count; i++) {
            any |= nulls[i];
        }
        boolean[] n = any ? Arrays.copyOfRange(nulls, from, from + count) : null;
        return switch (physical) {
            case LONG -> new LongVector(Arrays.copyOfRange(longs, from, from + count), n, count);
            case DOUBLE -> new DoubleVector(Arrays.copyOfRange(doubles, from, from + count), n, count);
            case BYTES -> {
                int base = offsets[from];
                int[] o = new int[count + 1];
                for (int i = 0; i <= count; i++) {
                    o[i] = offsets[from + i] - base;
                }
                yield new BytesVector(Arrays.copyOfRange(bytes, base, offsets[from + count]), o, n, count);
            }
        };
    }
}
