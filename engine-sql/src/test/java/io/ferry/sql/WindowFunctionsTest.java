package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Window functions in Ferry's window operator, each answered by Ferry and by DuckDB on the same rows: NULLs in
 * partition and order keys, peers (equal order keys, -0.0 beside 0.0), one-row partitions, an empty table, a few
 * thousand rows in hundreds of partitions, values of every physical kind; and windows under joins, over aggregates,
 * below ORDER BY ... LIMIT. Each plan computes its windows in Ferry, not in Calcite's row engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WindowFunctionsTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        db.executeOnBoth(
                "CREATE TABLE w (id INTEGER NOT NULL, g INTEGER, o INTEGER, b BIGINT, x DOUBLE, p DECIMAL(12, 2), "
                        + "d DATE, s VARCHAR)",
                "INSERT INTO w VALUES "
                        + "(1, 1, 10, 5, 1.5, 10.25, DATE '2024-01-01', 'b'), "
                        + "(2, 1, 10, -3, CAST('-0.0' AS DOUBLE), 3.10, DATE '2024-01-02', 'a'), "
                        + "(3, 1, 20, NULL, 0.0, NULL, NULL, NULL), "
                        + "(4, 1, NULL, 7, -2.25, -4.50, DATE '2023-12-31', 'zz'), "
                        + "(5, 2, 5, 100, NULL, 0.01, DATE '2024-02-29', 'Zürich'), "
                        + "(6, NULL, 1, 1, 3.0, 1.00, DATE '1999-12-31', 'x'), "
                        + "(7, NULL, 1, 2, 4.0, 2.00, DATE '2000-01-01', 'y'), "
                        + "(8, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
                        + "(9, 3, 7, 9000000000000000000, 1e300, 99999.99, DATE '1970-01-01', 'é'), "
                        + "(10, 3, 7, 8, -1e300, -99999.99, DATE '1969-12-31', 'e'), "
                        + "(11, 3, 8, -9, 1.0, 5.55, DATE '2024-03-01', 'E'), "
                        + "(12, 4, 0, 0, 0.0, 0.00, DATE '2024-01-01', ''), "
                        + "(13, 1, 20, 11, 0.5, 7.75, DATE '2024-01-05', 'c'), "
                        + "(14, 1, 10, 4, CAST('-0.0' AS DOUBLE), 1.00, DATE '2024-01-03', 'b')",
                "CREATE TABLE e (id INTEGER NOT NULL, g INTEGER, o INTEGER, b BIGINT)",
                // a few thousand rows in hundreds of partitions, with peers: every pair of rows of w, twelve times
                "CREATE TABLE big (id INTEGER NOT NULL, g INTEGER, o INTEGER, b BIGINT, x DOUBLE, s VARCHAR)",
                "INSERT INTO big SELECT u.id * 1000 + v.id * 10 + t.id, u.id * 20 + v.id, (u.id * 7 + t.id) % 5, "
                        + "u.id * v.id - t.id, CAST(t.id AS DOUBLE) / 4 - u.id, CAST(v.id + u.id AS VARCHAR) "
                        + "FROM w u, w v, w t WHERE t.id <= 12");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> queries() {
        return Stream.of(
                // ranking, with NULL partition keys, NULL and tied order keys, one-row partitions
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY o, id), RANK() OVER (PARTITION BY g ORDER BY o), "
                        + "DENSE_RANK() OVER (PARTITION BY g ORDER BY o DESC NULLS LAST) FROM w",
                "SELECT id, RANK() OVER (ORDER BY o NULLS FIRST), DENSE_RANK() OVER (ORDER BY o DESC NULLS LAST), "
                        + "ROW_NUMBER() OVER (ORDER BY id DESC) FROM w",
                "SELECT id, PERCENT_RANK() OVER (PARTITION BY g ORDER BY o), CUME_DIST() OVER (PARTITION BY g ORDER BY o)"
                        + ", PERCENT_RANK() OVER (ORDER BY s), CUME_DIST() OVER (ORDER BY x) FROM w",
                // -0.0 and 0.0 are peers, and one partition
                "SELECT id, RANK() OVER (ORDER BY x), DENSE_RANK() OVER (ORDER BY x DESC NULLS FIRST), COUNT(*) OVER (PARTITION BY x)"
                        + ", SUM(b) OVER (ORDER BY x) FROM w",
                // aggregates over the whole partition
                "SELECT id, SUM(b) OVER (PARTITION BY g), COUNT(*) OVER (PARTITION BY g), COUNT(x) OVER (PARTITION BY g)"
                        + ", AVG(x) OVER (PARTITION BY g), MIN(s) OVER (PARTITION BY g), MAX(d) OVER (PARTITION BY g), "
                        + "SUM(p) OVER (PARTITION BY g), AVG(p) OVER (PARTITION BY g), MIN(x) OVER (), MAX(p) OVER () "
                        + "FROM w",
                "SELECT id, AVG(b) OVER (), AVG(o) OVER (PARTITION BY g), SUM(o) OVER (PARTITION BY g) FROM w "
                        + "WHERE id <> 9",
                // the default frame with ORDER BY: peers share one value
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY o), COUNT(*) OVER (PARTITION BY g ORDER BY o), "
                        + "AVG(p) OVER (PARTITION BY g ORDER BY o DESC NULLS LAST), MIN(s) OVER (PARTITION BY g ORDER BY o), "
                        + "MAX(x) OVER (ORDER BY o NULLS FIRST), SUM(x) OVER (PARTITION BY g ORDER BY d) FROM w",
                // ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY o, id ROWS UNBOUNDED PRECEDING), "
                        + "COUNT(s) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), "
                        + "MAX(s) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING), "
                        + "SUM(p) OVER (PARTITION BY g ORDER BY id ROWS UNBOUNDED PRECEDING) FROM w",
                // sliding frames
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING), "
                        + "MIN(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), "
                        + "MAX(s) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW), "
                        + "COUNT(p) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), "
                        + "SUM(x) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING), "
                        + "AVG(p) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM w",
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                        + "MAX(d) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), "
                        + "COUNT(*) OVER (ORDER BY o RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), "
                        + "MIN(p) OVER (ORDER BY o RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM w",
                // value functions
                "SELECT id, LAG(b) OVER (PARTITION BY g ORDER BY id), LEAD(s, 2) OVER (ORDER BY id), "
                        + "LAG(x, 1, -1.5) OVER (ORDER BY id), LEAD(d, 1, DATE '2000-01-01') OVER (PARTITION BY g ORDER BY id), "
                        + "LAG(p, 3, 0.5) OVER (PARTITION BY g ORDER BY id), LEAD(s, 1, 'none') OVER (ORDER BY id DESC), "
                        + "LAG(b, 0) OVER (ORDER BY id) FROM w",
                "SELECT id, FIRST_VALUE(s) OVER (PARTITION BY g ORDER BY id), LAST_VALUE(b) OVER (PARTITION BY g ORDER BY o), "
                        + "FIRST_VALUE(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING), "
                        + "LAST_VALUE(p) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND "
                        + "UNBOUNDED FOLLOWING) FROM w",
                "SELECT id, NTILE(3) OVER (PARTITION BY g ORDER BY id), NTILE(5) OVER (ORDER BY id) FROM w",
                // several windows, different partitions, one SELECT; window values used in expressions
                "SELECT id, b - AVG(b) OVER (PARTITION BY g), SUM(o) OVER (PARTITION BY g) * 2, "
                        + "RANK() OVER (PARTITION BY s ORDER BY id) + ROW_NUMBER() OVER (ORDER BY id) FROM w",
                // empty input
                "SELECT id, ROW_NUMBER() OVER (ORDER BY id), SUM(b) OVER (PARTITION BY g), "
                        + "LAG(o) OVER (ORDER BY id) FROM e",
                "SELECT COUNT(*) OVER (), MAX(b) OVER (PARTITION BY g ORDER BY o) FROM w WHERE id < 0",
                // many partitions
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY o, id), RANK() OVER (PARTITION BY g ORDER BY o), "
                        + "SUM(b) OVER (PARTITION BY g ORDER BY o), AVG(x) OVER (PARTITION BY o), "
                        + "MAX(s) OVER (PARTITION BY g), SUM(x) OVER (PARTITION BY o ORDER BY id ROWS BETWEEN "
                        + "5 PRECEDING AND 5 FOLLOWING), LAG(id, 2) OVER (PARTITION BY g ORDER BY id) FROM big",
                // windows under joins, over aggregates, below ORDER BY ... LIMIT
                "SELECT a.id, c.id, RANK() OVER (PARTITION BY a.g ORDER BY c.b), SUM(c.p) OVER (PARTITION BY a.id) "
                        + "FROM w a JOIN w c ON a.g = c.g",
                "SELECT g, SUM(b), RANK() OVER (ORDER BY SUM(b) DESC), SUM(SUM(b)) OVER (), "
                        + "AVG(SUM(p)) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w GROUP BY g",
                "SELECT * FROM (SELECT g, o, SUM(b) AS total, RANK() OVER (PARTITION BY g ORDER BY SUM(b) DESC) AS r "
                        + "FROM big GROUP BY g, o) t WHERE r <= 2",
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY x DESC, id) FROM big ORDER BY id DESC LIMIT 20",
                "SELECT s, rk FROM (SELECT s, DENSE_RANK() OVER (ORDER BY SUM(b) DESC) AS rk FROM big GROUP BY s) t "
                        + "ORDER BY rk, s LIMIT 7");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void answersAsDuckDbInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains(" LIMIT "));
        assertWindowsInFerry(sql);
    }

    /** SUM over BIGINTs overflows as Ferry's aggregate does: 22003, whatever the frame. */
    @Test
    void integerSumsOverflow() throws SQLException {
        String large = "(SELECT id, g, CASE WHEN id IN (9, 10) THEN 9000000000000000000 ELSE b END AS b FROM w) t";
        for (String sql : new String[] {"SELECT SUM(b) OVER () FROM " + large,
                "SELECT SUM(b) OVER (PARTITION BY g ORDER BY id) FROM " + large,
                "SELECT SUM(b) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM " + large}) {
            assertWindowsInFerry(sql);
            SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql), sql);
            assertEquals("22003", e.getSQLState(), sql);
        }
    }

    /** A window Ferry does not compute stays in the row engine, and still answers. */
    @Test
    void whatFerryDoesNotRunStaysInTheRowEngine() throws SQLException {
        String sql = "SELECT id, SUM(x) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM w";
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        assertTrue(explain(sql).contains("Window"), explain(sql));
        assertFalse(explain(sql).contains("FerryWindow"), explain(sql));
    }

    private void assertWindowsInFerry(String sql) throws SQLException {
        String plan = explain(sql);
        assertTrue(plan.contains("FerryWindow"), plan);
        assertFalse(plan.contains("EnumerableWindow") || plan.contains("CheckedWindow")
                || plan.contains("EnumerableCalc"), plan);
    }

    private String explain(String sql) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
