package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * EXPLAIN ANALYZE runs its query and answers EXPLAIN's plan followed by the planning time, the execution time and the
 * rows; a query that fails fails it with the same SQLSTATE; cancel and timeout stop it; sys.queries holds it once.
 */
class ExplainAnalyzeTest {
    private static final String QUERY = "SELECT b, COUNT(*) AS n, SUM(a) AS s FROM t WHERE a > 100 GROUP BY b";
    /** A nested-loop join of 3000³ row combinations (RowEngineCancelTest): it would run for hours. */
    private static final String ENDLESS = "SELECT COUNT(*) FROM t x, t y, t z WHERE x.a + y.a > z.a * 2";
    private static FerryEngine engine;

    @BeforeAll
    static void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
            StringBuilder values = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < 3000; i++) {
                values.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'k").append(i % 37).append("')");
            }
            s.execute(values.toString());
            s.execute("CREATE TABLE u (a INTEGER)");
        }
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @Test
    void showsThePlanThenPlanningExecutionAndRows() throws SQLException {
        String explain = text("EXPLAIN PLAN FOR " + QUERY);
        String analyze = text("EXPLAIN ANALYZE " + QUERY);
        assertTrue(analyze.startsWith(explain), analyze);
        for (String operator : List.of("FerryAggregate", "FerryFilter", "FerryTableScan")) {
            assertTrue(analyze.contains(operator), analyze);
        }
        assertTrue(number(analyze, "Planning Time: ([0-9.]+) ms \\(planned now") > 0, analyze);
        assertTrue(number(analyze, "Execution Time: ([0-9.]+) ms") >= 0, analyze);
        assertEquals(count("SELECT COUNT(*) FROM (" + QUERY + ") AS q"), (long) number(analyze, "\nRows: ([0-9]+)$"),
                analyze);
    }

    @Test
    void answersAsExplainDoes() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement();
                ResultSet explain = s.executeQuery("EXPLAIN PLAN FOR " + QUERY)) {
            ResultSetMetaData want = explain.getMetaData();
            try (Statement s2 = c.createStatement(); ResultSet analyze = s2.executeQuery("EXPLAIN ANALYZE " + QUERY)) {
                ResultSetMetaData got = analyze.getMetaData();
                assertEquals(want.getColumnCount(), got.getColumnCount());
                assertEquals(want.getColumnLabel(1), got.getColumnLabel(1));
                assertEquals(want.getColumnType(1), got.getColumnType(1));
                assertEquals(want.getColumnTypeName(1), got.getColumnTypeName(1));
                assertEquals(want.isNullable(1), got.isNullable(1));
                assertTrue(analyze.next());
                assertTrue(!analyze.next(), "one row");
            }
        }
    }

    /** PostgreSQL's, DuckDB's and Trino's EXPLAIN without PLAN FOR shows the plan EXPLAIN PLAN FOR does. */
    @Test
    void explainAloneIsExplainPlanFor() throws SQLException {
        assertEquals(text("EXPLAIN PLAN FOR " + QUERY), text("EXPLAIN " + QUERY));
        assertEquals(text("EXPLAIN PLAN FOR " + QUERY), text(" -- the plan\n explain " + QUERY));
        long before = count("SELECT COUNT(*) FROM u");
        assertTrue(text("EXPLAIN INSERT INTO u VALUES (1)").contains("TableModify"));
        assertEquals(before, count("SELECT COUNT(*) FROM u"), "EXPLAIN only shows an INSERT");
        SQLException e = assertThrows(SQLException.class, () -> text("EXPLAIN SELECT nothing FROM t"));
        assertEquals("42703", e.getSQLState(), e.getMessage());
    }

    @Test
    void theWordsMayBeWrittenAnyWay() throws SQLException {
        String analyze = text("  /* why */ explain\n-- slow?\n analyse " + QUERY);
        assertTrue(analyze.contains("FerryAggregate"), analyze);
    }

    @Test
    void aFailingQueryFailsWithItsSqlState() {
        for (String bad : List.of("SELECT * FROM nowhere", "SELECT a FROM t WHERE", "SELECT nothing FROM t",
                "SELECT 1 / (a - a) FROM t")) {
            SQLException plain = assertThrows(SQLException.class, () -> text(bad));
            SQLException analyzed = assertThrows(SQLException.class, () -> text("EXPLAIN ANALYZE " + bad));
            assertEquals(plain.getSQLState(), analyzed.getSQLState(), analyzed.getMessage());
        }
        // the error's position is the one in the statement as written
        String bad = "EXPLAIN ANALYZE SELECT a FROM t WHERE";
        SQLException e = assertThrows(SQLException.class, () -> text(bad));
        assertTrue(e.getMessage().contains("column " + (bad.indexOf("WHERE") + 1)), e.getMessage());
    }

    /** Planned when prepared, run at each execution with that execution's parameters. */
    @Test
    void aPreparedStatementRunsWithItsParameters() throws SQLException {
        try (Connection c = engine.connect();
                PreparedStatement p = c.prepareStatement("EXPLAIN ANALYZE SELECT a FROM t WHERE a < ?")) {
            for (int limit : new int[] {10, 250}) {
                p.setInt(1, limit);
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(count("SELECT COUNT(*) FROM t WHERE a < " + limit),
                            (long) number(rs.getString(1), "\nRows: ([0-9]+)$"));
                }
            }
        }
    }

    @Test
    void ddlIsRefused() throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> text("EXPLAIN ANALYZE CREATE TABLE v (a INTEGER)"));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        assertEquals(0, count("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'v'"));
    }

    /** As in PostgreSQL, the statement runs: its changes are kept, and the count is of the rows it changed. */
    @Test
    void anInsertRunsAndCountsItsRows() throws SQLException {
        long before = count("SELECT COUNT(*) FROM u");
        String analyze = text("EXPLAIN ANALYZE INSERT INTO u SELECT a FROM t WHERE a < 7");
        assertTrue(analyze.contains("TableModify"), analyze);
        assertEquals(7, (long) number(analyze, "Rows Changed: ([0-9]+)"), analyze);
        assertEquals(before + 7, count("SELECT COUNT(*) FROM u"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTimeoutStopsIt() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeQuery("EXPLAIN ANALYZE " + ENDLESS).next());
            assertEquals("57014", e.getSQLState(), e.getMessage());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void cancelStopsIt() throws Exception {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            SQLException e = RunningStatements.cancelMidRun(engine, s, "EXPLAIN ANALYZE " + ENDLESS + " -- cancelled",
                    "-- cancelled");
            assertEquals("57014", e.getSQLState(), e.getMessage());
        }
    }

    @Test
    void sysQueriesHoldsItOnceWithItsPlanningTime() throws SQLException {
        String sql = "EXPLAIN ANALYZE " + QUERY + " ORDER BY b -- logged";
        String analyze = text(sql);
        double planning = number(analyze, "Planning Time: ([0-9.]+) ms");
        List<List<Object>> log;
        try (Connection c = engine.connect()) {
            log = ResultComparison.rows(c, "SELECT state, plan_cached, row_count, planning_ms FROM sys.queries "
                    + "WHERE statement = '" + sql.replace("'", "''") + "'");
        }
        assertEquals(1, log.size(), log.toString());
        assertEquals(List.of("finished", false, new java.math.BigDecimal(1)), log.get(0).subList(0, 3));
        assertEquals(planning, ((Number) log.get(0).get(3)).doubleValue(), 0.001);
    }

    private static String text(String sql) throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        return Double.parseDouble(m.group(1));
    }
}
