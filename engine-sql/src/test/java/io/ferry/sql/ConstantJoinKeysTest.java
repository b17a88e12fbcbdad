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
 * A join key one input holds constant filters the other input's key too ({@code ConstantJoinKeysRule}), where that
 * input's rows are dropped when they match none: both inputs of an inner join, the right of a LEFT, semi- or
 * anti-join, the left of a RIGHT join; never the side an outer join keeps. The answers are DuckDB's (NULL keys and
 * years, unmatched rows on every side) and the plans filter the year (1999) where they should: TPC-DS q78's
 * shape, three channels' yearly aggregates joined on the year of one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConstantJoinKeysTest {
    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        db.executeOnBoth(
                "CREATE TABLE s (y INTEGER, item INTEGER, qty INTEGER)",
                "CREATE TABLE w (y INTEGER, item INTEGER, qty INTEGER)",
                "INSERT INTO s SELECT CASE WHEN i % 37 = 0 THEN NULL ELSE CAST(1997 + i % 5 AS INTEGER) END, "
                        + "CAST(i % 50 AS INTEGER), CAST(i % 7 AS INTEGER) FROM generate_series(0, 4999) AS g(i)",
                "INSERT INTO w SELECT CASE WHEN i % 41 = 0 THEN NULL ELSE CAST(1996 + i % 4 AS INTEGER) END, "
                        + "CAST(i % 60 AS INTEGER), CAST(i % 9 AS INTEGER) FROM generate_series(0, 2999) AS g(i)");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<Arguments> queries() {
        String ss = "(SELECT y, item, SUM(qty) AS q FROM s GROUP BY y, item)";
        String ws = "(SELECT y, item, SUM(qty) AS q FROM w GROUP BY y, item)";
        return Stream.of(
                // the constant reaches the other aggregate's input
                Arguments.of(2, "SELECT a.item, a.q, b.q FROM " + ss + " a JOIN " + ws + " b ON a.y = b.y "
                        + "AND a.item = b.item WHERE a.y = 1999"),
                Arguments.of(2, "SELECT a.item, a.q, b.q FROM " + ss + " a LEFT JOIN " + ws + " b ON a.y = b.y "
                        + "AND a.item = b.item WHERE a.y = 1999"),
                Arguments.of(2, "SELECT a.item, a.q, b.q FROM " + ws + " b RIGHT JOIN " + ss + " a ON a.y = b.y "
                        + "AND a.item = b.item WHERE a.y = 1999"),
                Arguments.of(2, "SELECT a.item, a.q FROM " + ss + " a WHERE a.y = 1999 AND NOT EXISTS (SELECT 1 FROM w "
                        + "WHERE w.y = a.y AND w.item = a.item AND w.qty > 7)"),
                // the kept side of an outer join is not filtered by the other's constant
                Arguments.of(1, "SELECT a.y, a.item, a.q, b.q FROM " + ss + " a LEFT JOIN (SELECT y, item, SUM(qty) AS q "
                        + "FROM w WHERE y = 1999 GROUP BY y, item) b ON a.y = b.y AND a.item = b.item"),
                // (the FULL join is a LEFT join and an anti-join of w's rows: its filter twice, s's never)
                Arguments.of(2, "SELECT a.y, a.item, a.q, b.qty FROM " + ss + " a FULL JOIN (SELECT * FROM w WHERE y = 1999) b "
                        + "ON a.y = b.y AND a.item = b.item"));
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameAnswersAsDuckDb(int comparisons, String sql) throws SQLException {
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
        assertEquals(comparisons, ResultComparison.planCount(db.ferry(), sql, "=($0, 1999)"),
                "filters of the year in the plan of " + sql);
    }
}
