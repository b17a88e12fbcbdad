package io.ferry.sql.schema;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Appends rows that arrive as Java objects (INSERT ... VALUES / SELECT, CREATE TABLE ... AS) to a table. All rows
 * are staged first; only if every row converts does the table see them, so a failing INSERT adds nothing.
 */
public final class TableInserter {
    private final Table table;
    private final boolean scalarRows;

    public TableInserter(Table table, boolean scalarRows) {
        this.table = table;
        this.scalarRows = scalarRows;
    }

    public Enumerable<Long> insert(Enumerable<?> rows) {
        long count = 0;
        try (TableAppender appender = table.appender(); Enumerator<?> e = rows.enumerator()) {
            BatchBuilder builder = new BatchBuilder(table.schema());
            while (e.moveNext()) {
                Object row = e.current();
                builder.add(scalarRows ? new Object[] {row} : (Object[]) row);
                count++;
                if (builder.size() == Vector.MAX_ROWS) {
                    appender.append(builder.build());
                }
            }
            if (builder.size() > 0) {
                appender.append(builder.build());
            }
            appender.commit();
        }
        return Linq4j.singletonEnumerable(count);
    }

    /** Gathers rows of Java values into column vectors, checking NOT NULL and converting to physical form. */
    public static final class BatchBuilder {
        private final TableSchema schema;
        private long[][] longs;
        private double[][] doubles;
        private BytesVector.Builder[] strings;
        private boolean[][] nulls;
        private int size;

        public BatchBuilder(TableSchema schema) {
            this.schema = schema;
            reset();
        }

        private void reset() {
            int n = schema.size();
            longs = new long[n][];
            doubles = new double[n][];
            strings = new BytesVector.Builder[n];
            nulls = new boolean[n][];
            for (int c = 0; c < n; c++) {
                switch (schema.type(c).physical()) {
                    case LONG -> longs[c] = new long[Vector.MAX_ROWS];
                    case DOUBLE -> doubles[c] = new double[Vector.MAX_ROWS];
                    case BYTES -> strings[c] = new BytesVector.Builder(Vector.MAX_ROWS);
                }
                nulls[c] = new boolean[Vector.MAX_ROWS];
            }
            size = 0;
        }

        public int size() {
            return size;
        }

        public void add(Object[] row) {
            for (int c = 0; c < schema.size(); c++) {
                Column col = schema.column(c);
                Object v = c < row.length ? row[c] : null;
                if (v == null) {
                    if (!col.nullable()) {
                        throw new FerryException(SqlStates.NOT_NULL_VIOLATION, "column '" + col.name()
                                + "' is NOT NULL, but a row gives it no value; supply one");
                    }
                    nulls[c][size] = true;
                    if (strings[c] != null) {
                        strings[c].appendNull();
                    }
                    continue;
                }
                FerryType t = col.type();
                switch (t.physical()) {
                    case LONG -> longs[c][size] = toLong(v, t, col.name());
                    case DOUBLE -> doubles[c][size] = ((Number) v).doubleValue();
                    case BYTES -> strings[c].append(v.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            size++;
        }

        private static long toLong(Object v, FerryType t, String column) {
            switch (t.kind()) {
                case BOOLEAN -> {
                    return Boolean.TRUE.equals(v) ? 1 : 0;
                }
                case DECIMAL -> {
                    BigDecimal d = v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
                    BigDecimal scaled = d.setScale(t.scale(), RoundingMode.HALF_UP);
                    if (scaled.precision() - scaled.scale() > t.precision() - t.scale()) {
                        throw new FerryException(SqlStates.NUMERIC_OUT_OF_RANGE, "value " + d + " does not fit column '"
                                + column + "' of type " + t.sqlName());
                    }
                    return scaled.unscaledValue().longValueExact();
                }
                case DATE -> {
                    if (v instanceof java.sql.Date sd) {
                        return sd.toLocalDate().toEpochDay();
                    }
                    return ((Number) v).longValue();
                }
                case TIMESTAMP -> {
                    if (v instanceof java.sql.Timestamp ts) {
                        return ts.getTime();
                    }
                    return ((Number) v).longValue();
                }
                case INTEGER -> {
                    long x = ((Number) v).longValue();
                    if (x != (int) x) {
                        throw FerryException.overflow("INTEGER (column '" + column + "')");
                    }
                    return x;
                }
                default -> {
                    return ((Number) v).longValue();
                }
            }
        }

        public Batch build() {
            int n = schema.size();
            Vector[] cols = new Vector[n];
            for (int c = 0; c < n; c++) {
                boolean any = false;
                for (int i = 0; i < size; i++) {
                    any |= nulls[c][i];
                }
                boolean[] nl = any ? java.util.Arrays.copyOf(nulls[c], size) : null;
                cols[c] = switch (schema.type(c).physical()) {
                    case LONG -> new LongVector(java.util.Arrays.copyOf(longs[c], size), nl, size);
                    case DOUBLE -> new DoubleVector(java.util.Arrays.copyOf(doubles[c], size), nl, size);
                    case BYTES -> strings[c].build();
                };
            }
            Batch b = new Batch(size, cols);
            reset();
            return b;
        }
    }
}
