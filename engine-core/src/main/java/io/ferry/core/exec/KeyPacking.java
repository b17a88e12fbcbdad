package io.ferry.core.exec;

import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Several integral join keys as one long: each key's value less the build side's smallest, in bits of its own, side by
 * side ({@code ss_ticket_number = sr_ticket_number AND ss_item_sk = sr_item_sk}: 18 + 15 bits). The build side's
 * ranges are known before any probe, so they are exact; a probe row with a value outside them cannot match and packs to
 * NULL, as does a row with a NULL key (a key compared with {@code =}; joins whose NULLs match are not packed). The
 * hash table then takes its single-key paths — one multiply to a bucket, one long compared, or a direct mapping when
 * the ranges are small — where several keys hashed every column and compared each.
 *
 * @param low   per key, its smallest build value
 * @param high  per key, its largest
 * @param shift per key, where its bits start
 */
record KeyPacking(long[] low, long[] high, int[] shift) {
    /** Bits the packed keys may take: below 63, so that the table's {@code hi - lo + 1} of packed keys fits a long. */
    private static final int MAX_BITS = 62;

    /**
     * The packing of the build side's {@code n} rows of {@code keys}, or null when there are fewer than two keys, a
     * key is not integral or matches NULLs, or the ranges need more than {@link #MAX_BITS} bits.
     */
    static KeyPacking of(Vector[] keys, boolean[] nullsMatch, int n) {
        if (keys.length < 2) {
            return null;
        }
        for (int k = 0; k < keys.length; k++) {
            if (!(keys[k] instanceof LongVector) || nullsMatch[k]) {
                return null;
            }
        }
        boolean[] anyNull = anyNull(keys, n);
        long[] low = new long[keys.length];
        long[] high = new long[keys.length];
        int[] shift = new int[keys.length];
        int bits = 0;
        for (int k = 0; k < keys.length; k++) {
            long[] x = ((LongVector) keys[k]).values();
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (int i = 0; i < n; i++) {
                if (anyNull == null || !anyNull[i]) {
                    lo = Math.min(lo, x[i]);
                    hi = Math.max(hi, x[i]);
                }
            }
            if (lo > hi) { // no row can match: one value, and every probe row outside it
                lo = 0;
                hi = 0;
            }
            long span = hi - lo;
            if (span < 0) { // wider than a long: hi - lo overflowed
                return null;
            }
            low[k] = lo;
            high[k] = hi;
            shift[k] = bits;
            bits += 64 - Long.numberOfLeadingZeros(span);
            if (bits > MAX_BITS) {
                return null;
            }
        }
        return new KeyPacking(low, high, shift);
    }

    /** Each row's keys packed, NULL where a key is NULL or outside the build side's range (no match). */
    LongVector pack(Vector[] keys, int n) {
        long[] p = new long[n];
        boolean[] none = anyNull(keys, n);
        for (int k = 0; k < keys.length; k++) {
            long[] x = ((LongVector) keys[k]).values();
            long lo = low[k];
            long hi = high[k];
            int s = shift[k];
            boolean outside = false;
            for (int i = 0; i < n; i++) {
                p[i] |= (x[i] - lo) << s;
                outside |= x[i] < lo | x[i] > hi;
            }
            if (outside) {
                if (none == null) {
                    none = new boolean[n];
                }
                for (int i = 0; i < n; i++) {
                    none[i] |= x[i] < lo | x[i] > hi;
                }
            }
        }
        return new LongVector(p, none, n);
    }

    /** Per row, whether a key is NULL; null when none is. */
    private static boolean[] anyNull(Vector[] keys, int n) {
        boolean[] out = null;
        for (Vector v : keys) {
            boolean[] nulls = v.nulls();
            if (nulls != null) {
                if (out == null) {
                    out = new boolean[n];
                }
                for (int i = 0; i < n; i++) {
                    out[i] |= nulls[i];
                }
            }
        }
        return out;
    }
}
