package io.ferry.core.vector;

import io.ferry.core.types.TableSchema;

/**
 * Fills the columns of one batch row by row straight into primitive arrays (long, double, UTF-8 bytes), then hands
 * them over as a {@link Batch} and starts fresh arrays: the batch may outlive the next one being filled.
 */
public final class BatchBuilder {
    private final TableSchema schema;
    private final int capacity;
    private long[][] longs;
    private double[][] doubles;
    private BytesVector.Builder[] bytes;
    private boolean[][] nulls;
    private int rows;

    public BatchBuilder(TableSchema schema, int capacity) {
        this.schema = schema;
        this.capacity = capacity;
        allocate();
    }

    private void allocate() {
        int n = schema.size();
        longs = new long[n][];
        doubles = new double[n][];
        bytes = new BytesVector.Builder[n];
        nulls = new boolean[n][];
        for (int c = 0; c < n; c++) {
            switch (schema.type(c).physical()) {
                case LONG -> longs[c] = new long[capacity];
                case DOUBLE -> doubles[c] = new double[capacity];
                case BYTES -> bytes[c] = new BytesVector.Builder(capacity);
            }
        }
        rows = 0;
    }

    public int rows() {
        return rows;
    }

    public boolean isFull() {
        return rows == capacity;
    }

    public void setLong(int column, long value) {
        longs[column][rows] = value;
    }

    public void setDouble(int column, double value) {
        doubles[column][rows] = value;
    }

    public void appendBytes(int column, byte[] src, int from, int len) {
        bytes[column].append(src, from, len);
    }

    public void appendBytes(int column, byte[] value) {
        bytes[column].append(value, 0, value.length);
    }

    public void setNull(int column) {
        if (bytes[column] != null) {
            bytes[column].appendNull();
            return;
        }
        if (nulls[column] == null) {
            nulls[column] = new boolean[capacity];
        }
        nulls[column][rows] = true;
    }

    /** Completes the current row: every column must have been set (or set NULL) once. */
    public void endRow() {
        rows++;
    }

    /** The rows so far as a batch; the builder starts over with new arrays. */
    public Batch build() {
        Vector[] columns = new Vector[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            boolean[] n = nulls[c];
            if (longs[c] != null) {
                columns[c] = new LongVector(longs[c], n, rows);
            } else if (doubles[c] != null) {
                columns[c] = new DoubleVector(doubles[c], n, rows);
            } else {
                columns[c] = bytes[c].build();
            }
        }
        Batch batch = new Batch(rows, columns);
        allocate();
        return batch;
    }
}
