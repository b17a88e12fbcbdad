package io.ferry.core.vector;

import java.util.List;

/** A set of equally long column vectors: the unit operators pass to each other. */
public record Batch(int rowCount, Vector[] columns) {

    public static Batch of(Vector... columns) {
        return new Batch(columns.length == 0 ? 0 : columns[0].size(), columns);
    }

    public Vector column(int i) {
        return columns[i];
    }

    public int columnCount() {
        return columns.length;
    }

    public Batch gather(int[] positions, int count) {
        Vector[] out = new Vector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            out[c] = columns[c].gather(positions, count);
        }
        return new Batch(count, out);
    }

    public Batch compact(boolean[] mask, int count) {
        if (count == rowCount) {
            return this;
        }
        Vector[] out = new Vector[columns.length];
        for (int c = 0; c < columns.length; c++) {
            out[c] = columns[c].compact(mask, count);
        }
        return new Batch(count, out);
    }

    /** The first {@code count} rows. */
    public Batch head(int count) {
        if (count >= rowCount) {
            return this;
        }
        int[] positions = new int[count];
        for (int i = 0; i < count; i++) {
            positions[i] = i;
        }
        return gather(positions, count);
    }

    public static long totalRows(List<Batch> batches) {
        long n = 0;
        for (Batch b : batches) {
            n += b.rowCount();
        }
        return n;
    }
}
