package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Maps any combination of grouping keys to dense group ids, with open addressing and linear probing over a packed
 * row store: each group's hash, NULL flags and keys lie side by side in one {@code long[]} (a string key as the
 * place of its bytes in a heap), so a probe that finds its group reads one or two cache lines, where a column per key
 * cost a miss per key and another per key's NULL flags (DuckDB lays out its aggregate hash tables in rows for the
 * same reason). A slot holds the group id beside the upper half of its hash, so a collision is told apart without
 * reading the row. Hashes and the rows' comparable forms are computed for a whole batch at once.
 */
final class MultiKeyGroupTable implements GroupTable {
    private static final double LOAD = 0.5;
    /** The upper half of a hash, kept in its slot beside the group id. */
    private static final long TAG = 0xFFFF_FFFF_0000_0000L;

    private final Physical[] types;
    private final QueryMemory memory;
    /** Longs per group: the hash, the NULL flags (64 keys a word), then one per key. */
    private final int width;
    private final int nullWords;
    private long[] rows;
    private byte[] heap = new byte[0];
    private int heapUsed;
    /** {@code upper 32 bits of the hash << 32 | group + 1}; 0 is empty. */
    private long[] slots;
    private int mask;
    private int groups;
    private long reserved;
    /** Per batch: each row's home slot, and the rows probed one by one (kept between batches). */
    private long[] home = new long[0];
    private int[] pending = new int[0];

    MultiKeyGroupTable(Physical[] keyTypes, QueryMemory memory) {
        this(keyTypes, memory, 0);
    }

    /** @param expected groups to make room for at once (0: unknown) */
    MultiKeyGroupTable(Physical[] keyTypes, QueryMemory memory, int expected) {
        this.types = keyTypes.clone();
        this.memory = memory;
        this.nullWords = (keyTypes.length + 63) / 64;
        this.width = 1 + nullWords + keyTypes.length;
        // the slots made room for at once; the rows, wide with many keys, grow as groups come (an expected count is
        // an upper bound: the merge's parts give their state rows, duplicates among them)
        this.rows = new long[1024 * width];
        this.slots = new long[LongGroupTable.capacity(expected)];
        this.mask = slots.length - 1;
        account();
    }

    @Override
    public int groupCount() {
        return groups;
    }

    @Override
    public void findOrInsert(Vector[] keyVectors, int n, int[] out) {
        long[] h = KeyHasher.hash(keyVectors, n);
        long[][] values = new long[types.length][];
        for (int k = 0; k < types.length; k++) {
            values[k] = comparable(keyVectors[k], n);
        }
        long[] nullFlags = nullFlags(keyVectors, n);
        if (pending.length < n) {
            home = new long[n];
            pending = new int[n];
        }
        // first every row's home slot is read, then the group rows those name: loads that do not wait on each other,
        // so the memory system has many in flight (a row at a time, each waited on the last's probe); rows whose
        // group is elsewhere or new are probed one by one after
        for (int i = 0; i < n; i++) {
            home[i] = slots[(int) h[i] & mask];
        }
        int unresolved = 0;
        for (int i = 0; i < n; i++) {
            if (holds(home[i], h[i], keyVectors, values, nullFlags, i)) {
                out[i] = (int) home[i] - 1;
            } else {
                pending[unresolved++] = i;
            }
        }
        for (int p = 0; p < unresolved; p++) {
            int i = pending[p];
            int slot = (int) h[i] & mask;
            while (true) {
                long s = slots[slot];
                if (s == 0) {
                    out[i] = insert(keyVectors, values, nullFlags, i, h[i], slot);
                    break;
                }
                if (holds(s, h[i], keyVectors, values, nullFlags, i)) {
                    out[i] = (int) s - 1;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /** Whether slot value {@code s} names the group of row {@code i} (of hash {@code hash}). */
    private boolean holds(long s, long hash, Vector[] keyVectors, long[][] values, long[] nullFlags, int i) {
        if (s == 0 || (s & TAG) != (hash & TAG)) {
            return false;
        }
        int base = ((int) s - 1) * width;
        return rows[base] == hash && sameNulls(base, nullFlags, i)
                && sameKeys(base + 1 + nullWords, keyVectors, values, i);
    }

    /**
     * Each row's key as the long the row store holds: an integer itself, a DOUBLE its bits with -0.0 as 0.0 (and
     * every NaN one NaN, so they group together as in DuckDB), 0 for a NULL; null for a string key, compared by
     * bytes.
     */
    private static long[] comparable(Vector v, int n) {
        boolean[] nulls = v.nulls();
        if (v instanceof LongVector l) {
            if (nulls == null) {
                return l.values();
            }
            long[] x = l.values();
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = nulls[i] ? 0 : x[i];
            }
            return out;
        }
        if (v instanceof DoubleVector d) {
            double[] x = d.values();
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = nulls != null && nulls[i] ? 0 : Double.doubleToLongBits(x[i] == 0.0 ? 0.0 : x[i]);
            }
            return out;
        }
        return null;
    }

    /** Each row's NULL flags, {@code nullWords} longs a row; null when no key has a NULL. */
    private long[] nullFlags(Vector[] keyVectors, int n) {
        long[] flags = null;
        for (int k = 0; k < keyVectors.length; k++) {
            boolean[] nulls = keyVectors[k].nulls();
            if (nulls == null) {
                continue;
            }
            if (flags == null) {
                flags = new long[n * nullWords];
            }
            int word = k >>> 6;
            long bit = 1L << (k & 63);
            for (int i = 0; i < n; i++) {
                if (nulls[i]) {
                    flags[i * nullWords + word] |= bit;
                }
            }
        }
        return flags;
    }

    private boolean sameNulls(int base, long[] nullFlags, int row) {
        for (int w = 0; w < nullWords; w++) {
            if (rows[base + 1 + w] != (nullFlags == null ? 0 : nullFlags[row * nullWords + w])) {
                return false;
            }
        }
        return true;
    }

    private boolean sameKeys(int at, Vector[] keyVectors, long[][] values, int row) {
        for (int k = 0; k < values.length; k++) {
            long stored = rows[at + k];
            if (values[k] != null) {
                if (stored != values[k][row]) {
                    return false;
                }
            } else if (!keyVectors[k].isNull(row)
                    && !((BytesVector) keyVectors[k]).equalsAt(row, heap, (int) (stored >>> 32), (int) stored)) {
                return false;
            }
        }
        return true;
    }

    private int insert(Vector[] keyVectors, long[][] values, long[] nullFlags, int row, long hash, int slot) {
        int g = groups++;
        int base = g * width;
        if (base + width > rows.length) {
            rows = Arrays.copyOf(rows, rows.length * 2);
        }
        rows[base] = hash;
        for (int w = 0; w < nullWords; w++) {
            rows[base + 1 + w] = nullFlags == null ? 0 : nullFlags[row * nullWords + w];
        }
        int at = base + 1 + nullWords;
        for (int k = 0; k < values.length; k++) {
            rows[at + k] = values[k] != null ? values[k][row] : bytesKey((BytesVector) keyVectors[k], row);
        }
        slots[slot] = (hash & TAG) | (g + 1L);
        if (groups > slots.length * LOAD) {
            rehash();
        } else if (g % 1024 == 0) {
            account();
        }
        return g;
    }

    /** Copies a string key into the heap: its place there, {@code offset << 32 | length}; 0 for a NULL. */
    private long bytesKey(BytesVector v, int row) {
        if (v.isNull(row)) {
            return 0;
        }
        int len = v.length(row);
        if (heapUsed + len > heap.length) {
            heap = Arrays.copyOf(heap, Math.max(Math.max(heap.length * 2, 1024), heapUsed + len));
        }
        System.arraycopy(v.data(), v.start(row), heap, heapUsed, len);
        long place = ((long) heapUsed << 32) | len;
        heapUsed += len;
        return place;
    }

    private void rehash() {
        long[] bigger = new long[slots.length * 2];
        int m = bigger.length - 1;
        for (int g = 0; g < groups; g++) {
            long hash = rows[g * width];
            int s = (int) hash & m;
            while (bigger[s] != 0) {
                s = (s + 1) & m;
            }
            bigger[s] = (hash & TAG) | (g + 1L);
        }
        slots = bigger;
        mask = m;
        account();
    }

    private void account() {
        long now = 8L * slots.length + 8L * rows.length + heap.length;
        if (now > reserved) {
            memory.reserve(now - reserved);
            reserved = now;
        }
    }

    @Override
    public Vector[] keyVectors(int from, int count) {
        Vector[] out = new Vector[types.length];
        for (int k = 0; k < types.length; k++) {
            boolean[] nulls = null;
            int word = 1 + (k >>> 6);
            long bit = 1L << (k & 63);
            for (int i = 0; i < count; i++) {
                if ((rows[(from + i) * width + word] & bit) != 0) {
                    if (nulls == null) {
                        nulls = new boolean[count];
                    }
                    nulls[i] = true;
                }
            }
            out[k] = column(k, from, count, nulls);
        }
        return out;
    }

    private Vector column(int k, int from, int count, boolean[] nulls) {
        int at = 1 + nullWords + k;
        switch (types[k]) {
            case LONG -> {
                long[] x = new long[count];
                for (int i = 0; i < count; i++) {
                    x[i] = rows[(from + i) * width + at];
                }
                return new LongVector(x, nulls, count);
            }
            case DOUBLE -> {
                double[] x = new double[count];
                for (int i = 0; i < count; i++) {
                    x[i] = Double.longBitsToDouble(rows[(from + i) * width + at]);
                }
                return new DoubleVector(x, nulls, count);
            }
            default -> {
                int[] offsets = new int[count + 1];
                int total = 0;
                for (int i = 0; i < count; i++) {
                    total += (int) rows[(from + i) * width + at];
                    offsets[i + 1] = total;
                }
                byte[] data = new byte[total];
                for (int i = 0; i < count; i++) {
                    long place = rows[(from + i) * width + at];
                    System.arraycopy(heap, (int) (place >>> 32), data, offsets[i], (int) place);
                }
                return new BytesVector(data, offsets, nulls, count);
            }
        }
    }

    @Override
    public long bytes() {
        return reserved;
    }

    @Override
    public void close() {
        memory.release(reserved);
        reserved = 0;
    }
}
