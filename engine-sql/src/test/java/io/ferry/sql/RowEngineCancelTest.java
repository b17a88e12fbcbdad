package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A join that runs in Calcite's row engine (a nested loop: no equality to hash on) stops on cancel and on timeout,
 * with 57014. Over 3000³ row combinations it would run for hours; the JUnit timeout only turns a regression into a
 * failure instead of a hung build.
 */
class RowEngineCancelTest {
    private static final String ENDLESS = "SELECT COUNT(*) FROM t x, t y, t z WHERE x.a + y.a > z.a * 2";
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
    void thePlanIsANestedLoopJoin() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + ENDLESS)) {
            assertTrue(rs.next());
            assertTrue(rs.getString(1).contains("EnumerableNestedLoopJoin"), rs.getString(1));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTimeoutStopsTheJoin() throws SQLException {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(ENDLESS).next());
            assertEquals("57014", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("timeout"), e.getMessage());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void cancelStopsTheJoin() throws Exception {
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            SQLException e = RunningStatements.cancelMidRun(engine, s, ENDLESS, "z.a * 2");
            assertEquals("57014", e.getSQLState(), e.getMessage());
        }
    }
}
