package io.ferry.core.storage;

import java.util.List;

import io.ferry.core.stats.MinMax;
import io.ferry.core.stats.ValueRange;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;

/**
 * What a block's rows hold, per column: how many are NULL and the smallest and largest non-NULL value (a zone map, or
 * small materialized aggregate: Moerkotte, "Small Materialized Aggregates: A Light Weight Index Structure for Data
 * Warehousing", VLDB 1998). Made when the block is written, for every column; it lives in the catalog beside the
 * block's location, not in the block's bytes, so that whoever decides which blocks a scan reads (this node, or a
 * cluster's coordinator) decides without reading any. Immutable, like the block.
 */
public final class ZoneMap {
    private final int rows;
    private final int[] nulls;
    private final ValueRange[] ranges;

    private ZoneMap(int rows, int[] nulls, ValueRange[] ranges) {
        this.rows = rows;
        this.nulls = nulls;
        this.ranges = ranges;
    }

    /** The zone map of rows {@code [from, from + count)} of {@code batch}, whose columns have {@code types}. */
    public static ZoneMap of(List<FerryType> types, Batch batch, int from, int count) {
        int[] nulls = new int[types.size()];
        ValueRange[] ranges = new ValueRange[types.size()];
        for (int c = 0; c < ranges.length; c++) {
            MinMax m = new MinMax(types.get(c).physical());
            m.add(batch.column(c), from, count);
            nulls[c] = (int) m.nulls();
            ranges[c] = m.range();
        }
        return new ZoneMap(count, nulls, ranges);
    }

    public int rowCount() {
        return rows;
    }

    /** Rows of the block whose value in {@code column} is NULL. */
    public int nullCount(int column) {
        return nulls[column];
    }

    /** The smallest and largest non-NULL value of {@code column} in the block, or null when all its rows are NULL. */
    public ValueRange range(int column) {
        return ranges[column];
    }
}
