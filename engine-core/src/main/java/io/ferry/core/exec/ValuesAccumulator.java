package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * Every non-NULL value of the argument, per group: the state exact quantiles need, since no smaller summary gives an
 * exact order statistic. A value is kept as its 64 bits (the long, or a DOUBLE's raw bits), a wide DECIMAL as two
 * longs (high, low); the state leaves as bytes, eight little-endian per long, so that it travels between threads and
 * nodes in an ordinary column. Over a column of such bytes (the merge) it concatenates. A group without values has
 * a NULL state.
 */
final class ValuesAccumulator extends Accumulator {
    /** The argument is a wide DECIMAL: a BytesVector of values, not of states to merge. */
    private final boolean wide;
    private long[][] values = new long[0][];
    private int[] sizes = new int[0];

    ValuesAccumulator(boolean wide) {
        this.wide = wide;
    }

    @Override
    void ensure(int groups) {
        if (groups > capacity) {
            capacity = grown(capacity, groups);
            values = Arrays.copyOf(values, capacity);
            sizes = Arrays.copyOf(sizes, capacity);
        }
    }

    @Override
    void add(int[] groups, Vector v, int n) {
        if (v instanceof LongVector l) {
            long[] x = l.values();
            for (int i = 0; i < n; i++) {
                if (!l.isNull(i)) {
                    append(groups[i], x[i]);
                }
            }
        } else if (v instanceof DoubleVector d) {
            double[] x = d.values();
            for (int i = 0; i < n; i++) {
                if (!d.isNull(i)) {
                    append(groups[i], Double.doubleToRawLongBits(x[i]));
                }
            }
        } else if (wide) {
            BytesVector b = (BytesVector) v;
            for (int i = 0; i < n; i++) {
                if (!b.isNull(i)) {
                    int at = b.start(i);
                    append(groups[i], WideDecimal.hi(b.data(), at));
                    append(groups[i], WideDecimal.lo(b.data(), at));
                }
            }
        } else {
            BytesVector b = (BytesVector) v;
            byte[] data = b.data();
            for (int i = 0; i < n; i++) {
                if (!b.isNull(i)) {
                    int at = b.start(i);
                    int end = at + b.length(i);
                    for (; at < end; at += Long.BYTES) {
                        append(groups[i], (long) LONGS.get(data, at));
                    }
                }
            }
        }
    }

    private void append(int g, long x) {
        long[] a = values[g];
        int size = sizes[g];
        if (a == null || size == a.length) {
            a = values[g] = Arrays.copyOf(a == null ? new long[0] : a, Math.max(8, size * 2));
        }
        a[size] = x;
        sizes[g] = size + 1;
    }

    @Override
    Vector result(int from, int count) {
        BytesVector.Builder out = new BytesVector.Builder(count);
        for (int g = from; g < from + count; g++) {
            if (sizes[g] == 0) {
                out.appendNull();
                continue;
            }
            out.append(pack(values[g], sizes[g]));
        }
        return out.build();
    }

    private static byte[] pack(long[] a, int size) {
        byte[] bytes = new byte[size * Long.BYTES];
        for (int i = 0; i < size; i++) {
            LONGS.set(bytes, i * Long.BYTES, a[i]);
        }
        return bytes;
    }

    /** The values of one packed state, in the order they were added. */
    static long[] unpack(BytesVector states, int row) {
        long[] out = new long[states.length(row) / Long.BYTES];
        byte[] data = states.data();
        int at = states.start(row);
        for (int i = 0; i < out.length; i++, at += Long.BYTES) {
            out[i] = (long) LONGS.get(data, at);
        }
        return out;
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
}
