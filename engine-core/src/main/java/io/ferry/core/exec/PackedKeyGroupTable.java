package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Group ids for several integral keys whose ranges fit together in 64 bits, the usual case of a GROUP BY on surrogate
 * keys, dates and small numbers ({@code GROUP BY sr_customer_sk, sr_store_sk}): each key becomes a code in bits of its
 * own — 0 for NULL, {@code value - low + 1} otherwise — and the codes side by side make one long, grouped by a
 * {@link LongGroupTable}. A probe then hashes and compares one long, where the packed-row table hashed every key,
 * compared each and kept NULL flags beside them (two BIGINT keys over 287,514 rows of TPC-DS store_returns: 28.5 →
 * 21.0 ms, DuckDB 8.5–13.6; docs/performance.md). DuckDB's perfect hash aggregate packs small-range keys the same
 * way, into an array index.
 *
 * <p>The ranges are learnt from the rows: a batch with a value outside them widens them, doubling the range on the
 * side that grew so that a key that keeps growing re-packs a logarithmic number of times, and re-packs the groups so
 * far in their order, so no group's id changes. Keys whose ranges no longer fit in 64 bits move, the same way, to a
 * {@link MultiKeyGroupTable}.
 */
final class PackedKeyGroupTable implements GroupTable {
    /** Groups re-packed at a time. */
    private static final int CHUNK = 4096;

    private final Physical[] types;
    private final QueryMemory memory;
    private final int keyCount;
    private final int expected;
    /** Per key: the value of code 1, the largest value with a code, and where its code sits in the packed long. */
    private final long[] low;
    private final long[] high;
    private final int[] shift;
    private boolean ranged;
    private LongGroupTable packed;
    /** Once the keys' ranges need more than 64 bits: the table every batch goes to. */
    private MultiKeyGroupTable wide;
    private long[] codes = new long[0];

    PackedKeyGroupTable(Physical[] keyTypes, QueryMemory memory, int expected) {
        this.expected = expected;
        this.types = keyTypes.clone();
        this.memory = memory;
        this.keyCount = keyTypes.length;
        this.low = new long[keyCount];
        this.high = new long[keyCount];
        this.shift = new int[keyCount];
        this.packed = new LongGroupTable(memory, expected);
    }

    @Override
    public int groupCount() {
        return wide != null ? wide.groupCount() : packed.groupCount();
    }

    @Override
    public void findOrInsert(Vector[] keys, int n, int[] out) {
        if (wide == null && !covers(keys, n)) {
            widen(keys, n);
        }
        if (wide != null) {
            wide.findOrInsert(keys, n, out);
            return;
        }
        packed.findOrInsert(new Vector[] {new LongVector(pack(keys, n), null, n)}, n, out);
    }

    /** Whether every non-NULL value of the batch has a code. */
    private boolean covers(Vector[] keys, int n) {
        if (!ranged) {
            return false;
        }
        for (int k = 0; k < keyCount; k++) {
            long[] x = ((LongVector) keys[k]).values();
            boolean[] nulls = keys[k].nulls();
            long lo = low[k];
            long hi = high[k];
            boolean outside = false;
            for (int i = 0; i < n; i++) {
                outside |= (x[i] < lo | x[i] > hi) & (nulls == null || !nulls[i]);
            }
            if (outside) {
                return false;
            }
        }
        return true;
    }

    /** The batch's packed keys, in a scratch array the group table copies from. */
    private long[] pack(Vector[] keys, int n) {
        if (codes.length < n) {
            codes = new long[n];
        }
        long[] p = codes;
        Arrays.fill(p, 0, n, 0L);
        for (int k = 0; k < keyCount; k++) {
            long[] x = ((LongVector) keys[k]).values();
            boolean[] nulls = keys[k].nulls();
            long offset = 1 - low[k];
            int s = shift[k];
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    p[i] |= (x[i] + offset) << s;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    p[i] |= nulls[i] ? 0 : (x[i] + offset) << s;
                }
            }
        }
        return p;
    }

    /**
     * Takes the batch's values into the ranges and re-packs the groups so far under them, or moves every group to a
     * {@link MultiKeyGroupTable} when they need more than 64 bits.
     */
    private void widen(Vector[] keys, int n) {
        long[] newLow = new long[keyCount];
        long[] newHigh = new long[keyCount];
        int bits = 0;
        boolean fits = true;
        for (int k = 0; k < keyCount && fits; k++) {
            long[] x = ((LongVector) keys[k]).values();
            boolean[] nulls = keys[k].nulls();
            long lo = ranged ? low[k] : Long.MAX_VALUE;
            long hi = ranged ? high[k] : Long.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    lo = Math.min(lo, x[i]);
                    hi = Math.max(hi, x[i]);
                }
            }
            if (lo > hi) { // only NULLs so far: one value's code
                lo = 0;
                hi = 0;
            }
            try {
                long span = Math.subtractExact(hi, lo);
                if (ranged && lo < low[k]) {
                    lo = Math.subtractExact(lo, span);
                }
                if (ranged && hi > high[k]) {
                    hi = Math.addExact(hi, span);
                }
                // codes 0 (NULL) to hi - lo + 1
                long largestCode = Math.addExact(Math.subtractExact(hi, lo), 1);
                bits += 64 - Long.numberOfLeadingZeros(largestCode);
            } catch (ArithmeticException e) {
                fits = false;
            }
            newLow[k] = lo;
            newHigh[k] = hi;
        }
        fits &= bits <= Long.SIZE;
        int groupCount = packed.groupCount();
        Vector[][] chunks = groupKeys();
        packed.close();
        packed = null;
        if (fits) {
            int s = 0;
            for (int k = 0; k < keyCount; k++) {
                low[k] = newLow[k];
                high[k] = newHigh[k];
                shift[k] = s;
                s += 64 - Long.numberOfLeadingZeros(newHigh[k] - newLow[k] + 1);
            }
            ranged = true;
            packed = new LongGroupTable(memory, Math.max(expected, groupCount));
        } else {
            wide = new MultiKeyGroupTable(types, memory, Math.max(expected, groupCount));
        }
        for (Vector[] chunk : chunks) {
            int count = chunk[0].size();
            findOrInsert(chunk, count, new int[count]); // in group order: each new, so each gets its old id
        }
    }

    /** The keys of every group so far, in chunks, decoded under the present ranges. */
    private Vector[][] groupKeys() {
        int groups = packed.groupCount();
        Vector[][] chunks = new Vector[(groups + CHUNK - 1) / CHUNK][];
        for (int c = 0; c < chunks.length; c++) {
            int from = c * CHUNK;
            chunks[c] = keyVectors(from, Math.min(CHUNK, groups - from));
        }
        return chunks;
    }

    @Override
    public Vector[] keyVectors(int from, int count) {
        if (wide != null) {
            return wide.keyVectors(from, count);
        }
        long[] p = ((LongVector) packed.keyVectors(from, count)[0]).values();
        Vector[] out = new Vector[keyCount];
        for (int k = 0; k < keyCount; k++) {
            int s = shift[k];
            long mask = -1L >>> Long.numberOfLeadingZeros(high[k] - low[k] + 1);
            long offset = low[k] - 1;
            long[] values = new long[count];
            boolean[] nulls = null;
            for (int i = 0; i < count; i++) {
                long code = (p[i] >>> s) & mask;
                if (code == 0) {
                    if (nulls == null) {
                        nulls = new boolean[count];
                    }
                    nulls[i] = true;
                } else {
                    values[i] = code + offset;
                }
            }
            out[k] = new LongVector(values, nulls, count);
        }
        return out;
    }

    @Override
    public long bytes() {
        return wide != null ? wide.bytes() : packed.bytes();
    }

    @Override
    public void close() {
        if (wide != null) {
            wide.close();
        }
        if (packed != null) {
            packed.close();
        }
    }
}
