package io.ferry.core.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.Vector;

/**
 * STRING_AGG(s, sep ORDER BY k1, k2 ...) and LISTAGG ... WITHIN GROUP (ORDER BY ...): a group's non-NULL values
 * joined in the order of their rows' keys, each after its own row's separator except the first (as PostgreSQL and
 * DuckDB; ',' without a separator argument, nothing for a NULL one). Which value comes first is known only once
 * every row is, so a state keeps each row as an entry: its key in {@link SortKeyBytes}' order-preserving encoding,
 * its separator and its value, packed as {@code [length, 4 bytes LE][bytes]} each. Entries from threads and nodes
 * merge by concatenation ({@code raw} false: the input is packed states); {@link #finish} sorts a group's entries by
 * their key bytes once and joins. A group without values has a NULL state.
 */
final class OrderedStringAggAccumulator extends Accumulator {
    private static final byte[] COMMA = {','};
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final List<SortKey> order;
    private final boolean raw;
    private byte[][] entries = new byte[0][];
    private int[] lengths = new int[0];

    /** @param order the call's ORDER BY, whose columns reach {@link #add} in this order; empty over packed states */
    OrderedStringAggAccumulator(List<SortKey> order, boolean raw) {
        this.order = order;
        this.raw = raw;
    }

    @Override
    void ensure(int groups) {
        if (groups > capacity) {
            capacity = grown(capacity, groups);
            entries = Arrays.copyOf(entries, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
        }
    }

    @Override
    void add(int[] groups, Vector v, int n) {
        if (raw) {
            throw new IllegalStateException("STRING_AGG ... ORDER BY reads its ORDER BY columns too");
        }
        BytesVector states = (BytesVector) v;
        byte[] data = states.data();
        for (int i = 0; i < n; i++) {
            if (!states.isNull(i)) {
                append(groups[i], data, states.start(i), states.length(i));
            }
        }
    }

    @Override
    void add(int[] groups, Vector v, Vector v2, Vector[] orderColumns, int n) {
        if (!raw) {
            add(groups, v, n);
            return;
        }
        BytesVector values = (BytesVector) v;
        BytesVector separators = (BytesVector) v2;
        BytesVector keys = SortKeyBytes.encode(orderColumns, order, n);
        byte[] data = values.data();
        byte[] keyData = keys.data();
        for (int i = 0; i < n; i++) {
            if (values.isNull(i)) {
                continue;
            }
            int g = groups[i];
            append(g, keyData, keys.start(i), keys.length(i));
            if (separators == null) {
                append(g, COMMA, 0, COMMA.length);
            } else {
                append(g, separators.data(), separators.start(i), separators.isNull(i) ? 0 : separators.length(i));
            }
            append(g, data, values.start(i), values.length(i));
        }
    }

    /** Appends {@code len} bytes as one length-prefixed part of a raw row's entry, or a packed state's entries. */
    private void append(int g, byte[] src, int from, int len) {
        int prefix = raw ? Integer.BYTES : 0;
        byte[] e = entries[g];
        int size = lengths[g];
        if (e == null || size + prefix + len > e.length) {
            e = entries[g] = Arrays.copyOf(e == null ? new byte[0] : e, Math.max(size + prefix + len,
                    Math.max(64, size * 2)));
        }
        if (raw) {
            INTS.set(e, size, len);
        }
        System.arraycopy(src, from, e, size + prefix, len);
        lengths[g] = size + prefix + len;
    }

    @Override
    Vector result(int from, int count) {
        BytesVector.Builder out = new BytesVector.Builder(count);
        for (int g = from; g < from + count; g++) {
            if (entries[g] == null) {
                out.appendNull();
            } else {
                out.append(entries[g], 0, lengths[g]);
            }
        }
        return out.build();
    }

    /**
     * Each packed state's values, sorted by their keys and joined; with {@code distinct}, only the first of the
     * entries whose keys are equal (their keys end with the value and the separator: STRING_AGG(DISTINCT ...)).
     */
    static Vector finish(BytesVector states, boolean distinct) {
        int n = states.size();
        BytesVector.Builder out = new BytesVector.Builder(n);
        byte[] data = states.data();
        Entries entries = new Entries();
        for (int r = 0; r < n; r++) {
            if (states.isNull(r)) {
                out.appendNull();
                continue;
            }
            int m = entries.read(data, states.start(r), states.start(r) + states.length(r));
            int[] order = entries.sorted(data, m);
            for (int i = 0; i < m; i++) {
                int e = order[i];
                if (distinct && i > 0 && entries.compareKeys(data, order[i - 1], e) == 0) {
                    continue;
                }
                if (i > 0) {
                    out.appendPart(data, entries.at[3 * e + 1] + Integer.BYTES,
                            (int) INTS.get(data, entries.at[3 * e + 1]));
                }
                out.appendPart(data, entries.at[3 * e + 2] + Integer.BYTES,
                        (int) INTS.get(data, entries.at[3 * e + 2]));
            }
            out.endRow();
        }
        return out.build();
    }

    /** The entries of one state: where each one's key, separator and value parts start, reused across states. */
    private static final class Entries {
        private int[] at = new int[48];
        private int[] index = new int[16];
        private int[] scratch = new int[16];

        /** Reads the entries in {@code data[from .. to)}; returns how many. */
        int read(byte[] data, int from, int to) {
            int m = 0;
            for (int p = from; p < to; m++) {
                if (3 * m + 3 > at.length) {
                    at = Arrays.copyOf(at, at.length * 2);
                }
                for (int part = 0; part < 3; part++) {
                    at[3 * m + part] = p;
                    p += Integer.BYTES + (int) INTS.get(data, p);
                }
            }
            return m;
        }

        /** The indexes of the {@code m} entries read, in the order of their keys (arrival order among equal keys). */
        int[] sorted(byte[] data, int m) {
            if (index.length < m) {
                index = new int[Math.max(m, index.length * 2)];
                scratch = new int[index.length];
            }
            for (int i = 0; i < m; i++) {
                index[i] = i;
            }
            Sorter.mergeSort(index, scratch, 0, m, (x, y) -> compareKeys(data, x, y));
            return index;
        }

        /** The order of the keys of entries {@code x} and {@code y}: their encodings as unsigned bytes. */
        int compareKeys(byte[] data, int x, int y) {
            int kx = at[3 * x];
            int ky = at[3 * y];
            return Arrays.compareUnsigned(data, kx + Integer.BYTES, kx + Integer.BYTES + (int) INTS.get(data, kx),
                    data, ky + Integer.BYTES, ky + Integer.BYTES + (int) INTS.get(data, ky));
        }
    }
}
