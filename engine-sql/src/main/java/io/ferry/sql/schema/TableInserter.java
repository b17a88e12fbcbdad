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
import io.ferry.core.vector.BatchBuilder;
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

    public Enumerable<Long> insert(Enumerable<?> source) {
        long count = 0;
        try (TableAppender appender = table.appender(); Enumerator<?> e = source.enumerator()) {
            Rows rows = new Rows(table.schema());
            while (e.moveNext()) {
                Object row = e.current();
                rows.add(scalarRows ? new Object[] {row} : (Object[]) row);
                count++;
                if (rows.isFull()) {
                    appender.append(rows.build());
                }
            }
            if (rows.size() > 0) {
                appender.append(rows.build());
            }
            appender.commit();
        }
        return Linq4j.singletonEnumerable(count);
    }

    /**
     * Rows of Java values (as Calcite and JDBC hand them over) gathered into a batch: checks NOT NULL and converts
     * each value to its column's physical form.
     */
    public static final class Rows {
        private final TableSchema schema;
        private final BatchBuilder builder;

        public Rows(TableSchema schema) {
            this.schema = schema;
            this.builder = new BatchBuilder(schema, Vector.MAX_ROWS);
        }

        public int size() {
            return builder.rows();
        }

        public boolean isFull() {
            return builder.isFull();
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
                    builder.setNull(c);
                    continue;
                }
                FerryType t = col.type();
                switch (t.physical()) {
                    case LONG -> builder.setLong(c, toLong(v, t, col.name()));
                    case DOUBLE -> builder.setDouble(c, ((Number) v).doubleValue());
                    case BYTES -> builder.appendBytes(c, v.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            builder.endRow();
        }

        public Batch build() {
            return builder.build();
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
    }
}
