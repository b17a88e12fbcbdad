package io.ferry.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.server.LocalNode;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * COPY through a real JDBC server, with DuckDB on the other side of each file: a CSV Ferry writes reads back in
 * DuckDB with the same content (types, NULLs, empty strings, quotes, UTF-8), and one DuckDB writes loads into Ferry
 * with the same content; bad files, paths and options get an SQLSTATE and leave tables and files as they were.
 */
class CopyTest {
    private static final String COLUMNS = "id INTEGER NOT NULL, b BIGINT, d DOUBLE, p DECIMAL(12, 3), s VARCHAR, "
            + "dt DATE, ts TIMESTAMP, f BOOLEAN";
    private static final String ROWS = "(1, 9223372036854775807, 1.5, 12.345, 'plain', DATE '2024-02-29', "
            + "TIMESTAMP '2024-02-29 12:34:56.789', TRUE), (2, NULL, -0.25, -0.001, '', DATE '1500-03-01', "
            + "TIMESTAMP '1970-01-01 00:00:00', FALSE), (3, -5, NULL, NULL, NULL, NULL, NULL, NULL), "
            + "(4, 0, 1e300, 999999999.999, 'a,b \"quoted\" Zürich ✓ 東京', DATE '2999-12-31', "
            + "TIMESTAMP '2000-01-01 23:59:59', TRUE)";

    @TempDir
    static Path dir;
    private static LocalNode node;
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws SQLException {
        node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(256L << 20), "127.0.0.1", 0, null, List.of(dir)), ProgressListener.NONE);
        ferry = DriverManager.getConnection(node.server().ferryUrl());
        duck = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE src (" + COLUMNS + ")");
                s.execute("INSERT INTO src VALUES " + ROWS);
            }
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        if (ferry != null) {
            ferry.close();
        }
        if (duck != null) {
            duck.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String state(String sql) {
        return assertThrows(SQLException.class, () -> exec(ferry, sql), sql).getSQLState();
    }

    private static long count(String table) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aFileFerryWritesReadsBackInDuckDb() throws SQLException {
        Path file = dir.resolve("from-ferry.csv");
        exec(ferry, "COPY src TO '" + file + "' (FORMAT csv, HEADER)");
        exec(duck, "CREATE TABLE back (" + COLUMNS + ")");
        // DuckDB reads a quoted empty field as NULL unless told otherwise; Ferry writes NULL unquoted and '' as ""
        exec(duck, "COPY back FROM '" + file + "' (FORMAT csv, HEADER, ALLOW_QUOTED_NULLS false)");
        ResultComparison.assertSameResult(ferry, "SELECT * FROM src", duck, "SELECT * FROM back", false);
        // a query's result, another delimiter, no header
        Path piped = dir.resolve("query.psv");
        exec(ferry, "COPY (SELECT id, s FROM src WHERE id > 1 ORDER BY id) TO '" + piped + "' "
                + "WITH (DELIMITER '|', HEADER false)");
        exec(duck, "CREATE TABLE piped (id INTEGER, s VARCHAR)");
        exec(duck, "COPY piped FROM '" + piped + "' (DELIMITER '|', HEADER false, ALLOW_QUOTED_NULLS false)");
        ResultComparison.assertSameResult(ferry, "SELECT id, s FROM src WHERE id > 1", duck, "SELECT * FROM piped",
                false);
    }

    @Test
    void aFileDuckDbWritesLoadsIntoFerry() throws SQLException {
        Path file = dir.resolve("from-duck.csv");
        exec(duck, "COPY src TO '" + file + "' (FORMAT csv, HEADER)");
        exec(ferry, "CREATE TABLE loaded (" + COLUMNS + ")");
        exec(ferry, "COPY loaded FROM '" + file + "' (FORMAT csv, HEADER true)");
        ResultComparison.assertSameResult(ferry, "SELECT * FROM loaded", duck, "SELECT * FROM src", false);
    }

    @Test
    void badInputLeavesEverythingAsItWas() throws Exception {
        exec(ferry, "CREATE TABLE kept (id INTEGER NOT NULL, s VARCHAR)");
        exec(ferry, "INSERT INTO kept VALUES (1, 'one')");
        Path bad = Files.writeString(dir.resolve("bad.csv"), "id,s\n2,two\nnot a number,three\n");
        assertEquals("22018", state("COPY kept FROM '" + bad + "'"));
        assertEquals(1, count("kept"), "a failed COPY adds no row");
        assertEquals("42P01", state("COPY missing FROM '" + bad + "'"));
        assertEquals("22023", state("COPY kept FROM 'relative.csv'"));
        assertEquals("42501", state("COPY kept FROM '/etc/passwd'"));
        assertEquals("42501", state("COPY kept TO '/etc/ferry-copy.csv'"));
        assertEquals("42601", state("COPY kept TO '" + dir.resolve("k.csv") + "' (COMPRESSION 'gzip')"));
        Path existing = Files.writeString(dir.resolve("existing.csv"), "what was there\n");
        assertEquals("42P01", state("COPY (SELECT * FROM nope) TO '" + existing + "'"));
        assertEquals("what was there\n", Files.readString(existing, StandardCharsets.UTF_8));
        exec(ferry, "COPY kept TO '" + existing + "'");
        assertEquals("id,s\n1,one\n", Files.readString(existing, StandardCharsets.UTF_8));
        try (var leftovers = Files.list(dir)) {
            assertTrue(leftovers.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void anEmbeddedEngineHasNoFilesToCopy() throws SQLException {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(1).withMemoryLimit(64L << 20));
                Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (k INTEGER)");
            assertEquals("0A000", assertThrows(SQLException.class,
                    () -> s.execute("COPY t TO '" + dir.resolve("x.csv") + "'")).getSQLState());
        }
    }
}
