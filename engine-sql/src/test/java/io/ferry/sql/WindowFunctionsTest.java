package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
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
        WindowQueries.load(ferry, duck);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> queries() {
        return WindowQueries.queries().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void answersAsDuckDbInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains(" LIMIT "));
        assertWindowsInFerry(sql);
    }

    /**
     * SUM over BIGINTs is a DECIMAL(38, 0), exact past 64 bits in Ferry's window operator whatever the frame, as
     * DuckDB's HUGEINT; SUM over INTEGERs is a BIGINT that overflows as Ferry's aggregate does: 22003.
     */
    @Test
    void integerSumsPastSixtyFourBits() throws SQLException {
        String large = "(SELECT id, g, CASE WHEN id IN (9, 10) THEN 9000000000000000000 ELSE b END AS b FROM wn) t";
        for (String sql : new String[] {"SELECT id, SUM(b) OVER () FROM " + large,
                "SELECT id, SUM(b) OVER (PARTITION BY g ORDER BY id) FROM " + large,
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM " + large}) {
            assertWindowsInFerry(sql);
            ResultComparison.assertSameResult(ferry, duck, sql, false);
        }
    }

    /**
     * A RANGE frame whose ends count different units (months back, days ahead) runs in Ferry; Calcite's row engine,
     * where it ran before, summed the wrong rows (2e300 where DuckDB says -0.75) and failed on a nullable key.
     */
    @Test
    void rangeFramesInTwoUnits() throws SQLException {
        for (String key : List.of("d", "COALESCE(d, DATE '2000-01-01')")) {
            String sql = "SELECT id, SUM(x) OVER (ORDER BY " + key + " RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND "
                    + "INTERVAL '1' DAY FOLLOWING), COUNT(*) OVER (ORDER BY " + key + " RANGE BETWEEN INTERVAL '2' DAY "
                    + "PRECEDING AND INTERVAL '1' YEAR FOLLOWING EXCLUDE CURRENT ROW) FROM wn";
            ResultComparison.assertSameResult(ferry, duck, sql, false);
            assertWindowsInFerry(sql);
        }
    }

    /**
     * IGNORE NULLS on FIRST_VALUE, LAST_VALUE, NTH_VALUE, LAG and LEAD, in Ferry (Calcite's row engine failed LAG's
     * with XX000 "Unable to implement"). DuckDB writes it inside the call's parentheses.
     */
    @Test
    void valueFunctionsIgnoreNulls() throws SQLException {
        String[] calls = {"FIRST_VALUE(x)", "LAST_VALUE(b)", "NTH_VALUE(s, 2)", "LAG(p)", "LEAD(o, 2)", "LAG(d, 3, "
                + "DATE '2000-01-01')", "LEAD(b, id % 3 - 1, -7)", "LAG(s, g)",
            "LEAD(id, CASE WHEN id % 4 = 0 THEN NULL ELSE 1 END, -1)"};
        String[] windows = {"(ORDER BY id)", "(PARTITION BY g ORDER BY id DESC ROWS BETWEEN 2 PRECEDING AND 2 "
                + "FOLLOWING)", "(ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
            "(ORDER BY o, id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW)"};
        for (String window : windows) {
            StringBuilder ferrySql = new StringBuilder("SELECT id");
            StringBuilder duckSql = new StringBuilder("SELECT id");
            for (String call : calls) {
                if (call.startsWith("L") && window.contains("ROWS")) {
                    continue; // LAG and LEAD take no frame
                }
                ferrySql.append(", ").append(call).append(" IGNORE NULLS OVER ").append(window);
                duckSql.append(", ").append(call, 0, call.length() - 1).append(" IGNORE NULLS) OVER ").append(window);
            }
            String sql = ferrySql.append(" FROM wn").toString();
            ResultComparison.assertSameResult(ferry, sql, duck, duckSql.append(" FROM wn").toString(), false);
            assertWindowsInFerry(sql);
        }
    }

    /** Calcite's row engine ignores DISTINCT in a window aggregate (it counted 3 where DuckDB counts 1): refused. */
    @Test
    void distinctWindowAggregatesAreRefused() {
        for (String sql : new String[] {"SELECT id, COUNT(DISTINCT g) OVER (PARTITION BY b) FROM wn",
                "SELECT id, SUM(DISTINCT x) OVER (ORDER BY id) FROM wn"}) {
            SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql), sql);
            assertEquals("0A000", e.getSQLState(), sql);
            assertTrue(e.getMessage().contains("GROUP BY"), e.getMessage());
        }
    }

    /** Over a BIGINT key an offset beyond BIGINT could reach rows the largest BIGINT does not: refused, not XX000. */
    @Test
    void rangeOffsetsBeyondWhatKeysAreComparedWithAreRefused() {
        String sql = "SELECT id, COUNT(*) OVER (ORDER BY b RANGE BETWEEN 100000000000000000000 PRECEDING AND CURRENT "
                + "ROW) FROM wn";
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("UNBOUNDED PRECEDING"), e.getMessage());
    }

    /** LAG and LEAD count rows: an offset that is not a whole number is refused, as DuckDB refuses it. */
    @Test
    void shiftOffsetsAreWholeNumbers() {
        for (String sql : new String[] {"SELECT LAG(b, 2.5) OVER (ORDER BY id) FROM wn",
                "SELECT LEAD(s, x) OVER (ORDER BY id) FROM wn", "SELECT LAG(s, p, 'none') OVER (ORDER BY id) FROM wn"}) {
            SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql), sql);
            assertEquals("42804", e.getSQLState(), sql + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("must be a whole number"), e.getMessage());
        }
    }

    /**
     * Ordered outside the DISTINCT, the columns keep the names they have without the ORDER BY, two of one name too
     * (the outer query read them by name, and two items named g were ambiguous: 42702, fuzzer seed 154 q1446).
     */
    @Test
    void distinctRowsOrderedByAWindowKeepTheirColumns() throws SQLException {
        String select = "SELECT DISTINCT g, g, SUM(b) OVER (PARTITION BY g) AS s, MAX(s) OVER () FROM wn";
        String sql = select + " ORDER BY 3 NULLS FIRST, 1 NULLS FIRST";
        ResultComparison.assertSameResult(ferry, duck, sql, true);
        try (java.sql.Statement a = ferry.createStatement(); java.sql.Statement b = ferry.createStatement();
                java.sql.ResultSet ordered = a.executeQuery(sql); java.sql.ResultSet plain = b.executeQuery(select)) {
            for (int i = 1; i <= 4; i++) {
                assertEquals(plain.getMetaData().getColumnLabel(i), ordered.getMetaData().getColumnLabel(i));
                assertEquals(plain.getMetaData().getColumnType(i), ordered.getMetaData().getColumnType(i));
            }
        }
    }

    /** As in PostgreSQL, a SELECT DISTINCT cannot be ordered by what it does not select, windows or not. */
    @Test
    void distinctRowsAreOrderedOnlyByWhatTheySelect() {
        String sql = "SELECT DISTINCT g, SUM(b) OVER (PARTITION BY g) FROM wn ORDER BY s";
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql), sql);
        assertTrue(e.getSQLState().startsWith("42"), e.getSQLState());
        assertTrue(e.getMessage().contains("'s' is not in the select clause"), e.getMessage());
    }

    private void assertWindowsInFerry(String sql) throws SQLException {
        String plan = ResultComparison.plan(ferry, sql);
        assertTrue(plan.contains("FerryWindow"), plan);
        assertFalse(plan.contains("EnumerableWindow") || plan.contains("CheckedWindow")
                || plan.contains("EnumerableCalc"), plan);
    }
}
