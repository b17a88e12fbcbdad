package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

import io.ferry.core.expr.Expr;
import io.ferry.core.stats.ValueRange;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.ZoneMap;
import io.ferry.core.types.TableSchema;

/**
 * The blocks a scan may skip: for some of its table's columns, the values that a row must hold in the column to pass
 * the filter above the scan. A block whose {@link ZoneMap} shows no such value in one of those columns has no row that
 * passes, and is not read. The filter still runs on every block that is read: skipping only saves work, and a block
 * kept needlessly changes nothing but time.
 *
 * <p>Values are compared as the zone maps keep them: a LONG column's longs (DATE days, TIMESTAMP milliseconds,
 * DECIMAL unscaled at the column's scale, BOOLEAN 0/1), and a DOUBLE column's {@link ValueRange.DoubleRange#orderKey}s,
 * so that every column is a set of long intervals. VARCHAR columns are not used (docs/sql.md, "Indexes").
 *
 * @param columns at most one entry per column, all of which a block must satisfy
 */
public record ZoneFilter(List<ColumnValues> columns) {
    /** Skips nothing. */
    public static final ZoneFilter NONE = new ZoneFilter(List.of());

    public ZoneFilter {
        columns = List.copyOf(columns);
    }

    /**
     * The values of table column {@code column} that can pass: the sorted, disjoint, closed intervals
     * {@code [bounds[2i], bounds[2i + 1]]}, and NULL if {@code nulls}.
     */
    public record ColumnValues(int column, long[] bounds, boolean nulls) {
        public ColumnValues {
            requireNonNull(bounds, "bounds is null");
            if (bounds.length % 2 != 0) {
                throw new IllegalArgumentException("interval bounds come in pairs, got " + bounds.length);
            }
            for (int i = 0; i < bounds.length; i += 2) {
                if (bounds[i] > bounds[i + 1] || (i > 0 && bounds[i] <= bounds[i - 1])) {
                    throw new IllegalArgumentException("intervals must be sorted, disjoint and non-empty: "
                            + Arrays.toString(bounds));
                }
            }
        }

        /** Whether a block with these zones may hold a row whose value in the column is one of these. */
        boolean mayMatch(ZoneMap zones) {
            if (nulls && zones.nullCount(column) > 0) {
                return true;
            }
            ValueRange range = zones.range(column);
            if (range == null) {
                return false;
            }
            long min;
            long max;
            if (range instanceof ValueRange.LongRange r) {
                min = r.min();
                max = r.max();
            } else if (range instanceof ValueRange.DoubleRange r) {
                min = ValueRange.DoubleRange.orderKey(r.min());
                max = ValueRange.DoubleRange.orderKey(r.max());
            } else {
                return true;
            }
            // The first interval that ends at or after min: the block overlaps the set iff it starts at or before max.
            int lo = 0;
            int hi = bounds.length / 2;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (bounds[2 * mid + 1] < min) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo < bounds.length / 2 && bounds[2 * lo] <= max;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ColumnValues v && v.column == column && v.nulls == nulls
                    && Arrays.equals(v.bounds, bounds);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * column + Arrays.hashCode(bounds)) + Boolean.hashCode(nulls);
        }

        @Override
        public String toString() {
            return "ColumnValues[column=" + column + ", bounds=" + Arrays.toString(bounds) + ", nulls=" + nulls + "]";
        }
    }

    /**
     * What {@code condition}, a filter over the columns {@code scanColumns} of a table lists, tells about the values
     * of the table's columns that {@code use} accepts; {@link #NONE} when nothing.
     */
    public static ZoneFilter of(Expr condition, int[] scanColumns, IntPredicate use) {
        return ZoneFilterDerivation.derive(condition, scanColumns, use);
    }

    public boolean isEmpty() {
        return columns.isEmpty();
    }

    /** Whether a block with these zones may hold a row that passes. */
    public boolean mayMatch(ZoneMap zones) {
        for (ColumnValues c : columns) {
            if (!c.mayMatch(zones)) {
                return false;
            }
        }
        return true;
    }

    /** Of the block positions {@code positions} (ascending) in {@code blocks}, those that may hold a passing row. */
    public int[] keep(int[] positions, List<Block> blocks) {
        if (columns.isEmpty()) {
            return positions;
        }
        int[] kept = new int[positions.length];
        int n = 0;
        for (int p : positions) {
            if (mayMatch(blocks.get(p).zones())) {
                kept[n++] = p;
            }
        }
        return n == kept.length ? kept : Arrays.copyOf(kept, n);
    }

    /** Both filters' conditions: a block must pass each. */
    public ZoneFilter and(ZoneFilter other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        List<ColumnValues> all = new ArrayList<>(columns);
        for (ColumnValues o : other.columns) {
            int at = -1;
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).column() == o.column()) {
                    at = i;
                }
            }
            if (at < 0) {
                all.add(o);
            } else {
                ColumnValues mine = all.get(at);
                all.set(at, new ColumnValues(o.column(), ZoneFilterDerivation.intersect(mine.bounds(), o.bounds()),
                        mine.nulls() && o.nulls()));
            }
        }
        return new ZoneFilter(all);
    }

    /** The names of the columns whose zone maps the filter uses, for EXPLAIN. */
    public String describe(TableSchema schema) {
        List<String> names = new ArrayList<>();
        for (ColumnValues c : columns) {
            names.add(schema.columns().get(c.column()).name());
        }
        return String.join(", ", names);
    }
}
