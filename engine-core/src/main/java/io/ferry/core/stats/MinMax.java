package io.ferry.core.stats;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The NULL count and the smallest and largest non-NULL value of one column, accumulated over ranges of vectors: the
 * pass both a table's statistics ({@link ColumnStatsBuilder}) and a block's zone map
 * ({@link io.ferry.core.storage.ZoneMap}) make. Loops over primitive arrays, nothing allocated per row; a string
 * minimum or maximum is found by position and copied at most once per range.
 */
public final class MinMax {
    private final Physical physical;
    private long rows;
    private long nulls;
    private long longMin = Long.MAX_VALUE;
    private long longMax = Long.MIN_VALUE;
    /** Of a DOUBLE column, the extremes as {@link ValueRange.DoubleRange#orderKey}s. */
    private long doubleMinKey = Long.MAX_VALUE;
    private long doubleMaxKey = Long.MIN_VALUE;
    private byte[] bytesMin;
    private byte[] bytesMax;

    public MinMax(Physical physical) {
        this.physical = physical;
    }

    /** Adds rows {@code [from, from + count)} of {@code v}. */
    public void add(Vector v, int from, int count) {
        rows += count;
        switch (physical) {
            case LONG -> addLongs((LongVector) v, from, from + count);
            case DOUBLE -> addDoubles((DoubleVector) v, from, from + count);
            case BYTES -> addBytes((BytesVector) v, from, from + count);
        }
    }

    private void addLongs(LongVector v, int from, int to) {
        long[] x = v.values();
        boolean[] mask = v.nulls();
        long min = longMin;
        long max = longMax;
        if (mask == null) {
            for (int i = from; i < to; i++) {
                min = Math.min(min, x[i]);
                max = Math.max(max, x[i]);
            }
        } else {
            int n = 0;
            for (int i = from; i < to; i++) {
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
    }

    private void addDoubles(DoubleVector v, int from, int to) {
        double[] x = v.values();
        boolean[] mask = v.nulls();
        long min = doubleMinKey;
        long max = doubleMaxKey;
        int n = 0;
        for (int i = from; i < to; i++) {
            if (mask != null && mask[i]) {
                n++;
            } else {
                long key = ValueRange.DoubleRange.orderKey(x[i]);
                min = Math.min(min, key);
                max = Math.max(max, key);
            }
        }
        nulls += n;
        doubleMinKey = min;
        doubleMaxKey = max;
    }

    private void addBytes(BytesVector v, int from, int to) {
        byte[] data = v.data();
        int[] offsets = v.offsets();
        boolean[] mask = v.nulls();
        // Find the range's extremes by position first, so a rising or falling column costs no copy per row.
        int minRow = -1;
        int maxRow = -1;
        int n = 0;
        for (int i = from; i < to; i++) {
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

    static int compare(byte[] data, int[] offsets, int a, int b) {
        return Arrays.compareUnsigned(data, offsets[a], offsets[a + 1], data, offsets[b], offsets[b + 1]);
    }

    public long rows() {
        return rows;
    }

    public long nulls() {
        return nulls;
    }

    /** The smallest and largest non-NULL value added, or null when every row was NULL (or none was added). */
    public ValueRange range() {
        if (rows == nulls) {
            return null;
        }
        return switch (physical) {
            case LONG -> new ValueRange.LongRange(longMin, longMax);
            case DOUBLE -> new ValueRange.DoubleRange(ValueRange.DoubleRange.fromOrderKey(doubleMinKey),
                    ValueRange.DoubleRange.fromOrderKey(doubleMaxKey));
            case BYTES -> new ValueRange.BytesRange(bytesMin, bytesMax);
        };
    }
}
