package io.ferry.bench.tpcds;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.ferry.server.data.CsvLoader;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.FerryEngine;
import io.trino.tpcds.Table;

/**
 * Loads one generated table into both engines with the same DDL: Ferry through {@code CREATE TABLE} and the CSV
 * loader behind {@code bin/ferry load}, DuckDB through {@code CREATE TABLE} and {@code COPY}. Both read an unquoted
 * empty field as NULL and {@code ""} as the empty string (DuckDB only with {@code allow_quoted_nulls = false}).
 */
public final class TpcdsLoader {
    private static final CsvLoader.Options FERRY_CSV = CsvLoader.Options.DEFAULT.withHeader(false).withDelimiter('|');

    private TpcdsLoader() {
    }

    /**
     * Loads {@code table} into both engines, Ferry's partitioned into {@code parts} per star-join key
     * ({@link TpcdsTables#createTable(Table, int)}; 0: not); returns its row count in Ferry.
     */
    public static long load(TpcdsData data, Table table, int parts, FerryEngine ferry, Connection duck)
            throws IOException, SQLException {
        String ddl = TpcdsTables.createTable(table);
        try (Connection c = ferry.connect(); Statement s = c.createStatement()) {
            s.execute(TpcdsTables.createTable(table, parts));
        }
        long rows = CsvLoader.load(ferry.catalog(), table.getName(), data.file(table), FERRY_CSV, null,
                ProgressListener.NONE);
        try (Statement s = duck.createStatement()) {
            s.execute(ddl);
            s.execute("COPY " + table.getName() + " FROM '" + data.file(table).toAbsolutePath().toString()
                    .replace("'", "''") + "' (FORMAT csv, DELIMITER '|', HEADER false, QUOTE '\"', ESCAPE '\"', "
                    + "NULL '', ALLOW_QUOTED_NULLS false)");
        }
        return rows;
    }
}
