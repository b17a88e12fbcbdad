package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SUM over integers where Calcite's row engine aggregates (here, above a nested-loop join): the same sums as DuckDB,
 * and 22003 where the sum leaves BIGINT instead of a wrapped value (DuckDB widens to HUGEINT, which Ferry lacks).
 */
class RowEngineSumTest {
    private static FerryEngine engine;
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (eb BIGINT, i INTEGER, g INTEGER)");
                s.execute("INSERT INTO t VALUES (9223372036854775807, 1, 1), (1, NULL, 1), (NULL, 2, 2), "
                        + "(-5, 7, 2), (12, -3, NULL)");
            }
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        ferry.close();
        duck.close();
        engine.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT a.g, SUM(a.i), SUM(b.i), COUNT(*) FROM t a JOIN t b ON a.i <= b.i GROUP BY a.g",
        "SELECT SUM(a.i) FROM t a JOIN t b ON a.i < b.i WHERE a.i > 100",
        "SELECT a.g, SUM(DISTINCT b.i) FROM t a JOIN t b ON a.g <> b.g GROUP BY a.g",
        "SELECT SUM(b.eb) FROM t a JOIN t b ON a.i > b.i WHERE b.eb < 100"})
    void sumsAgreeWithDuckDb(String sql) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            rs.next();
            assertTrue(rs.getString(1).contains("EnumerableAggregate"), "aggregated in the row engine: "
                    + rs.getString(1));
        }
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT SUM(a.eb) FROM t a JOIN t b ON a.i < b.i",
        "SELECT a.g, SUM(b.eb) FROM t a JOIN t b ON a.i <> b.i GROUP BY a.g"})
    void anOverflowIsAnErrorNotAWrappedSum(String sql) {
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        });
        assertEquals("22003", e.getSQLState(), e.getMessage());
    }
}
