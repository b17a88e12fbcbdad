package io.ferry.core.stats;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Accumulates one column's stats a vector at a time: one pass for nulls and min/max, then one for the sketch, both over
 * primitive arrays, with nothing allocated per row (a string min or max is copied at most once per vector). The plain
 * min/max pass goes first: it streams the vector into cache at full speed for the heavier sketch pass (measured
 * faster than the reverse order, and than one fused loop).
 */
final class ColumnStatsBuilder {
    private final Physical physical;
    private final DistinctSketch sketch = new DistinctSketch();
    private long rows;
    private long nulls;
    private long longMin = Long.MAX_VALUE;
    private long longMax = Long.MIN_VALUE;
    /** Of a DOUBLE column, the extremes as {@link #orderKey}s. */
    private long doubleMinKey = Long.MAX_VALUE;
    private long doubleMaxKey = Long.MIN_VALUE;
    private byte[] bytesMin;
    private byte[] bytesMax;
    // The layout in load order: adjacent non-NULL pairs, and how many of them differ, rise and fall
    private long pairs;
    private long changes;
    private long rises;
    private long falls;
    private boolean hasLast;
    private long last; // a LONG value, or a DOUBLE's order key
    private byte[] lastBytes;

    ColumnStatsBuilder(Physical physical) {
        this.physical = physical;
    }

    /** Adds the first {@code count} rows of {@code v}. */
    void add(Vector v, int count) {
        rows += count;
        switch (physical) {
            case LONG -> addLongs((LongVector) v, count);
            case DOUBLE -> addDoubles((DoubleVector) v, count);
            case BYTES -> addBytes((BytesVector) v, count);
        }
    }

    private void addLongs(LongVector v, int count) {
        long[] x = v.values();
        boolean[] mask = v.nulls();
        long min = longMin;
        long max = longMax;
        if (mask == null) {
            for (int i = 0; i < count; i++) {
                min = Math.min(min, x[i]);
                max = Math.max(max, x[i]);
            }
        } else {
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (mask[i]) {
                    n++;
                } else {
                    min = Math.min(min, x[i]);
                    max = Math.max(max, x[i]);
                }
            }
            nulls += n;
        }
        longMin = min;
        longMax = max;
        for (int i = 0; i < count; i++) {
            if (mask == null || !mask[i]) {
                follow(x[i]);
            }
        }
        sketch.addLongs(x, mask, 0, count);
    }

    private void addDoubles(DoubleVector v, int count) {
        double[] x = v.values();
        boolean[] mask = v.nulls();
        long min = doubleMinKey;
        long max = doubleMaxKey;
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (mask != null && mask[i]) {
                n++;
            } else {
                long key = orderKey(x[i]);
                min = Math.min(min, key);
                max = Math.max(max, key);
                follow(key);
            }
        }
        nulls += n;
        doubleMinKey = min;
        doubleMaxKey = max;
        sketch.addDoubles(x, mask, 0, count);
    }

    /** The next non-NULL value in load order (a long, or a double's order key): counts the pair it ends. */
    private void follow(long value) {
        if (hasLast) {
            pairs++;
            if (value != last) {
                changes++;
                if (value > last) {
                    rises++;
                } else {
                    falls++;
                }
            }
        }
        hasLast = true;
        last = value;
    }

    /**
     * A long that orders as {@link Double#compare} orders doubles (-0.0 before +0.0, NaN last): a negative double's
     * other bits are flipped, so a larger magnitude sorts lower. Its own inverse. The per-row loop then needs no
     * branch for NaN or signed zero.
     */
    private static long orderKey(double value) {
        long bits = Double.doubleToLongBits(value);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    private static double fromOrderKey(long key) {
        return Double.longBitsToDouble(key ^ ((key >> 63) & Long.MAX_VALUE));
    }

    private void addBytes(BytesVector v, int count) {
        byte[] data = v.data();
        int[] offsets = v.offsets();
        boolean[] mask = v.nulls();
        // Find the vector's extremes by position first, so a rising or falling column costs no copy per row.
        int minRow = -1;
        int maxRow = -1;
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (mask != null && mask[i]) {
                n++;
            } else if (minRow < 0) {
                minRow = i;
                maxRow = i;
            } else {
                // A new minimum cannot also be a new maximum: min <= max already holds.
                if (compare(data, offsets, i, minRow) < 0) {
                    minRow = i;
                } else if (compare(data, offsets, i, maxRow) > 0) {
                    maxRow = i;
                }
            }
        }
        nulls += n;
        followBytes(data, offsets, mask, count);
        sketch.addBytes(data, offsets, mask, 0, count);
        if (minRow < 0) {
            return;
        }
        if (bytesMin == null || Arrays.compareUnsigned(data, offsets[minRow], offsets[minRow + 1], bytesMin, 0,
                bytesMin.length) < 0) {
            bytesMin = Arrays.copyOfRange(data, offsets[minRow], offsets[minRow + 1]);
        }
        if (bytesMax == null || Arrays.compareUnsigned(data, offsets[maxRow], offsets[maxRow + 1], bytesMax, 0,
                bytesMax.length) > 0) {
            bytesMax = Arrays.copyOfRange(data, offsets[maxRow], offsets[maxRow + 1]);
        }
    }

    /** {@link #follow} for strings: each value against the one before it, the vector's first against the last kept. */
    private void followBytes(byte[] data, int[] offsets, boolean[] mask, int count) {
        int prev = -1;
        for (int i = 0; i < count; i++) {
            if (mask != null && mask[i]) {
                continue;
            }
            int c;
            if (prev >= 0) {
                c = compare(data, offsets, i, prev);
            } else if (lastBytes != null) {
                c = Arrays.compareUnsigned(data, offsets[i], offsets[i + 1], lastBytes, 0, lastBytes.length);
            } else {
                prev = i;
                continue;
            }
            pairs++;
            if (c != 0) {
                changes++;
                if (c > 0) {
                    rises++;
                } else {
                    falls++;
                }
            }
            prev = i;
        }
        if (prev >= 0) {
            lastBytes = Arrays.copyOfRange(data, offsets[prev], offsets[prev + 1]);
        }
    }

    private static int compare(byte[] data, int[] offsets, int a, int b) {
        return Arrays.compareUnsigned(data, offsets[a], offsets[a + 1], data, offsets[b], offsets[b + 1]);
    }

    /** The stats so far; the builder is spent (its sketch now belongs to the result). */
    ColumnStats build() {
        ValueRange range = null;
        if (rows > nulls) {
            range = switch (physical) {
                case LONG -> new ValueRange.LongRange(longMin, longMax);
                case DOUBLE -> new ValueRange.DoubleRange(fromOrderKey(doubleMinKey), fromOrderKey(doubleMaxKey));
                case BYTES -> new ValueRange.BytesRange(bytesMin, bytesMax);
            };
        }
        return ColumnStats.of(rows, nulls, range, sketch, new ColumnStats.Layout(pairs, changes, rises, falls));
    }
}
