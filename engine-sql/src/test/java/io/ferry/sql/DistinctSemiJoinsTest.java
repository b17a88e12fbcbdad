package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An inner join whose rows only decide which rows of one input go on, under DISTINCT, a GROUP BY without counting
 * calls or an IN, runs as a semi-join ({@code DistinctSemiJoins}), which stops at a row's first match that passes the
 * join's residual. The answers are DuckDB's — order lines joined with the other lines of their order (a key that
 * repeats a dozen times), NULL keys and NULL residual operands, either input kept — and the plans have the semi-joins
 * they should: none where the join's rows are counted or summed, or where the other input's key is unique.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistinctSemiJoinsTest {
    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        db.executeOnBoth(
                "CREATE TABLE lines (o INTEGER, wh INTEGER, amount DECIMAL(9, 2))",
                "CREATE TABLE returned (o INTEGER, reason VARCHAR)",
                "CREATE TABLE orders (o INTEGER NOT NULL, customer VARCHAR)",
                // 2,000 orders of 12 lines, mostly from one warehouse; some NULL orders and warehouses
                "INSERT INTO lines SELECT CASE WHEN i % 101 = 0 THEN NULL ELSE CAST((i - i % 12) / 12 AS INTEGER) END, "
                        + "CASE WHEN i % 53 = 0 THEN NULL WHEN i % 7 = 0 THEN CAST(i % 5 AS INTEGER) ELSE 1 END, "
                        + "CAST(i % 1000 AS DECIMAL(9, 2)) FROM generate_series(0, 23999) AS g(i)",
                "INSERT INTO returned SELECT CAST(i * 3 AS INTEGER), 'r' || CAST(i % 4 AS VARCHAR) "
                        + "FROM generate_series(0, 899) AS g(i)",
                "INSERT INTO orders SELECT CAST(i AS INTEGER), 'c' || CAST(i % 300 AS VARCHAR) "
                        + "FROM generate_series(0, 1999) AS g(i)");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                // the orders whose lines left more than one warehouse
                Arguments.of(1, "SELECT DISTINCT a.o FROM lines a JOIN lines b ON a.o = b.o AND a.wh <> b.wh"),
                Arguments.of(1, "SELECT a.o, MIN(a.amount), MAX(a.wh), COUNT(DISTINCT a.wh) FROM lines a, lines b "
                        + "WHERE a.o = b.o AND a.wh < b.wh GROUP BY a.o"),
                // the kept input on the right
                Arguments.of(1, "SELECT DISTINCT b.o, b.wh FROM lines a JOIN lines b ON a.o = b.o AND a.wh > b.wh"),
                // TPC-DS q95's shape: the pairs under an IN, and under a join under an IN
                Arguments.of(2, "WITH pairs AS (SELECT a.o, a.wh AS w1, b.wh AS w2 FROM lines a, lines b "
                        + "WHERE a.o = b.o AND a.wh <> b.wh) SELECT COUNT(*), SUM(l.amount) FROM lines l "
                        + "WHERE l.o IN (SELECT o FROM pairs) AND l.o IN (SELECT r.o FROM returned r, pairs p "
                        + "WHERE r.o = p.o)"),
                // rows counted or summed: the pairs stay
                Arguments.of(0, "SELECT a.o, COUNT(*) FROM lines a JOIN lines b ON a.o = b.o AND a.wh <> b.wh "
                        + "GROUP BY a.o"),
                Arguments.of(0, "SELECT a.o, SUM(a.amount) FROM lines a JOIN lines b ON a.o = b.o GROUP BY a.o"),
                // a window function above counts the pairs: the join stays (fuzzer,
                // seed 2712 query 569)
                Arguments.of(0, "SELECT DISTINCT COUNT(*) OVER (PARTITION BY a.wh) FROM lines a JOIN lines b "
                        + "ON a.o = b.o AND a.wh <> b.wh"),
                Arguments.of(0, "SELECT DISTINCT COUNT(*) OVER (PARTITION BY a.reason) FROM returned a JOIN "
                        + "returned b ON TRUE"),
                // a unique key on the other side: the join stays
                Arguments.of(0, "SELECT DISTINCT l.wh FROM lines l JOIN orders o ON l.o = o.o"));
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameAnswersAsDuckDb(int semiJoins, String sql) throws SQLException {
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
        assertEquals(semiJoins, ResultComparison.planCount(db.ferry(), sql, "joinType=[semi]"),
                "semi-joins in the plan of " + sql);
    }
}
