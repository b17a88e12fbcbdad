package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.ferry.core.vector.Batch;

/**
 * The rows a window aggregate sees for each row: ROWS frames count rows from the current one, RANGE frames take
 * whole groups of peers (rows equal in every ORDER BY key) or, with an offset, the rows whose single ORDER BY value
 * lies within the offset of the current row's ({@link RangeBounds}).
 *
 * @param unit      what the lower bound's RANGE offset counts: the key's own units, or calendar months of a DATE or
 *                  TIMESTAMP key
 * @param upperUnit what the upper bound's counts ({@code INTERVAL '1' MONTH PRECEDING AND INTERVAL '3' DAY FOLLOWING})
 * @param exclude   which rows of its frame a row does not see (SQL's EXCLUDE clause)
 */
public record WindowFrame(boolean rows, Bound lower, Bound upper, RangeUnit unit, RangeUnit upperUnit,
        Exclude exclude) {
    public WindowFrame {
        requireNonNull(lower, "lower is null");
        requireNonNull(upper, "upper is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(upperUnit, "upper unit is null");
        requireNonNull(exclude, "exclude is null");
        if (lower.kind() == BoundKind.UNBOUNDED_FOLLOWING || upper.kind() == BoundKind.UNBOUNDED_PRECEDING) {
            throw new IllegalArgumentException("frame from " + lower + " to " + upper);
        }
        if (rows && (unit != RangeUnit.KEY || upperUnit != RangeUnit.KEY)) {
            throw new IllegalArgumentException("a ROWS frame counts rows, not " + unit);
        }
    }

    public WindowFrame(boolean rows, Bound lower, Bound upper, RangeUnit unit) {
        this(rows, lower, upper, unit, unit, Exclude.NO_OTHERS);
    }

    public WindowFrame(boolean rows, Bound lower, Bound upper) {
        this(rows, lower, upper, RangeUnit.KEY);
    }

    /** The same frame without the rows {@code exclude} names. */
    public WindowFrame excluding(Exclude exclude) {
        return new WindowFrame(rows, lower, upper, unit, upperUnit, exclude);
    }

    /** SQL's EXCLUDE: the rows of its frame a row does not see. */
    public enum Exclude {
        /** Every row of the frame (the default). */
        NO_OTHERS,
        /** The row itself. */
        CURRENT_ROW,
        /** The row and its peers (rows equal in every ORDER BY key). */
        GROUP,
        /** The row's peers, but not the row itself. */
        TIES
    }

    /** SQL's default with ORDER BY: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW. */
    public static final WindowFrame RUNNING = new WindowFrame(false, Bound.UNBOUNDED_PRECEDING_BOUND,
            Bound.CURRENT_ROW_BOUND);
    /** The whole partition. */
    public static final WindowFrame PARTITION = new WindowFrame(true, Bound.UNBOUNDED_PRECEDING_BOUND,
            Bound.UNBOUNDED_FOLLOWING_BOUND);

    /** What a RANGE frame's offsets count. */
    public enum RangeUnit {
        /** The ORDER BY key's own units: numbers, DECIMALs unscaled, days of a DATE, milliseconds of a TIMESTAMP. */
        KEY,
        /** Calendar months of a DATE key. */
        DATE_MONTHS,
        /** Calendar months of a TIMESTAMP key. */
        TIMESTAMP_MONTHS
    }

    public enum BoundKind {
        UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
    }

    /**
     * One end of a frame; offsets (at least 0) only for PRECEDING and FOLLOWING: {@code offset} in rows or, in a
     * RANGE frame, in the {@link RangeUnit}; {@code realOffset} for a RANGE frame over a DOUBLE key.
     */
    public record Bound(BoundKind kind, long offset, double realOffset) {
        public static final Bound UNBOUNDED_PRECEDING_BOUND = new Bound(BoundKind.UNBOUNDED_PRECEDING, 0);
        public static final Bound CURRENT_ROW_BOUND = new Bound(BoundKind.CURRENT_ROW, 0);
        public static final Bound UNBOUNDED_FOLLOWING_BOUND = new Bound(BoundKind.UNBOUNDED_FOLLOWING, 0);

        public Bound {
            requireNonNull(kind, "kind is null");
            boolean offsetBound = kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
            if (offset < 0 || !(realOffset >= 0) || Double.isInfinite(realOffset)
                    || (!offsetBound && (offset != 0 || realOffset != 0))) {
                throw new IllegalArgumentException("offset " + offset + " (" + realOffset + ") of a " + kind
                        + " bound");
            }
        }

        public Bound(BoundKind kind, long offset) {
            this(kind, offset, offset);
        }

        boolean offsetBound() {
            return kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
        }
    }

    /** Whether every frame starts at its partition's first row, so frames only grow along a partition. */
    public boolean startsAtPartition() {
        return lower.kind() == BoundKind.UNBOUNDED_PRECEDING;
    }

    /** Whether every frame ends at its partition's last row. */
    public boolean endsAtPartition() {
        return upper.kind() == BoundKind.UNBOUNDED_FOLLOWING;
    }

    /**
     * Writes each row's frame as sorted positions {@code [lo[i], hi[i])} (empty where {@code hi[i] <= lo[i]}). Both
     * ends never decrease along a partition, which is what lets aggregates slide over them.
     *
     * @param sorted the rows, sorted by partition and {@code order}, whose first key a RANGE offset reads
     */
    void bounds(WindowPartitions p, Batch sorted, List<SortKey> order, int[] lo, int[] hi) {
        RangeBounds ranges = null;
        RangeBounds upperRanges = null;
        if (!rows && (lower.offsetBound() || upper.offsetBound())) {
            if (order.size() != 1) {
                throw new IllegalArgumentException("a RANGE frame with an offset needs one ORDER BY key, not "
                        + order.size());
            }
            SortKey key = order.get(0);
            ranges = new RangeBounds(p, sorted.column(key.column()), key.descending(), unit);
            upperRanges = upperUnit == unit ? ranges
                    : new RangeBounds(p, sorted.column(key.column()), key.descending(), upperUnit);
        }
        fill(lower, false, p, ranges, lo);
        fill(upper, true, p, upperRanges, hi);
    }

    private void fill(Bound b, boolean end, WindowPartitions p, RangeBounds ranges, int[] out) {
        if (!rows && b.offsetBound()) {
            ranges.fill(b, end, out);
            return;
        }
        for (int i = 0; i < out.length; i++) {
            out[i] = position(b, p, i, end);
        }
    }

    private int position(Bound b, WindowPartitions p, int i, boolean end) {
        int start = p.partitionStart(i);
        int stop = p.partitionEnd(i);
        long offset = Math.min(b.offset(), Integer.MAX_VALUE); // no partition is longer: no overflow below
        long at = switch (b.kind()) {
            case UNBOUNDED_PRECEDING -> start;
            case UNBOUNDED_FOLLOWING -> stop;
            case CURRENT_ROW -> rows ? (end ? i + 1 : i) : (end ? p.peerEnd(i) : p.peerStart(i));
            case PRECEDING -> (long) i - offset + (end ? 1 : 0);
            case FOLLOWING -> (long) i + offset + (end ? 1 : 0);
        };
        return (int) Math.max(start, Math.min(stop, at));
    }
}
