package io.ferry.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import io.ferry.core.storage.Table;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/** Copies a Ferry table, row for row and type for type, into a DuckDB table of the same name (DuckDB's appender). */
public final class DuckDbMirror {
    private DuckDbMirror() {
    }

    public static void copy(Table table, Connection duck) throws SQLException {
        TableSchema schema = table.schema();
        try (Statement s = duck.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table.name());
            s.execute("CREATE TABLE " + table.name() + " (" + schema.columnDefinitions() + ")");
        }
        try (DuckDBAppender app = duck.unwrap(DuckDBConnection.class).createAppender("main", table.name())) {
            table.forEachBatch(batch -> {
                try {
                    for (int r = 0; r < batch.rowCount(); r++) {
                        app.beginRow();
                        for (int c = 0; c < batch.columnCount(); c++) {
                            append(app, batch.column(c), r, schema.type(c));
                        }
                        app.endRow();
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException("DuckDB refused a row of " + table.name(), e);
                }
            });
        }
    }

    private static void append(DuckDBAppender app, Vector v, int r, FerryType type) throws SQLException {
        if (v.isNull(r)) {
            app.appendNull();
            return;
        }
        switch (type.kind()) {
            case VARCHAR -> app.append(((BytesVector) v).getString(r));
            case DOUBLE -> app.append(((DoubleVector) v).get(r));
            case INTEGER -> app.append((int) ((LongVector) v).get(r));
            case BOOLEAN -> app.append(((LongVector) v).get(r) != 0);
            case DECIMAL -> app.append(v instanceof BytesVector wide ? WideDecimal.get(wide, r, type.scale())
                    : java.math.BigDecimal.valueOf(((LongVector) v).get(r), type.scale()));
            case DATE -> app.append(LocalDate.ofEpochDay(((LongVector) v).get(r)));
            case TIMESTAMP -> {
                long ms = ((LongVector) v).get(r);
                app.append(LocalDateTime.ofEpochSecond(Math.floorDiv(ms, 1000), (int) Math.floorMod(ms, 1000) * 1_000_000,
                        ZoneOffset.UTC));
            }
            default -> app.append(((LongVector) v).get(r));
        }
    }
}
