package io.ferry.sql.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
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
import io.ferry.core.vector.WideDecimal;

/**
 * Writes the rows of INSERT, DELETE and UPDATE (as Java objects, from Calcite's row engine) to a table. All rows are
 * staged first and published by one commit, so a statement that fails part-way changes nothing, and a concurrent
 * reader sees the table before or after it, never between.
 */
public final class TableWriter {
    private final Table table;
    private final boolean scalarRows;

    /** {@code scalarRows}: rows of a one-column input arrive as the value itself, not as an array. */
    public TableWriter(Table table, boolean scalarRows) {
        this.table = table;
        this.scalarRows = scalarRows;
    }

    /** INSERT: adds {@code source}'s rows; returns how many. */
    public Enumerable<Long> insert(Enumerable<?> source) {
        long count;
        try (TableAppender appender = table.appender()) {
            count = stage(source, appender, false);
            appender.commit();
        }
        return Linq4j.singletonEnumerable(count);
    }

    /** DELETE: {@code kept} is every row the table keeps (DmlRewrite); returns how many it had besides. */
    public Enumerable<Long> delete(Enumerable<?> kept) {
        try (Table.WriteLock held = table.lockWrites(); TableAppender appender = table.rewriter()) {
            long before = table.rowCount();
            long after = stage(kept, appender, false);
            appender.commit();
            return Linq4j.singletonEnumerable(before - after);
        }
    }

    /**
     * UPDATE: {@code rows} is every row of the table's next version, each followed by whether the statement changed
     * it (DmlRewrite); returns how many it changed.
     */
    public Enumerable<Long> update(Enumerable<?> rows) {
        try (Table.WriteLock held = table.lockWrites(); TableAppender appender = table.rewriter()) {
            long changed = stage(rows, appender, true);
            appender.commit();
            return Linq4j.singletonEnumerable(changed);
        }
    }

    /** Stages every row of {@code source}; returns how many, or with {@code flagged} how many were flagged. */
    private long stage(Enumerable<?> source, TableAppender appender, boolean flagged) {
        long count = 0;
        int width = table.schema().size();
        try (Enumerator<?> e = source.enumerator()) {
            Rows rows = new Rows(table.schema());
            while (e.moveNext()) {
                Object current = e.current();
                Object[] row = scalarRows ? new Object[] {current} : (Object[]) current;
                rows.add(row);
                if (!flagged || Boolean.TRUE.equals(row[width])) {
                    count++;
                }
                if (rows.isFull()) {
                    appender.append(rows.build());
                }
            }
            if (rows.size() > 0) {
                appender.append(rows.build());
            }
        }
        return count;
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
                    case BYTES -> builder.appendBytes(c, t.isWideDecimal()
                            ? WideDecimal.encode(unscaled(v, t, col.name()))
                            : v.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
            builder.endRow();
        }

        public Batch build() {
            return builder.build();
        }
        /** A DECIMAL column's value, rounded half away from zero to its scale; 22003 past its precision. */
        private static BigInteger unscaled(Object v, FerryType t, String column) {
            BigDecimal d = v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
            BigDecimal scaled = d.setScale(t.scale(), RoundingMode.HALF_UP);
            if (scaled.precision() - scaled.scale() > t.precision() - t.scale()) {
                throw new FerryException(SqlStates.NUMERIC_OUT_OF_RANGE, "value " + d + " does not fit column '"
                        + column + "' of type " + t.sqlName());
            }
            return scaled.unscaledValue();
        }

        private static long toLong(Object v, FerryType t, String column) {
            switch (t.kind()) {
                case BOOLEAN -> {
                    return Boolean.TRUE.equals(v) ? 1 : 0;
                }
                case DECIMAL -> {
                    return unscaled(v, t, column).longValueExact();
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
