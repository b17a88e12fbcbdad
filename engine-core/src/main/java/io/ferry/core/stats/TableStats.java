package io.ferry.core.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * What a table version knows about its columns, kept as rows are loaded: the inputs of the shipping rule's
 * result-size estimate (DESIGN.md, the cost model).
 *
 * @param rowCount rows of the version
 * @param columns  one entry per column of the table's schema, each over all {@code rowCount} rows
 */
public record TableStats(long rowCount, List<ColumnStats> columns) {
    public TableStats {
        columns = List.copyOf(columns);
        for (ColumnStats c : columns) {
            if (c.rowCount() != rowCount) {
                throw new IllegalArgumentException("column stats over " + c.rowCount() + " rows in table stats over "
                        + rowCount);
            }
        }
    }

    /** Stats of a table with {@code columnCount} columns and no rows. */
    public static TableStats empty(int columnCount) {
        List<ColumnStats> columns = new ArrayList<>(columnCount);
        for (int i = 0; i < columnCount; i++) {
            columns.add(ColumnStats.empty());
        }
        return new TableStats(0, columns);
    }

    public ColumnStats column(int i) {
        return columns.get(i);
    }

    /** Stats of this version's rows followed by {@code appended}'s (a committed append); neither changes. */
    public TableStats merge(TableStats appended) {
        if (appended.columns.size() != columns.size()) {
            throw new IllegalArgumentException("stats of " + appended.columns.size() + " columns appended to stats of "
                    + columns.size());
        }
        if (appended.rowCount == 0) {
            return this;
        }
        List<ColumnStats> merged = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            merged.add(columns.get(i).merge(appended.columns.get(i)));
        }
        return new TableStats(rowCount + appended.rowCount, merged);
    }

    /**
     * Estimated number of distinct combinations of the given columns' values, NULL counting as a value: the groups
     * of {@code GROUP BY columns}. It assumes the columns independent, multiplying their group counts, and caps the
     * product at the row count; correlated columns (a city and its zip code) make it an overestimate, which the cap
     * bounds. No columns: one combination if there is a row.
     */
    public long distinct(int... columnIndexes) {
        if (rowCount == 0) {
            return 0;
        }
        double product = 1;
        for (int c : columnIndexes) {
            // In double: a few wide columns can overflow a long before the cap applies.
            product *= columns.get(c).groupCount();
        }
        return (long) Math.min(product, rowCount);
    }
}
