package io.ferry.core.stats;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Accumulates one column's stats a vector at a time: one pass for nulls and min/max ({@link MinMax}, the pass block
 * zone maps make too), one for the layout, then one for the sketch, all over primitive arrays with nothing allocated
 * per row. The plain min/max pass goes first: it streams the vector into cache at full speed for the heavier sketch
 * pass (measured faster than the reverse order, and than one fused loop).
 */
final class ColumnStatsBuilder {
    private final Physical physical;
    private final MinMax bounds;
    private final DistinctSketch sketch = new DistinctSketch();
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
        this.bounds = new MinMax(physical);
    }

    /** Adds the first {@code count} rows of {@code v}. */
    void add(Vector v, int count) {
        bounds.add(v, 0, count);
        switch (physical) {
            case LONG -> addLongs((LongVector) v, count);
            case DOUBLE -> addDoubles((DoubleVector) v, count);
            case BYTES -> addBytes((BytesVector) v, count);
        }
    }

    private void addLongs(LongVector v, int count) {
        long[] x = v.values();
        boolean[] mask = v.nulls();
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
        for (int i = 0; i < count; i++) {
            if (mask == null || !mask[i]) {
                follow(ValueRange.DoubleRange.orderKey(x[i]));
            }
        }
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

    private void addBytes(BytesVector v, int count) {
        followBytes(v.data(), v.offsets(), v.nulls(), count);
        sketch.addBytes(v.data(), v.offsets(), v.nulls(), 0, count);
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
                c = MinMax.compare(data, offsets, i, prev);
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

    /** The stats so far; the builder is spent (its sketch now belongs to the result). */
    ColumnStats build() {
        return ColumnStats.of(bounds.rows(), bounds.nulls(), bounds.range(), sketch,
                new ColumnStats.Layout(pairs, changes, rises, falls));
    }
}
