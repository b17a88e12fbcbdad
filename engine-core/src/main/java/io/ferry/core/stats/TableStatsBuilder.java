package io.ferry.core.stats;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;

/**
 * Accumulates the stats of rows as they are staged for a table ({@code TableAppender}); {@link #build()} once, at
 * commit. Used by one thread.
 */
public final class TableStatsBuilder {
    private final ColumnStatsBuilder[] columns;
    private long rows;
    private boolean built;

    public TableStatsBuilder(List<FerryType> types) {
        columns = new ColumnStatsBuilder[types.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new ColumnStatsBuilder(types.get(i).physical());
        }
    }

    /** Adds every row of {@code batch}, materializing its columns (the block writer needs them anyway). */
    public void add(Batch batch) {
        if (built) {
            throw new IllegalStateException("stats already built");
        }
        if (batch.columnCount() != columns.length) {
            throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, stats have "
                    + columns.length);
        }
        int n = batch.rowCount();
        for (int c = 0; c < columns.length; c++) {
            columns[c].add(batch.column(c), n);
        }
        rows += n;
    }

    /** The stats of every row added; the builder cannot be used afterwards. */
    public TableStats build() {
        if (built) {
            throw new IllegalStateException("stats already built");
        }
        built = true;
        List<ColumnStats> out = new ArrayList<>(columns.length);
        for (ColumnStatsBuilder c : columns) {
            out.add(c.build());
        }
        return new TableStats(rows, out);
    }
}
