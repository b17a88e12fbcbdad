package io.ferry.server.correctness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * Bad input through the stock Avatica remote driver, against a real server on a real socket: every error is
 * an SQLException whose SQLSTATE has the standard class and whose message says what was wrong; the server
 * keeps serving, and a failed INSERT leaves the table as it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ErrorsOverJdbcTest {
    private FerryEngine engine;
    private JdbcServer server;
    private Connection conn;

    @BeforeAll
    void start() throws Exception {
        // spilling off, so that a query over its 8 MiB fails with 53200 (SpillAgainstDuckDbTest: the same with it on)
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(64 * 1024)
                .withQueryMemoryLimit(8L << 20).withSpillDirectory(null));
        PaperTable.load(engine.catalog(), "r", 2_000_000, 1_000_000, ProgressListener.NONE);
        server = JdbcServer.start(engine, "127.0.0.1", 0, List.of());
        conn = DriverManager.getConnection(server.avaticaUrl());
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE t (a BIGINT NOT NULL, n INTEGER, s VARCHAR, d DATE)");
            s.execute("INSERT INTO t VALUES (1, 10, 'x', DATE '2020-01-01'), (2, 0, 'y', NULL), (3, NULL, NULL, NULL)");
        }
    }

    @AfterAll
    void stop() throws Exception {
        conn.close();
        server.close();
        engine.close();
    }

    static Stream<Arguments> badStatements() {
        return Stream.of(
                Arguments.of("SELEC a FROM t", "42601", "syntax"),
                Arguments.of("SELECT a FROM t WHERE", "42601", "syntax"),
                Arguments.of("SELECT * FROM no_such_table", "42P01", "no_such_table"),
                Arguments.of("SELECT no_such_column FROM t", "42703", "no_such_column"),
                Arguments.of("SELECT a FROM t x, t y", "42702", "qualify"),
                Arguments.of("SELECT * FROM t WHERE a = DATE '2020-01-01'", "42804", "type"),
                Arguments.of("SELECT a / (n - n) FROM t WHERE n IS NOT NULL", "22012", "division by zero"),
                Arguments.of("SELECT (a * 1000000000000000000) * 10 FROM t", "22003", "overflow"),
                // an integer literal past BIGINT is a DECIMAL (PostgreSQL's numeric); past 38 digits none holds it
                Arguments.of("SELECT 1234567890123456789012345678901234567890 FROM t", "22003", "out of range"),
                Arguments.of("SELECT CAST(a * 3000000000 AS INTEGER) FROM t", "22003", "INTEGER"),
                Arguments.of("SELECT CAST(s AS INTEGER) FROM t WHERE s IS NOT NULL", "22018", "'x'"),
                Arguments.of("SELECT b, COUNT(*) FROM r GROUP BY b", "53200", "memory limit"),
                Arguments.of("SELECT COUNT(*) FROM r x JOIN r y ON x.a = y.a", "53200", "build side of a join (reading r)"),
                Arguments.of("SELECT * FROM t TABLESAMPLE BERNOULLI(150)", "2", "100"),
                Arguments.of("SELECT * FROM t TABLESAMPLE SYSTEM('ten')", "42601", "syntax"),
                Arguments.of("SELECT APPROX_SUM(s) FROM t", "22018", "DECIMAL"),
                Arguments.of("SELECT APPROX_SUM(x.a) FROM t x TABLESAMPLE BERNOULLI(10) JOIN t y TABLESAMPLE "
                        + "SYSTEM(50) ON x.a = y.a", "0A000", "one sampled table"),
                Arguments.of("SELECT APPROX_COUNT(*) FROM (SELECT n, COUNT(*) FROM t TABLESAMPLE BERNOULLI(50) "
                        + "GROUP BY n)", "0A000", "below a subquery"),
                Arguments.of("SELECT APPROX_AVG(DISTINCT a) FROM t", "0A000", "DISTINCT"),
                Arguments.of("SELECT ?", "07001", "PreparedStatement"),
                Arguments.of("SELECT a FROM t WHERE a = ?", "07001", "parameter"),
                Arguments.of("", "42601", "empty statement"),
                Arguments.of("  ; -- nothing here", "42601", "empty statement"),
                Arguments.of("DROP VIEW nosuch", "42P01", "IF EXISTS"),
                Arguments.of("UPDATE t SET nope = 1", "42703", "nope"),
                Arguments.of("UPDATE t SET n = 'x' || n", "2", "'x"),
                Arguments.of("DELETE FROM t WHERE nope = 1", "42703", "nope"),
                Arguments.of("DELETE FROM sys.queries", "0A000", "read-only"),
                Arguments.of("ALTER TABLE t DROP COLUMN nope", "42703", "nope"),
                Arguments.of("SELECT 1 AS select", "42601", "quote it"),
                Arguments.of("SELECT a AS from FROM t", "42601", "quote it"),
                Arguments.of("CREATE TABLE t2 (a INT, a INT)", "42701", "twice"),
                Arguments.of("SELECT DATE '99999-01-01'", "22008", "9999"),
                Arguments.of("SELECT * FROM t LIMIT 999999999999999999999999999999", "22003", "out of range"),
                Arguments.of("CREATE TABLE sys.x (a INT)", "0A000", "system tables"),
                Arguments.of("DROP TABLE sys.nodes", "0A000", "system tables"),
                Arguments.of("CREATE TABLE nope.x (a INT)", "3F000", "nope"));
    }

    /** A Java class name in a message means an internal detail leaked to the user. */
    private static final java.util.regex.Pattern CLASS_NAME =
            java.util.regex.Pattern.compile("\\b(?:java|javax|org|com|io)\\.[a-z]+\\.[\\w.$]*[A-Z]");

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("badStatements")
    void failsWithSqlState(String sql, String state, String mentions) throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        });
        assertTrue(e.getSQLState() != null && e.getSQLState().startsWith(state),
                sql + " gave SQLSTATE " + e.getSQLState() + ": " + e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains(mentions.toLowerCase()),
                "message should mention '" + mentions + "': " + e.getMessage());
        assertFalse(CLASS_NAME.matcher(e.getMessage()).find(), "message names a Java class: " + e.getMessage());
        assertServerStillAnswers();
    }

    static Stream<Arguments> badInserts() {
        return Stream.of(
                Arguments.of("INSERT INTO t VALUES (4, 'not a number', 'z', NULL)", "2"),
                Arguments.of("INSERT INTO t VALUES (4, 1, 'z', NULL), (NULL, 2, 'w', NULL)", "23502"),
                Arguments.of("INSERT INTO t VALUES (4, 3000000000, 'z', NULL)", "22003"),
                Arguments.of("INSERT INTO t VALUES (4, 1, 'z', DATE '2020-02-30')", "22007"),
                Arguments.of("INSERT INTO t (a, n) SELECT a, CAST(a AS INTEGER) / 0 FROM t", "22012"),
                Arguments.of("INSERT INTO nowhere VALUES (1)", "42P01"),
                Arguments.of("INSERT INTO t VALUES (4, 1, 'z', NULL, 5)", "42601"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInserts")
    void failedInsertAddsNothing(String sql, String state) throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = conn.createStatement()) {
                s.executeUpdate(sql);
            }
        });
        assertTrue(e.getSQLState() != null && e.getSQLState().startsWith(state),
                sql + " gave SQLSTATE " + e.getSQLState() + ": " + e.getMessage());
        assertFalse(e.getMessage().isBlank());
        assertEquals(3, count("t"), "a failed INSERT must leave the table unchanged");
    }

    @Test
    void duplicateAndMissingTables() throws SQLException {
        try (Statement s = conn.createStatement()) {
            SQLException dup = assertThrows(SQLException.class, () -> s.execute("CREATE TABLE t (x INTEGER)"));
            assertEquals("42P07", dup.getSQLState());
            SQLException missing = assertThrows(SQLException.class, () -> s.execute("DROP TABLE nope"));
            assertEquals("42P01", missing.getSQLState());
            s.execute("DROP TABLE IF EXISTS nope");
        }
        assertEquals(3, count("t"));
    }

    /**
     * Statements nested deeper than a request thread's stack can plan run on the server's deep-stack statement
     * threads; each answers as its flat equivalent does.
     */
    @Test
    void deeplyNestedStatementsAnswer() throws SQLException {
        assertEquals(answer("SELECT COUNT(*) FROM t WHERE a > 1"),
                answer("SELECT COUNT(*) FROM t WHERE " + "NOT ".repeat(3000) + "(a > 1)"));
        String nested = "SELECT a FROM t";
        for (int i = 0; i < 500; i++) {
            nested = "SELECT * FROM (" + nested + ") q" + i;
        }
        assertEquals(answer("SELECT COUNT(*) FROM t"), answer("SELECT COUNT(*) FROM (" + nested + ") q"));
        assertEquals(answer("SELECT SUM(CASE WHEN a > 1 THEN 1 ELSE 0 END) FROM t"), answer("SELECT SUM("
                + "CASE WHEN a > 1 THEN ".repeat(200) + "1" + " ELSE 0 END".repeat(200) + ") FROM t"));
        // deeper CASE nesting is refused with the limit rather than planned for half a minute
        SQLException tooDeep = assertThrows(SQLException.class, () -> answer("SELECT SUM("
                + "CASE WHEN a > 1 THEN ".repeat(1000) + "1" + " ELSE 0 END".repeat(1000) + ") FROM t"));
        assertEquals("54001", tooDeep.getSQLState(), tooDeep.getMessage());
        assertTrue(tooDeep.getMessage().contains("256"), tooDeep.getMessage());
        StringBuilder ors = new StringBuilder("SELECT COUNT(*) FROM r WHERE a = -1");
        for (int i = 0; i < 5000; i++) {
            ors.append(" OR a = ").append(i * 7);
        }
        assertEquals(answer("SELECT COUNT(*) FROM r WHERE a >= 0 AND a < 35000 AND MOD(a, 7) = 0"),
                answer(ors.toString()));
    }

    private String answer(String sql) throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    private void assertServerStillAnswers() throws SQLException {
        assertEquals(3, count("t"));
    }

    private long count(String table) throws SQLException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
