package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SUM over integers where Calcite's row engine aggregates (here, above an expression Ferry's engine does not run, an
 * interval cast to text, and a join): the same sums as DuckDB, a SUM of BIGINTs exact past 64 bits (a DECIMAL(38, 0),
 * as DuckDB's HUGEINT), never a wrapped value.
 */
class RowEngineSumTest {
    /** Table t with a column the row engine computes, so that what reads it runs there too. */
    private static final String A = "(SELECT * FROM (SELECT *, CHAR_LENGTH(CAST(COALESCE(i, 0) * INTERVAL '1' DAY "
            + "AS VARCHAR)) AS w FROM t) WHERE w > 0) a";

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
        "SELECT a.g, SUM(a.i), SUM(b.i), COUNT(*) FROM " + A + " JOIN t b ON a.i <= b.i GROUP BY a.g",
        "SELECT SUM(a.i) FROM " + A + " JOIN t b ON a.i < b.i WHERE a.i > 100",
        "SELECT a.g, SUM(DISTINCT b.i) FROM " + A + " JOIN t b ON a.g <> b.g GROUP BY a.g",
        "SELECT SUM(b.eb) FROM " + A + " JOIN t b ON a.i > b.i WHERE b.eb < 100"})
    void sumsAgreeWithDuckDb(String sql) throws SQLException {
        assertAggregatedInRowEngine(sql);
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    /**
     * A SUM of BIGINTs is a DECIMAL(38, 0) (PostgreSQL's numeric, DuckDB's HUGEINT), summed exactly by the row engine
     * too ({@code CheckedSums.WideSum}), where it had wrapped and then failed with 22003 past 64 bits.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT SUM(a.eb) FROM " + A + " JOIN t b ON a.i < b.i",
        "SELECT a.g, SUM(b.eb) FROM " + A + " JOIN t b ON a.i <> b.i GROUP BY a.g"})
    void aSumOfBigintsPastSixtyFourBitsIsExact(String sql) throws SQLException {
        assertAggregatedInRowEngine(sql);
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    /** An INTEGER's SUM is a BIGINT, which fails with 22003 past 64 bits rather than wrap. */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT SUM(CAST(a.eb / 4 AS INTEGER)) FROM " + A + " JOIN t b ON a.i < b.i WHERE a.eb < 100"})
    void anIntegerSumStaysChecked(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    private static void assertAggregatedInRowEngine(String sql) throws SQLException {
        String plan = ResultComparison.plan(ferry, sql);
        assertTrue(plan.contains("EnumerableAggregate"), "aggregated in the row engine: " + plan);
    }
}
