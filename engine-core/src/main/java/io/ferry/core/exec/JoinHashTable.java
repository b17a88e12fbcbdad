package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The build side of a hash join: all build rows in one batch, chained by bucket ({@code heads} and
 * {@code next} hold row + 1). Rows with a NULL key are left out: NULL never equals anything.
 */
final class JoinHashTable {
    private final Batch build;
    private final Vector[] keys;
    private final int[] heads;
    private final int[] next;
    private final long[] hashes;
    private final int mask;
    /** For a single integral key: the key values, and the shift of the Fibonacci hash that picks a bucket. */
    private final long[] longKeys;
    private final int shift;
    private final long bytes;
    private final QueryMemory memory;

    JoinHashTable(Batch build, int[] keyColumns, QueryMemory memory) {
        this.build = build;
        this.memory = memory;
        int n = build.rowCount();
        this.keys = new Vector[keyColumns.length];
        for (int k = 0; k < keyColumns.length; k++) {
            keys[k] = build.column(keyColumns[k]);
        }
        int buckets = Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1;
        this.bytes = 4L * buckets + 12L * n;
        memory.reserve(bytes);
        this.heads = new int[buckets];
        this.next = new int[n];
        this.mask = buckets - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(buckets);
        if (keys.length == 1 && keys[0] instanceof LongVector lv) {
            this.longKeys = lv.values();
            this.hashes = null;
            boolean[] nulls = lv.nulls();
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    int b = bucket(longKeys[i]);
                    next[i] = heads[b];
                    heads[b] = i + 1;
                }
            }
            return;
        }
        this.longKeys = null;
        this.hashes = KeyHasher.hash(keys, n);
        for (int i = 0; i < n; i++) {
            if (anyNull(keys, i)) {
                continue;
            }
            int b = (int) hashes[i] & mask;
            next[i] = heads[b];
            heads[b] = i + 1;
        }
    }

    Batch build() {
        return build;
    }

    private static boolean anyNull(Vector[] keys, int row) {
        for (Vector k : keys) {
            if (k.isNull(row)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Finds the matches of every probe row. Writes (probe row, build row) pairs into {@code out} and returns
     * it; {@code matched[i]} tells whether probe row i had any match.
     */
    Matches probe(Vector[] probeKeys, int n, boolean firstMatchOnly) {
        Matches m = new Matches(Math.max(16, n));
        if (longKeys != null) {
            probeLongs((LongVector) probeKeys[0], n, firstMatchOnly, m);
            return m;
        }
        long[] h = KeyHasher.hash(probeKeys, n);
        for (int i = 0; i < n; i++) {
            if (anyNull(probeKeys, i)) {
                continue;
            }
            long hash = h[i];
            for (int r = heads[(int) hash & mask] - 1; r >= 0; r = next[r] - 1) {
                if (hashes[r] != hash) {
                    continue;
                }
                if (keysEqual(probeKeys, i, r)) {
                    m.add(i, r);
                    if (firstMatchOnly) {
                        break;
                    }
                }
            }
        }
        return m;
    }

    private int bucket(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }

    /** The single-integral-key probe: one multiply to a bucket, then a walk comparing longs. */
    private void probeLongs(LongVector probe, int n, boolean firstMatchOnly, Matches m) {
        long[] x = probe.values();
        boolean[] nulls = probe.nulls();
        long[] build = longKeys;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            long key = x[i];
            for (int r = heads[bucket(key)] - 1; r >= 0; r = next[r] - 1) {
                if (build[r] == key) {
                    m.add(i, r);
                    if (firstMatchOnly) {
                        break;
                    }
                }
            }
        }
    }

    private boolean keysEqual(Vector[] probeKeys, int i, int r) {
        for (int k = 0; k < keys.length; k++) {
            if (!ValueEquality.equal(probeKeys[k], i, keys[k], r)) {
                return false;
            }
        }
        return true;
    }

    void close() {
        memory.release(bytes);
    }

    /** Growable parallel arrays of matching (probe, build) row pairs. */
    static final class Matches {
        int[] probe;
        int[] build;
        int count;

        Matches(int capacity) {
            probe = new int[capacity];
            build = new int[capacity];
        }

        void add(int p, int b) {
            if (count == probe.length) {
                probe = Arrays.copyOf(probe, count * 2);
                build = Arrays.copyOf(build, count * 2);
            }
            probe[count] = p;
            build[count++] = b;
        }
    }
}
