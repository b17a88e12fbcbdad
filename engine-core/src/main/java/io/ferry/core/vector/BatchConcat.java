package io.ferry.core.vector;

import java.util.List;

import io.ferry.core.types.FerryType;

/** Concatenates batches into one (join build sides, sort inputs and block writers need all rows at hand). */
public final class BatchConcat {
    private BatchConcat() {
    }

    /** One materialized batch holding all rows of {@code batches}, in order. */
    public static Batch concat(List<Batch> batches, List<FerryType> types) {
        if (batches.size() == 1) {
            return batches.get(0).materialize();
        }
        long total = Batch.totalRows(batches);
        if (total > Integer.MAX_VALUE - 16) {
            throw new io.ferry.core.FerryException(io.ferry.core.SqlStates.OUT_OF_MEMORY,
                    "an intermediate result of " + total + " rows is too large to hold at once; add filters");
        }
        int n = (int) total;
        Vector[] out = new Vector[types.size()];
        for (int c = 0; c < out.length; c++) {
            out[c] = concatColumn(batches, c, types.get(c), n);
        }
        return new Batch(n, out);
    }

    private static Vector concatColumn(List<Batch> batches, int c, FerryType type, int n) {
        boolean anyNull = false;
        for (Batch b : batches) {
            anyNull |= b.column(c).nulls() != null;
        }
        boolean[] nulls = anyNull ? new boolean[n] : null;
        int pos = 0;
        switch (type.physical()) {
            case LONG -> {
                long[] v = new long[n];
                for (Batch b : batches) {
                    LongVector x = (LongVector) b.column(c);
                    System.arraycopy(x.values(), 0, v, pos, b.rowCount());
                    copyNulls(x, nulls, pos, b.rowCount());
                    pos += b.rowCount();
                }
                return new LongVector(v, nulls, n);
            }
            case DOUBLE -> {
                double[] v = new double[n];
                for (Batch b : batches) {
                    DoubleVector x = (DoubleVector) b.column(c);
                    System.arraycopy(x.values(), 0, v, pos, b.rowCount());
                    copyNulls(x, nulls, pos, b.rowCount());
                    pos += b.rowCount();
                }
                return new DoubleVector(v, nulls, n);
            }
            default -> {
                long bytes = 0;
                for (Batch b : batches) {
                    BytesVector x = (BytesVector) b.column(c);
                    bytes += x.offsets()[b.rowCount()];
                }
                byte[] data = new byte[Math.toIntExact(bytes)];
                int[] offsets = new int[n + 1];
                int dataPos = 0;
                for (Batch b : batches) {
                    BytesVector x = (BytesVector) b.column(c);
                    int len = x.offsets()[b.rowCount()];
                    System.arraycopy(x.data(), 0, data, dataPos, len);
                    for (int i = 0; i < b.rowCount(); i++) {
                        offsets[pos + i + 1] = dataPos + x.offsets()[i + 1];
                    }
                    copyNulls(x, nulls, pos, b.rowCount());
                    dataPos += len;
                    pos += b.rowCount();
                }
                return new BytesVector(data, offsets, nulls, n);
            }
        }
    }

    private static void copyNulls(Vector x, boolean[] nulls, int pos, int count) {
        if (x.nulls() != null) {
            System.arraycopy(x.nulls(), 0, nulls, pos, count);
        }
    }
}
