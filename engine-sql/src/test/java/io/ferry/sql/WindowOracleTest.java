package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Window functions (run by Calcite's row engine under Ferry's rewrites) answered by Ferry and by DuckDB on the same
 * rows: the shapes the fuzzer's windows family found wrong, and the functions and frames it generates.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WindowOracleTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void load() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        exec("CREATE TABLE w (id INTEGER NOT NULL, k INTEGER, b BIGINT, d DOUBLE, s VARCHAR)");
        // k = 1 sums past the largest BIGINT, k = 2 past the smallest; -0.0 and 0.0 in d
        exec("INSERT INTO w VALUES (1, 1, 9223372036854775807, CAST('-0.0' AS DOUBLE), 'a'), (2, 1, 5, 0.0, 'b'), "
                + "(3, 2, -9223372036854775807, 1.5, NULL), (4, 2, -5, 0.0, 'c'), (5, NULL, NULL, NULL, 'd'), "
                + "(6, 3, 7, CAST('-0.0' AS DOUBLE), 'e')");
        exec("CREATE TABLE r (id INTEGER NOT NULL, k INTEGER, v BIGINT, d DOUBLE, s VARCHAR)");
        Random rnd = new Random(15);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            rows.add("(" + i + ", " + (rnd.nextInt(8) == 0 ? "NULL" : rnd.nextInt(9)) + ", "
                    + (rnd.nextInt(10) == 0 ? "NULL" : rnd.nextInt(2000) - 1000) + ", "
                    + (rnd.nextInt(10) == 0 ? "NULL" : rnd.nextInt(50) / 4.0) + ", "
                    + (rnd.nextInt(10) == 0 ? "NULL" : "'w" + rnd.nextInt(30) + "'") + ")");
        }
        exec("INSERT INTO r VALUES " + String.join(", ", rows));
    }

    private void exec(String sql) throws SQLException {
        try (Statement a = ferry.createStatement(); Statement b = duck.createStatement()) {
            a.execute(sql);
            b.execute(sql);
        }
    }

    @AfterAll
    void close() throws Exception {
        ferry.close();
        duck.close();
        engine.close();
    }

    static Stream<String> unordered() {
        return Stream.of(
                // integer sums that fit, in frames that keep them in range
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM w",
                "SELECT id, SUM(b) OVER (PARTITION BY k ORDER BY id), AVG(b) OVER (PARTITION BY k ORDER BY id) "
                        + "FROM w WHERE id <> 1 AND id <> 3",
                "SELECT id, SUM(k) OVER (PARTITION BY s), SUM(v) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND "
                        + "CURRENT ROW), AVG(v) OVER (PARTITION BY k ORDER BY id ROWS UNBOUNDED PRECEDING) FROM r",
                // MIN/MAX of a NULL literal is NULL, not a planner error
                "SELECT id, MIN(CAST(NULL AS DOUBLE)) OVER (), MAX(CAST(NULL AS INTEGER)) OVER (PARTITION BY k), "
                        + "MIN(CAST(NULL AS VARCHAR)) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM w",
                // MIN/MAX of another literal is the literal, also where the frame can be empty
                "SELECT id, MAX(TIMESTAMP '2999-12-31 23:59:59') OVER (), MIN('x') OVER (PARTITION BY k ORDER BY id), "
                        + "MIN(1.5) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING) FROM w",
                // -0.0 and 0.0 are one partition and tie in RANK, also where the row engine computed them
                "SELECT id, COUNT(*) OVER (PARTITION BY d), RANK() OVER (ORDER BY d NULLS FIRST), "
                        + "DENSE_RANK() OVER (ORDER BY -d DESC NULLS LAST) FROM w",
                "SELECT id, RANK() OVER (ORDER BY x NULLS FIRST), DENSE_RANK() OVER (ORDER BY x DESC NULLS LAST), "
                        + "COUNT(*) OVER (PARTITION BY x) FROM (SELECT id, CASE WHEN id = 2 THEN m ELSE -m END AS x "
                        + "FROM (SELECT id, MIN(d) OVER (PARTITION BY id) AS m FROM w))",
                // NTILE: larger buckets first, one row per bucket when there are fewer rows than buckets
                "SELECT id, NTILE(7) OVER (PARTITION BY k ORDER BY id), NTILE(3) OVER (ORDER BY v NULLS FIRST, id), "
                        + "NTILE(1) OVER (PARTITION BY s ORDER BY id DESC) FROM r",
                "SELECT id, NTILE(4) OVER (ORDER BY id), NTILE(10) OVER (PARTITION BY k ORDER BY id) FROM w",
                // the fuzzer's other functions and frames, under a total order where ties would decide
                "SELECT id, DENSE_RANK() OVER (PARTITION BY k ORDER BY d NULLS LAST), "
                        + "RANK() OVER (ORDER BY s NULLS FIRST, k NULLS LAST) FROM r",
                "SELECT id, LAG(s) OVER (PARTITION BY k ORDER BY id), LEAD(d, 2) OVER (ORDER BY v NULLS LAST, id), "
                        + "LAG(k, 3, 42) OVER (ORDER BY id), LEAD(s, 1, 'none') OVER (PARTITION BY k ORDER BY id DESC) "
                        + "FROM r",
                "SELECT id, FIRST_VALUE(s) OVER (PARTITION BY k ORDER BY id), FIRST_VALUE(d) OVER (ORDER BY id "
                        + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), FIRST_VALUE(v) OVER (PARTITION BY s ORDER BY id "
                        + "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM r",
                "SELECT id, MIN(s) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING), MAX(d) OVER (PARTITION BY k "
                        + "ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), COUNT(*) OVER (ORDER BY id ROWS "
                        + "BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), AVG(d) OVER (PARTITION BY k) FROM r");
    }

    static Stream<String> ordered() {
        return Stream.of(
                // an ORDER BY over the row engine's -0.0 and 0.0 ties them, and the next key decides
                "SELECT id, CASE WHEN id = 2 THEN m ELSE -m END AS x FROM (SELECT id, MIN(d) OVER (PARTITION BY id) "
                        + "AS m FROM w) ORDER BY x NULLS FIRST, id DESC",
                "SELECT id, -(MAX(d) OVER (PARTITION BY id)) * CASE WHEN id > 3 THEN -1 ELSE 1 END AS x FROM w "
                        + "ORDER BY x NULLS LAST, id DESC LIMIT 4",
                "SELECT id, d, RANK() OVER (ORDER BY d NULLS FIRST) FROM w ORDER BY d NULLS FIRST, id DESC");
    }

    @ParameterizedTest
    @MethodSource("unordered")
    void sameRowsAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("ordered")
    void sameOrderedRowsAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, true);
    }

    /**
     * A windowed integer SUM (or AVG, which sums) past the BIGINT range fails with 22003, as Ferry's own SUM does,
     * where it wrapped: DuckDB, summing in HUGEINT, shows the answer is out of range.
     */
    @ParameterizedTest
    @MethodSource("overflowing")
    void aWindowedSumPastBigintFails(String sql) throws SQLException {
        BigDecimal largest = BigDecimal.ZERO;
        for (List<Object> row : ResultComparison.rows(duck, sql)) {
            if (row.get(1) != null) {
                largest = largest.max(new BigDecimal(row.get(1).toString()).abs());
            }
        }
        assertTrue(largest.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0, "the test sums past BIGINT: " + sql);
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql), sql);
        assertEquals("22003", e.getSQLState(), e.getMessage());
    }

    static Stream<String> overflowing() {
        return Stream.of(
                "SELECT id, SUM(b) OVER (PARTITION BY k) FROM w",
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w",
                "SELECT id, SUM(CAST('9223372036854775807' AS BIGINT)) OVER () FROM w",
                "SELECT id, SUM(b) OVER (PARTITION BY k ORDER BY id ROWS UNBOUNDED PRECEDING) FROM w");
    }
}
