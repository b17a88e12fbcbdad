package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A join without an equality over 3000³ row combinations, which would run for hours, stops on cancel and on timeout
 * with 57014: in Calcite's row engine (a nested loop, above what only it runs: an interval cast to text) and
 * in Ferry's engine (a hash join on a constant key). The JUnit timeout only turns a regression into a failure
 * instead of a hung build.
 */
class RowEngineCancelTest {
    private static final String ENDLESS = "SELECT COUNT(*) FROM (SELECT a, CHAR_LENGTH(CAST(a * INTERVAL '1' DAY AS "
            + "VARCHAR)) AS w FROM t) x, t y, t z WHERE x.a + y.a > z.a * 2 AND x.w > 0";
    private static final String ENDLESS_IN_FERRY = "SELECT COUNT(*) FROM t x, t y, t z WHERE x.a + y.a > z.a * 2";
    private static FerryEngine engine;

    @BeforeAll
    static void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (a INTEGER)");
            s.execute("INSERT INTO t " + values(3000));
        }
    }

    private static String values(int n) {
        StringBuilder sb = new StringBuilder("VALUES ");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append('(').append(i).append(')');
        }
        return sb.toString();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @Test
    void thePlansAreANestedLoopJoinAndAFerryJoin() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            String rowEngine = ResultComparison.plan(c, ENDLESS);
            assertTrue(rowEngine.contains("EnumerableNestedLoopJoin"), rowEngine);
            String ferry = ResultComparison.plan(c, ENDLESS_IN_FERRY);
            assertTrue(ferry.contains("FerryJoin") && !ferry.contains("EnumerableNestedLoopJoin"), ferry);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {ENDLESS, ENDLESS_IN_FERRY})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTimeoutStopsTheJoin(String sql) throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(sql).next());
            assertEquals("57014", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("timeout"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {ENDLESS, ENDLESS_IN_FERRY})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void cancelStopsTheJoin(String sql) throws Exception {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            SQLException e = RunningStatements.cancelMidRun(engine, s, sql, "z.a * 2");
            assertEquals("57014", e.getSQLState(), e.getMessage());
        }
    }
}
