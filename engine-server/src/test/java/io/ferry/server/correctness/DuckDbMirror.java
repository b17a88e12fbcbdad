package io.ferry.server.correctness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.server.data.CsvExporter;
import io.ferry.server.data.ProgressListener;

/**
 * An in-memory DuckDB holding the same rows as Ferry tables: each table is exported to CSV by Ferry and loaded by
 * DuckDB into a table of the same column types, so the two engines answer over identical data.
 */
public final class DuckDbMirror implements AutoCloseable {
    private final Connection duck;
    private final Path dir;

    private DuckDbMirror(Connection duck, Path dir) {
        this.duck = duck;
        this.dir = dir;
    }

    /** Mirrors every table of {@code catalog}. */
    public static DuckDbMirror of(Catalog catalog) throws Exception {
        DuckDbMirror mirror = new DuckDbMirror(DriverManager.getConnection("jdbc:duckdb:"),
                Files.createTempDirectory("ferry-duckdb-mirror"));
        try {
            for (Table table : catalog.tables()) {
                mirror.add(table);
            }
            return mirror;
        } catch (Exception | Error e) {
            mirror.close();
            throw e;
        }
    }

    private void add(Table table) throws Exception {
        Path csv = dir.resolve(table.name() + ".csv");
        long rows = CsvExporter.export(table, csv, ProgressListener.NONE);
        if (rows != table.rowCount()) {
            throw new IllegalStateException(table.name() + ": exported " + rows + " of " + table.rowCount() + " rows");
        }
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE " + table.name() + " (" + table.schema().columnDefinitions() + ")");
            s.execute("COPY " + table.name() + " FROM '" + csv + "' (HEADER)");
        }
        Files.delete(csv);
    }

    public Connection connection() {
        return duck;
    }

    @Override
    public void close() throws SQLException {
        try {
            duck.close();
        } finally {
            try (Stream<Path> left = Files.list(dir)) {
                for (Path p : left.toList()) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir);
            } catch (java.io.IOException e) {
                // a temporary directory left behind is not worth failing a test for
            }
        }
    }
}
