package io.ferry.core.vector;

import java.util.List;

/**
 * A set of equally long columns: the unit operators pass to each other.
 *
 * <p>Columns are materialized late. A column is either a {@link Vector} or a {@link PendingColumn} that says how to
 * make one (decode it from a block, or gather it from another vector); {@link #column(int)} makes it on first use.
 * Filters and joins only compose row positions into pending columns, so a column a query reads after its filters
 * and joins is decoded or copied once, for the rows that survived, and a column nobody reads is never touched
 * (MonetDB/X100 and DuckDB get the same effect from selection vectors).
 *
 * <p>A batch is used by one thread at a time, except build sides of joins, which are fully materialized before
 * they are shared. Pending columns that read from blocks must be materialized while the query still holds its
 * table snapshots: see {@link #materialize()}.
 */
public final class Batch {
    private final int rowCount;
    private final Vector[] columns;
    private final PendingColumn[] pending;

    public Batch(int rowCount, Vector[] columns) {
        this(rowCount, columns, null);
    }

    private Batch(int rowCount, Vector[] columns, PendingColumn[] pending) {
        this.rowCount = rowCount;
        this.columns = columns;
        this.pending = pending;
    }

    public static Batch of(Vector... columns) {
        return new Batch(columns.length == 0 ? 0 : columns[0].size(), columns);
    }

    /** A batch whose columns are all still to be made. */
    public static Batch pending(int rowCount, PendingColumn[] columns) {
        return new Batch(rowCount, new Vector[columns.length], columns.clone());
    }

    public int rowCount() {
        return rowCount;
    }

    public int columnCount() {
        return columns.length;
    }

    /** Column {@code i}, materialized now if it was pending. */
    public Vector column(int i) {
        Vector v = columns[i];
        if (v == null) {
            v = pending[i].materialize();
            columns[i] = v;
            pending[i] = null;
        }
        return v;
    }

    /** Column {@code i} where it is still pending, else null. */
    public PendingColumn pendingColumn(int i) {
        return columns[i] == null ? pending[i] : null;
    }

    /** Every column, materialized. */
    public Vector[] columns() {
        for (int i = 0; i < columns.length; i++) {
            column(i);
        }
        return columns;
    }

    /** Materializes every pending column; returns this batch. */
    public Batch materialize() {
        columns();
        return this;
    }

    /**
     * Rows at {@code positions[0..count)} (-1 pads a NULL row), without copying any column yet. The new batch
     * keeps {@code positions}: the caller must not change it afterwards.
     */
    public Batch gather(int[] positions, int count) {
        PendingColumn[] out = new PendingColumn[columns.length];
        for (int c = 0; c < columns.length; c++) {
            Vector v = columns[c];
            out[c] = v != null ? new PendingColumn.Gathered(v, positions, count) : pending[c].gather(positions, count);
        }
        return new Batch(count, new Vector[columns.length], out);
    }

    /** Rows whose {@code mask} entry is true, in order; {@code count} is how many are true. */
    public Batch compact(boolean[] mask, int count) {
        if (count == rowCount) {
            return this;
        }
        int[] positions = new int[count];
        for (int i = 0, j = 0; j < count; i++) {
            positions[j] = i;
            j += mask[i] ? 1 : 0;
        }
        return gather(positions, count);
    }

    /** The first {@code count} rows. */
    public Batch head(int count) {
        return slice(0, count);
    }

    /** Up to {@code count} rows from row {@code from} on. */
    public Batch slice(int from, int count) {
        int n = Math.min(count, rowCount - from);
        if (from == 0 && n == rowCount) {
            return this;
        }
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
            positions[i] = from + i;
        }
        return gather(positions, n);
    }

    /** Builds a batch column by column, carrying other batches' columns over without materializing them. */
    public static Builder builder(int rowCount, int columnCount) {
        return new Builder(rowCount, columnCount);
    }

    public static long totalRows(List<Batch> batches) {
        long n = 0;
        for (Batch b : batches) {
            n += b.rowCount();
        }
        return n;
    }

    public static final class Builder {
        private final int rowCount;
        private final Vector[] columns;
        private final PendingColumn[] pending;

        private Builder(int rowCount, int columnCount) {
            this.rowCount = rowCount;
            this.columns = new Vector[columnCount];
            this.pending = new PendingColumn[columnCount];
        }

        public Builder set(int i, Vector v) {
            columns[i] = v;
            return this;
        }

        /** Column {@code i} becomes {@code from}'s column {@code column}, as it stands (pending stays pending). */
        public Builder carry(int i, Batch from, int column) {
            columns[i] = from.columns[column];
            pending[i] = from.columns[column] == null ? from.pending[column] : null;
            return this;
        }

        public Batch build() {
            return new Batch(rowCount, columns, pending);
        }
    }
}
