package io.ferry.server.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.server.LocalNode;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.load.LoadClient;
import io.ferry.server.load.LoadRequest;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.ResultComparison;

/**
 * Parquet in and out through a real JDBC server, with DuckDB on the other side of every file: a file DuckDB writes
 * (each codec, every type Ferry has, NULLs, several row groups) loads into Ferry with the same content, and a file
 * Ferry writes reads back in DuckDB with the same content and types. Bad files (cut short, garbage, corrupt pages,
 * the wrong columns, values that do not fit) get an SQLSTATE and a sentence naming the file, and leave the table as
 * it was.
 */
class ParquetTest {
    private static final String COLUMNS = "id INTEGER NOT NULL, b BIGINT, d DOUBLE, p DECIMAL(12, 3), "
            + "w DECIMAL(30, 4), s VARCHAR, dt DATE, ts TIMESTAMP, f BOOLEAN, small DECIMAL(5, 2)";
    private static final String ROWS = "(1, 9223372036854775807, 1.5, 12.345, 123456789012345678901234.5678, "
            + "'plain', DATE '2024-02-29', TIMESTAMP '2024-02-29 12:34:56.789', TRUE, 1.25), "
            + "(2, NULL, -0.25, -0.001, -0.0001, '', DATE '1500-03-01', TIMESTAMP '1970-01-01 00:00:00', FALSE, "
            + "-999.99), (3, -5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
            + "(4, -9223372036854775808, 1e300, 999999999.999, -99999999999999999999999999.9999, "
            + "'a,b \"quoted\" Zürich ✓ 東京', DATE '0001-01-01', TIMESTAMP '1000-06-15 23:59:59.001', TRUE, 0)";

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
            exec(c, "CREATE TABLE src (" + COLUMNS + ")");
            exec(c, "INSERT INTO src VALUES " + ROWS);
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

    private static SQLException failure(String sql) {
        return assertThrows(SQLException.class, () -> exec(ferry, sql), sql);
    }

    private static long count(String table) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> duckTypes(String query) throws SQLException {
        List<String> types = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("DESCRIBE " + query)) {
            while (rs.next()) {
                types.add(rs.getString("column_name") + " " + rs.getString("column_type"));
            }
        }
        return types;
    }

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "gzip", "uncompressed", "lz4_raw"})
    void aFileDuckDbWritesLoadsIntoFerry(String codec) throws SQLException {
        Path file = dir.resolve("from-duck-" + codec + ".parquet");
        exec(duck, "COPY src TO '" + file + "' (FORMAT parquet, COMPRESSION " + codec + ")");
        String table = "loaded_" + codec;
        exec(ferry, "CREATE TABLE " + table + " (" + COLUMNS + ")");
        exec(ferry, "COPY " + table + " FROM '" + file + "'");
        ResultComparison.assertSameResult(ferry, "SELECT * FROM " + table, duck, "SELECT * FROM src", false);
    }

    @Test
    void aLoadThatCreatesTheTableTakesTheFilesColumnsAndTypes() throws Exception {
        Path file = dir.resolve("inferred.parquet");
        exec(duck, "COPY (SELECT *, id::SMALLINT AS tiny, id::UINTEGER AS u32, 2.5::FLOAT AS fl FROM src) TO '"
                + file + "' (FORMAT parquet)");
        LoadClient.Result result = LoadClient.load(node.server().endpoint(),
                LoadRequest.of("inferred", file.toString()).withCreate(true), ProgressListener.NONE);
        assertEquals(4, result.rows());
        ResultComparison.assertSameResult(ferry, "SELECT * FROM inferred", duck,
                "SELECT *, id::INTEGER, id::BIGINT, 2.5::DOUBLE FROM src", false);
        List<String> types = new ArrayList<>();
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT column_name, data_type "
                + "FROM information_schema.columns WHERE table_name = 'inferred' ORDER BY ordinal_position")) {
            while (rs.next()) {
                types.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        assertEquals(List.of("id INTEGER", "b BIGINT", "d DOUBLE", "p DECIMAL(12,3)", "w DECIMAL(30,4)",
                "s VARCHAR", "dt DATE", "ts TIMESTAMP", "f BOOLEAN", "small DECIMAL(5,2)", "tiny INTEGER",
                "u32 BIGINT", "fl DOUBLE"), types.stream().map(t -> t.replace("DOUBLE PRECISION", "DOUBLE")
                .replace("CHARACTER VARYING", "VARCHAR").replace("NUMERIC", "DECIMAL")).toList());
    }

    @Test
    void aFileFerryWritesReadsBackInDuckDb() throws SQLException {
        Path file = dir.resolve("from-ferry.parquet");
        exec(ferry, "COPY src TO '" + file + "' (FORMAT parquet)");
        ResultComparison.assertSameResult(ferry, "SELECT * FROM src", duck,
                "SELECT * FROM read_parquet('" + file + "')", false);
        assertEquals(List.of("id INTEGER", "b BIGINT", "d DOUBLE", "p DECIMAL(12,3)", "w DECIMAL(30,4)",
                "s VARCHAR", "dt DATE", "ts TIMESTAMP", "f BOOLEAN", "small DECIMAL(5,2)"),
                duckTypes("SELECT * FROM read_parquet('" + file + "')"));
        // a query's result, the format taken from the file name, another codec; and back into Ferry
        Path query = dir.resolve("query.parquet");
        exec(ferry, "COPY (SELECT id, s, ts FROM src WHERE id > 1) TO '" + query + "' (COMPRESSION 'zstd')");
        ResultComparison.assertSameResult(ferry, "SELECT id, s, ts FROM src WHERE id > 1", duck,
                "SELECT * FROM '" + query + "'", false);
        exec(ferry, "CREATE TABLE back (id INTEGER, s VARCHAR, ts TIMESTAMP)");
        exec(ferry, "COPY back FROM '" + query + "' (FORMAT parquet)");
        ResultComparison.assertSameResult(ferry, "SELECT * FROM back", duck, "SELECT * FROM '" + query + "'", false);
    }

    @Test
    void manyRowGroupsAndBatches() throws SQLException {
        Path file = dir.resolve("big.parquet");
        String rows = "SELECT i::BIGINT AS k, (i % 1000)::INTEGER AS g, CASE WHEN i % 7 = 0 THEN NULL ELSE 'v' || "
                + "(i % 5000) END AS s, i / 3.0 AS x, ((i % 100000) * 0.25)::DECIMAL(18, 2) AS m FROM range(250000) t(i)";
        exec(duck, "COPY (" + rows + ") TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 60000)");
        exec(ferry, "CREATE TABLE big (k BIGINT, g INTEGER, s VARCHAR, x DOUBLE, m DECIMAL(18, 2))");
        exec(ferry, "COPY big FROM '" + file + "'");
        String check = "SELECT g, COUNT(*), COUNT(s), SUM(k), MIN(s), MAX(s), SUM(m) FROM %s GROUP BY g";
        ResultComparison.assertSameResult(ferry, String.format(check, "big"), duck,
                String.format(check, "(" + rows + ")"), false);
    }

    @Test
    void badFilesLeaveTheTableAsItWas() throws Exception {
        exec(ferry, "CREATE TABLE kept (id INTEGER NOT NULL, s VARCHAR)");
        exec(ferry, "INSERT INTO kept VALUES (1, 'one')");
        Path good = dir.resolve("good.parquet");
        exec(duck, "COPY (SELECT i::INTEGER AS id, 'row ' || i AS s FROM range(2, 50000) t(i)) TO '" + good
                + "' (FORMAT parquet)");
        byte[] bytes = Files.readAllBytes(good);

        Path cut = Files.write(dir.resolve("cut.parquet"), Arrays.copyOf(bytes, bytes.length / 2));
        assertBad("22P04", "COPY kept FROM '" + cut + "'", cut.toString());
        Path garbage = Files.write(dir.resolve("garbage.parquet"), "PAR1 this is not a parquet file at all PAR1"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertBad("22P04", "COPY kept FROM '" + garbage + "'", garbage.toString());
        Path csv = Files.writeString(dir.resolve("really.csv"), "id,s\n1,x\n");
        assertBad("22P04", "COPY kept FROM '" + csv + "' (FORMAT parquet)", csv.toString());
        // the first page's header overwritten: the footer is fine, the data is not
        byte[] corrupt = bytes.clone();
        Arrays.fill(corrupt, 4, 100, (byte) 0x5A);
        Path broken = Files.write(dir.resolve("broken.parquet"), corrupt);
        assertBad("22P04", "COPY kept FROM '" + broken + "'", "row group 1");

        Path wide = dir.resolve("wide.parquet");
        exec(duck, "COPY (SELECT 1 AS a, 'x' AS b, 2 AS c) TO '" + wide + "' (FORMAT parquet)");
        assertBad("22P04", "COPY kept FROM '" + wide + "'", "columns are taken by position");
        Path text = dir.resolve("text.parquet");
        exec(duck, "COPY (SELECT 'seven' AS id, 'x' AS s) TO '" + text + "' (FORMAT parquet)");
        assertBad("42804", "COPY kept FROM '" + text + "'", "'id'");
        Path big = dir.resolve("toobig.parquet");
        exec(duck, "COPY (SELECT i::BIGINT * 1000000 AS id, 'x' AS s FROM range(5000) t(i)) TO '" + big
                + "' (FORMAT parquet)");
        assertBad("22003", "COPY kept FROM '" + big + "'", "row 2149");
        Path nulls = dir.resolve("nulls.parquet");
        exec(duck, "COPY (SELECT CASE WHEN i = 3 THEN NULL ELSE i END::INTEGER AS id, 'x' AS s FROM range(5) t(i)) "
                + "TO '" + nulls + "' (FORMAT parquet)");
        assertBad("23502", "COPY kept FROM '" + nulls + "'", "row 4");
        Path nested = dir.resolve("nested.parquet");
        exec(duck, "COPY (SELECT 1 AS id, [1, 2] AS s) TO '" + nested + "' (FORMAT parquet)");
        assertBad("0A000", "COPY kept FROM '" + nested + "'", "nested");
        Path blob = dir.resolve("blob.parquet");
        exec(duck, "COPY (SELECT 5 AS id, 'five'::BLOB AS s) TO '" + blob + "' (FORMAT parquet)");
        assertBad("0A000", "COPY kept FROM '" + blob + "'", "BINARY_AS_STRING");
        assertBad("58P01", "COPY kept FROM '" + dir.resolve("missing.parquet") + "'", "missing.parquet");
        assertEquals(1, count("kept"), "no failed COPY added a row");

        exec(ferry, "COPY kept FROM '" + blob + "' (BINARY_AS_STRING true)");
        exec(ferry, "COPY kept FROM '" + good + "'");
        assertEquals(2 + 49998, count("kept"));
    }

    @Test
    void optionsAreCheckedForTheFormat() throws Exception {
        Path target = dir.resolve("opts.parquet");
        assertEquals("42601", failure("COPY src TO '" + target + "' (HEADER true)").getSQLState());
        assertEquals("42601", failure("COPY src TO '" + dir.resolve("o.csv") + "' (COMPRESSION 'zstd')")
                .getSQLState());
        assertEquals("22023", failure("COPY src TO '" + target + "' (COMPRESSION 'lzo')").getSQLState());
        assertEquals("42601", failure("COPY src FROM '" + target + "' (COMPRESSION 'zstd')").getSQLState());
        assertFalse(Files.exists(target), "a refused COPY writes nothing");
        Files.writeString(target, "what was there");
        assertEquals("42P01", failure("COPY (SELECT * FROM nope) TO '" + target + "'").getSQLState());
        assertEquals("what was there", Files.readString(target));
    }

    private static void assertBad(String sqlState, String sql, String mentioned) {
        SQLException e = failure(sql);
        assertEquals(sqlState, e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains(mentioned), e.getMessage());
        assertFalse(e.getMessage().matches("(?s).*\\b(org|java|io)\\.[a-z]+\\.[A-Za-z.]*.*"), "no class names: "
                + e.getMessage());
    }
}
