package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The build side of a hash join: all build rows in one batch, chained by bucket ({@code heads} and
 * {@code next} hold row + 1). A key compared with {@code =} never matches a NULL, so rows with a NULL in such a key
 * are left out. A key compared with {@code IS NOT DISTINCT FROM} ({@code nullsMatch}) matches a NULL with a NULL:
 * with several keys a NULL hashes to one fixed value ({@link KeyHasher}) and compares equal to a NULL; a single
 * integral key keeps its NULL rows in a chain of their own ({@code nullHead}), so the integral paths never read the
 * bits under a NULL.
 *
 * <p>A single integral key whose values span a range not much wider than the build side has rows (dimension
 * keys: dates, surrogate ids) is mapped directly: the bucket is {@code key - min}, so a bucket holds only equal
 * keys and a probe is one array read with no hashing and no key comparison (DuckDB's perfect hash join does the
 * same). Other single integral keys use a Fibonacci hash. Several integral keys compared with {@code =} are packed
 * into one long where their build ranges fit 62 bits ({@link KeyPacking}) and take the same paths; other keys hash all
 * key columns.
 */
final class JoinHashTable {
    /**
     * Direct mapping is used while the key range is at most 4 buckets per build row, or at most 2^18 buckets
     * (1 MiB, about an L2 cache) whatever the row count: a filtered dimension keeps its sparse keys direct.
     */
    private static final long DIRECT_SPREAD = 4;
    private static final long DIRECT_SMALL = 1L << 18;

    private final Batch build;
    private final Vector[] keys;
    private final boolean[] nullsMatch;
    /** The keys whose NULL matches nothing: a row with a NULL in one of them has no match. */
    private final int[] rejectingNull;
    private final int[] heads;
    private final int[] next;
    private final long[] hashes;
    private final int mask;
    /** Several integral keys taken as one ({@link KeyPacking}); null otherwise. */
    private final KeyPacking packing;
    /**
     * For a single integral key, or several packed: the key values, and the shift of the Fibonacci hash that picks a
     * bucket.
     */
    private final long[] longKeys;
    private final int shift;
    /** For a single integral key whose NULLs match: the first build row (+ 1) with a NULL key, chained by next. */
    private final int nullHead;
    /** Direct mapping: bucket = key - {@code min}, {@code heads.length} buckets; {@code unique}: no chains. */
    private final boolean direct;
    private final long min;
    private final boolean unique;
    private final long bytes;
    private final QueryMemory memory;

    JoinHashTable(Batch build, int[] keyColumns, boolean[] nullsMatch, QueryMemory memory) {
        this.build = build;
        this.memory = memory;
        this.nullsMatch = nullsMatch.clone();
        int n = build.rowCount();
        this.keys = new Vector[keyColumns.length];
        int rejecting = 0;
        for (int k = 0; k < keyColumns.length; k++) {
            keys[k] = build.column(keyColumns[k]);
            rejecting += nullsMatch[k] ? 0 : 1;
        }
        this.rejectingNull = new int[rejecting];
        for (int k = 0, r = 0; k < keyColumns.length; k++) {
            if (!nullsMatch[k]) {
                rejectingNull[r++] = k;
            }
        }
        this.next = new int[n];
        this.packing = KeyPacking.of(keys, nullsMatch, n);
        LongVector single = keys.length == 1 && keys[0] instanceof LongVector lv ? lv
                : packing != null ? packing.pack(keys, n) : null;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        if (single != null) {
            long[] v = single.values();
            boolean[] nulls = single.nulls();
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    lo = Math.min(lo, v[i]);
                    hi = Math.max(hi, v[i]);
                }
            }
        }
        long range = lo > hi ? 1 : hi - lo + 1;
        this.direct = single != null && range > 0 && range <= Math.max(DIRECT_SPREAD * n, DIRECT_SMALL);
        int buckets = direct ? (int) range : Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1;
        this.bytes = 4L * buckets + 12L * n + (packing != null ? 8L * n : 0);
        memory.reserve(bytes);
        this.heads = new int[buckets];
        this.mask = buckets - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(Integer.highestOneBit(buckets));
        this.min = lo > hi ? 0 : lo;
        if (single != null) {
            this.longKeys = single.values();
            this.hashes = null;
            boolean[] nulls = single.nulls();
            boolean chained = false;
            int nullRows = 0;
            for (int i = n - 1; i >= 0; i--) {
                if (nulls == null || !nulls[i]) {
                    int b = direct ? (int) (longKeys[i] - min) : bucket(longKeys[i]);
                    chained |= heads[b] != 0;
                    next[i] = heads[b];
                    heads[b] = i + 1;
                } else if (packing == null && nullsMatch[0]) {
                    next[i] = nullRows;
                    nullRows = i + 1;
                }
            }
            this.nullHead = nullRows;
            this.unique = direct && !chained && (nullRows == 0 || next[nullRows - 1] == 0);
            return;
        }
        this.unique = false;
        this.nullHead = 0;
        this.longKeys = null;
        this.hashes = KeyHasher.hash(keys, n);
        for (int i = n - 1; i >= 0; i--) {
            if (rejected(keys, i)) {
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

    /** Build rows per non-empty bucket: about the rows each distinct key has (one scan of the buckets). */
    double rowsPerKey() {
        int used = nullHead != 0 ? 1 : 0;
        for (int h : heads) {
            used += h != 0 ? 1 : 0;
        }
        return used == 0 ? 1 : (double) build.rowCount() / used;
    }

    /** Whether {@code row} has a NULL in a key whose NULL matches nothing. */
    private boolean rejected(Vector[] keys, int row) {
        for (int k : rejectingNull) {
            if (keys[k].isNull(row)) {
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
            probeLongs(packing != null ? packing.pack(probeKeys, n) : (LongVector) probeKeys[0], n, firstMatchOnly, m);
            return m;
        }
        long[] h = KeyHasher.hash(probeKeys, n);
        for (int i = 0; i < n; i++) {
            if (rejected(probeKeys, i)) {
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

    /**
     * A batch of probe keys prepared for {@link #firstMatch} and {@link #nextMatch}, which walk each probe row's
     * matches one at a time: packed or single integral keys, or the hashes of the key columns.
     */
    final class Walk {
        private final Vector[] probeKeys;
        private final long[] values;
        private final boolean[] nulls;
        private final long[] hashes;

        Walk(Vector[] probeKeys, int n) {
            this.probeKeys = probeKeys;
            if (longKeys != null) {
                LongVector v = packing != null ? packing.pack(probeKeys, n) : (LongVector) probeKeys[0];
                this.values = v.values();
                this.nulls = v.nulls();
                this.hashes = null;
            } else {
                this.values = null;
                this.nulls = null;
                this.hashes = KeyHasher.hash(probeKeys, n);
            }
        }

        /** The first build row matching probe row {@code i}, -1 where none. */
        int firstMatch(int i) {
            int head;
            if (longKeys == null) {
                head = rejected(probeKeys, i) ? 0 : heads[(int) hashes[i] & mask];
            } else if (nulls != null && nulls[i]) {
                head = nullHead;
            } else if (direct) {
                long d = values[i] - min;
                head = d >= 0 && d < heads.length ? heads[(int) d] : 0;
            } else {
                head = heads[bucket(values[i])];
            }
            return matchFrom(i, head);
        }

        /** The build row after {@code r} (a match of probe row {@code i}) that matches it too, -1 where none. */
        int nextMatch(int i, int r) {
            return matchFrom(i, next[r]);
        }

        /** The first row matching probe row {@code i} on the chain from {@code link} (row + 1, 0 at the end). */
        private int matchFrom(int i, int link) {
            if (longKeys == null) {
                for (int r = link - 1; r >= 0; r = next[r] - 1) {
                    if (hashes[i] == JoinHashTable.this.hashes[r] && keysEqual(probeKeys, i, r)) {
                        return r;
                    }
                }
                return -1;
            }
            if (direct || nulls != null && nulls[i]) {
                return link - 1; // a direct bucket, and the chain of NULL keys, hold only matches
            }
            for (int r = link - 1; r >= 0; r = next[r] - 1) {
                if (longKeys[r] == values[i]) {
                    return r;
                }
            }
            return -1;
        }
    }

    private int bucket(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
    }

    /** The single-integral-key probe: one multiply to a bucket, then a walk comparing longs. */
    private void probeLongs(LongVector probe, int n, boolean firstMatchOnly, Matches m) {
        if (direct) {
            probeDirect(probe, n, firstMatchOnly, m);
            return;
        }
        long[] x = probe.values();
        boolean[] nulls = probe.nulls();
        long[] build = longKeys;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                matchNull(i, firstMatchOnly, m);
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

    /** Pairs probe row {@code i}, whose single key is NULL, with the build rows whose key is NULL, if NULLs match. */
    private void matchNull(int i, boolean firstMatchOnly, Matches m) {
        for (int r = nullHead - 1; r >= 0; r = next[r] - 1) {
            m.add(i, r);
            if (firstMatchOnly) {
                break;
            }
        }
    }

    /**
     * The direct-mapped probe: a bucket holds only rows with this key, so every row in it matches. A NULL probe key
     * reads the chain of NULL build keys instead, empty unless NULLs match.
     */
    private void probeDirect(LongVector probe, int n, boolean firstMatchOnly, Matches m) {
        long[] x = probe.values();
        boolean[] nulls = probe.nulls();
        long range = heads.length;
        if (unique || firstMatchOnly) {
            // At most one match per probe row: the output fits in n pairs, no growth checks in the loop.
            m.ensure(n);
            int[] pr = m.probe;
            int[] br = m.build;
            int c = m.count;
            for (int i = 0; i < n; i++) {
                long d = x[i] - min;
                int r;
                if (nulls != null && nulls[i]) {
                    r = nullHead - 1;
                } else if (d >= 0 && d < range) {
                    r = heads[(int) d] - 1;
                } else {
                    continue;
                }
                pr[c] = i;
                br[c] = r;
                c += r >= 0 ? 1 : 0;
            }
            m.count = c;
            return;
        }
        for (int i = 0; i < n; i++) {
            long d = x[i] - min;
            if (nulls != null && nulls[i]) {
                matchNull(i, false, m);
            } else if (d >= 0 && d < range) {
                for (int r = heads[(int) d] - 1; r >= 0; r = next[r] - 1) {
                    m.add(i, r);
                }
            }
        }
    }

    /** Key equality of a probe and a build row that passed {@link #rejected}: only NULL-matching keys hold NULLs. */
    private boolean keysEqual(Vector[] probeKeys, int i, int r) {
        for (int k = 0; k < keys.length; k++) {
            if (nullsMatch[k]) {
                boolean probeNull = probeKeys[k].isNull(i);
                boolean buildNull = keys[k].isNull(r);
                if (probeNull || buildNull) {
                    if (probeNull != buildNull) {
                        return false;
                    }
                    continue;
                }
            }
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

        /** Room for {@code more} pairs past {@code count}. */
        void ensure(int more) {
            if (count + more > probe.length) {
                int size = Math.max(count + more, probe.length * 2);
                probe = Arrays.copyOf(probe, size);
                build = Arrays.copyOf(build, size);
            }
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
