package io.ferry.core.stats;

import static java.util.Objects.requireNonNull;

/**
 * What a table version knows about one column.
 *
 * @param rowCount  rows, NULL or not
 * @param nullCount rows holding NULL
 * @param distinct  estimated distinct non-NULL values (COUNT(DISTINCT c)), from {@code sketch}, kept between 1 and
 *                  the non-NULL rows when there are any, and for a {@link ValueRange.LongRange} at most
 *                  {@code max - min + 1}
 * @param range     smallest and largest non-NULL value, or null when every row is NULL (or there is none)
 * @param sketch    the frozen sketch {@code distinct} comes from, kept so that later appends and other nodes' stats
 *                  can be merged into it
 * @param layout    how the values lie in load order
 */
public record ColumnStats(long rowCount, long nullCount, long distinct, ValueRange range, DistinctSketch sketch,
        Layout layout) {
    private static final ColumnStats EMPTY = of(0, 0, null, new DistinctSketch(), Layout.NONE);

    /**
     * How a column's non-NULL values follow one another in load order, within each append: of the adjacent pairs,
     * how many differ, rise and fall. Sums, so appends merge by adding. What {@link #clustered} reads.
     */
    public record Layout(long pairs, long changes, long rises, long falls) {
        /** Nothing seen in order. */
        public static final Layout NONE = new Layout(0, 0, 0, 0);

        Layout plus(Layout other) {
            return new Layout(pairs + other.pairs, changes + other.changes, rises + other.rises, falls + other.falls);
        }
    }

    /** Stats with nothing known of the layout. */
    public ColumnStats(long rowCount, long nullCount, long distinct, ValueRange range, DistinctSketch sketch) {
        this(rowCount, nullCount, distinct, range, sketch, Layout.NONE);
    }

    public ColumnStats {
        requireNonNull(sketch, "sketch is null");
        requireNonNull(layout, "layout is null");
        if (nullCount < 0 || nullCount > rowCount || distinct < 0 || distinct > rowCount - nullCount) {
            throw new IllegalArgumentException("inconsistent column stats: " + rowCount + " rows, " + nullCount
                    + " nulls, " + distinct + " distinct");
        }
        if ((range == null) != (rowCount == nullCount)) {
            throw new IllegalArgumentException("a column has a value range exactly when it has a non-NULL value");
        }
        // Stats are values: the sketch of a published version must not take further adds.
        sketch.freeze();
    }

    /** Stats with {@code distinct} taken from the sketch (freezing it). */
    public static ColumnStats of(long rowCount, long nullCount, ValueRange range, DistinctSketch sketch,
            Layout layout) {
        long nonNull = rowCount - nullCount;
        // The estimate can stray past the truth by its error; it can never be more than the values there are, nor,
        // for values stored as longs (dates, decimals, booleans too), than the integers from min to max: a BOOLEAN
        // has at most 2, a month of dates at most 31. (max - min overflows to a negative for the widest ranges.)
        long distinct = nonNull == 0 ? 0 : Math.max(1, Math.min(sketch.estimate(), nonNull));
        if (range instanceof ValueRange.LongRange r && r.max() - r.min() >= 0 && r.max() - r.min() < distinct) {
            distinct = r.max() - r.min() + 1;
        }
        return new ColumnStats(rowCount, nullCount, distinct, range, sketch, layout);
    }

    /** A column with no rows. */
    public static ColumnStats empty() {
        return EMPTY;
    }

    /** Groups a GROUP BY on this column makes: its distinct values, plus one for NULL when there is a NULL. */
    public long groupCount() {
        return distinct + (nullCount > 0 ? 1 : 0);
    }

    /** Stats of this column's rows followed by {@code other}'s; neither changes. */
    public ColumnStats merge(ColumnStats other) {
        if (other.rowCount == 0) {
            return this;
        }
        if (rowCount == 0) {
            return other;
        }
        ValueRange merged = range == null ? other.range : other.range == null ? range : range.union(other.range);
        return of(rowCount + other.rowCount, nullCount + other.nullCount, merged, sketch.merge(other.sketch),
                layout.plus(other.layout));
    }

    /**
     * Whether rows with equal or near values of this column lie together in load order — sorted (nearly: at most 1%
     * of steps against the grain), or in runs at least ten times longer than a random order makes — so that each
     * block holds a narrow slice of it. SYSTEM sampling keeps or drops blocks whole, so a GROUP BY or WHERE on such a
     * column can miss groups and rows altogether (ship-or-not section II-B.2). Needs most rows seen in order: rows
     * inserted one statement at a time tell nothing of their layout.
     */
    public boolean clustered() {
        long nonNull = rowCount - nullCount;
        if (distinct < 2 || layout.pairs() < Math.max(1, (nonNull - 1) / 2)) {
            return false;
        }
        boolean sorted = Math.min(layout.rises(), layout.falls()) <= layout.pairs() / 100;
        double randomChanges = layout.pairs() * (1 - 1.0 / distinct);
        return sorted || layout.changes() < randomChanges / 10;
    }
}
