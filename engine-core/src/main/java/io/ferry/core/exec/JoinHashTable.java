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
        long[] h = KeyHasher.hash(probeKeys, n);
        Matches m = new Matches(Math.max(16, n));
        boolean singleLong = keys.length == 1 && keys[0] instanceof LongVector;
        long[] buildLongs = singleLong ? ((LongVector) keys[0]).values() : null;
        long[] probeLongs = singleLong ? ((LongVector) probeKeys[0]).values() : null;
        for (int i = 0; i < n; i++) {
            if (anyNull(probeKeys, i)) {
                continue;
            }
            long hash = h[i];
            for (int r = heads[(int) hash & mask] - 1; r >= 0; r = next[r] - 1) {
                if (hashes[r] != hash) {
                    continue;
                }
                boolean eq = singleLong ? buildLongs[r] == probeLongs[i] : keysEqual(probeKeys, i, r);
                if (eq) {
                    m.add(i, r);
                    if (firstMatchOnly) {
                        break;
                    }
                }
            }
        }
        return m;
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
