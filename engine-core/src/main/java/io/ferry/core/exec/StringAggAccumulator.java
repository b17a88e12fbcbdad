package io.ferry.core.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.Vector;

/**
 * STRING_AGG(s, sep): a group's non-NULL values joined, each value after its own row's separator except the first
 * (as PostgreSQL and DuckDB; ',' without a separator argument, and a NULL separator joins with nothing). A state is
 * the first value's separator and the joined text, packed as {@code [length of sep, 4 bytes LE][sep][text]}: two
 * states join as their rows would have, with the second's first separator between them, so partial states from
 * threads and nodes merge exactly. Over packed states ({@code raw} false) it does that join. A group without
 * values has a NULL state.
 */
final class StringAggAccumulator extends Accumulator {
    private static final byte[] COMMA = {','};
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final boolean raw;
    private byte[][] text = new byte[0][];
    private int[] lengths = new int[0];
    private byte[][] firstSeparators = new byte[0][];

    StringAggAccumulator(boolean raw) {
        this.raw = raw;
    }

    @Override
    void ensure(int groups) {
        if (groups > capacity) {
            capacity = grown(capacity, groups);
            text = Arrays.copyOf(text, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
            firstSeparators = Arrays.copyOf(firstSeparators, capacity);
        }
    }

    @Override
    void add(int[] groups, Vector v, int n) {
        add(groups, v, null, n);
    }

    @Override
    void add(int[] groups, Vector v, Vector v2, int n) {
        BytesVector values = (BytesVector) v;
        BytesVector separators = (BytesVector) v2;
        byte[] data = values.data();
        for (int i = 0; i < n; i++) {
            if (values.isNull(i)) {
                continue;
            }
            int g = groups[i];
            int at = values.start(i);
            int len = values.length(i);
            byte[] sepData = COMMA;
            int sepAt = 0;
            int sepLen = 1;
            if (!raw) {
                sepData = data;
                sepLen = (int) INTS.get(data, at);
                sepAt = at + Integer.BYTES;
                at = sepAt + sepLen;
                len -= Integer.BYTES + sepLen;
            } else if (separators != null) {
                sepData = separators.data();
                sepAt = separators.start(i);
                sepLen = separators.isNull(i) ? 0 : separators.length(i);
            }
            if (text[g] == null) {
                firstSeparators[g] = Arrays.copyOfRange(sepData, sepAt, sepAt + sepLen);
                text[g] = new byte[Math.max(16, len)];
            } else {
                append(g, sepData, sepAt, sepLen);
            }
            append(g, data, at, len);
        }
    }

    private void append(int g, byte[] src, int from, int len) {
        byte[] t = text[g];
        int size = lengths[g];
        if (size + len > t.length) {
            t = text[g] = Arrays.copyOf(t, Math.max(size + len, t.length * 2));
        }
        System.arraycopy(src, from, t, size, len);
        lengths[g] = size + len;
    }

    @Override
    Vector result(int from, int count) {
        BytesVector.Builder out = new BytesVector.Builder(count);
        for (int g = from; g < from + count; g++) {
            if (text[g] == null) {
                out.appendNull();
                continue;
            }
            byte[] sep = firstSeparators[g];
            byte[] packed = new byte[Integer.BYTES + sep.length + lengths[g]];
            INTS.set(packed, 0, sep.length);
            System.arraycopy(sep, 0, packed, Integer.BYTES, sep.length);
            System.arraycopy(text[g], 0, packed, Integer.BYTES + sep.length, lengths[g]);
            out.append(packed);
        }
        return out.build();
    }

    /** The joined text of each packed state. */
    static Vector finish(BytesVector states) {
        int n = states.size();
        BytesVector.Builder out = new BytesVector.Builder(n);
        byte[] data = states.data();
        for (int r = 0; r < n; r++) {
            if (states.isNull(r)) {
                out.appendNull();
                continue;
            }
            int at = states.start(r);
            int skip = Integer.BYTES + (int) INTS.get(data, at);
            out.append(data, at + skip, states.length(r) - skip);
        }
        return out.build();
    }
}
