package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DECIMAL types and values up to 38 digits, as DuckDB types and computes them: expressions mixing DECIMALs of
 * different scales keep every fraction digit (the scale is never cut to make room for integral digits), SUM is a
 * DECIMAL(38), values past 18 digits (128-bit, {@code WideDecimal}) are stored, compared, grouped, joined, sorted,
 * summed, cast and computed exactly, and a value past its type's precision is an overflow, never a rounded answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecimalTypesTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        db.executeOnBoth(
                "CREATE TABLE m (id INTEGER, k INTEGER, p DECIMAL(18, 2), w DECIMAL(38, 10), "
                        + "q DECIMAL(30, 5))",
                // values of up to 18 digits, and sums and products that stay within 18
                "INSERT INTO m VALUES (1, 1, -801.06, 1234.0123456789, 1234567.12345), "
                        + "(2, 1, 3468.53, -0.0000000001, -0.5), (3, 2, NULL, NULL, NULL), "
                        + "(4, 2, 0.01, 9999.9999999999, 0), (5, 3, -0.01, 0, 12.34567), "
                        + "(6, 3, 9999.99, -1234.0123456789, 7.5)",
                // averages that are exactly a half at scale 2 (-1000.095, -1000.115), which a CAST rounds away from
                // zero only if the average was divided once (fuzzer, seed 54 query 2627)
                "CREATE TABLE av (g INTEGER, x DECIMAL(12, 2))",
                "INSERT INTO av VALUES (1, -1000.09), (1, -1000.09), (1, -1000.09), (1, -1000.09), (1, -1000.09), "
                        + "(1, -1000.12), (2, -1000.11), (2, -1000.11), (2, -1000.11), (2, -1000.11), "
                        + "(2, -1000.11), (2, -1000.14)");
        WideDecimalQueries.load(ferry, duck);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> queries() {
        return Stream.of(
                // a literal of a larger scale beside a DECIMAL(18, 2): DECIMAL(19, 3), not a cut DECIMAL(18, 2)
                "SELECT id, COALESCE(12.345, p), CASE WHEN k > 1 THEN p ELSE 0.001 END FROM m",
                "SELECT id, p * p, p * p * 0.5, p * q FROM m",
                "SELECT id FROM m WHERE (p * 0) IN (-0.001)",
                "SELECT id, p + w, w - q, q * 2 FROM m",
                "SELECT id FROM m WHERE w > 1234.01234567 AND w < 9999.99999999995",
                "SELECT SUM(p), SUM(w), SUM(q), MIN(w), MAX(q) FROM m",
                "SELECT k, SUM(p), SUM(p) = -0.001, SUM(0.0) IN (-0.001), AVG(w) FROM m GROUP BY k",
                "SELECT w, COUNT(*) FROM m GROUP BY w",
                "SELECT CAST(p AS DECIMAL(30, 5)), CAST(w AS DECIMAL(20, 2)), CAST(q AS DOUBLE) FROM m",
                "SELECT id, p FROM m UNION ALL SELECT id, w FROM m",
                "SELECT a.id, b.id FROM m a JOIN m b ON a.p = b.w",
                "SELECT g, CAST(AVG(x) AS DECIMAL(12, 2)), AVG(x) FROM av GROUP BY g");
    }

    static Stream<String> wideQueries() {
        return Stream.concat(WideDecimalQueries.queries().stream(),
                Stream.of("SELECT h.id, m.id FROM h JOIN m ON h.a = m.p"));
    }
    @ParameterizedTest(name = "{0}")
    @MethodSource("wideQueries")
    void wideValuesSameAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains(" LIMIT "));
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.replace("FerryToEnumerableConverter", "").contains("Enumerable"), "Calcite's row engine runs part of\n" + sql + "\n" + plan);
    }

    /**
     * CASTs to and from wide DECIMALs where Calcite's row engine computes them (above a nested-loop join), which
     * rounds with Ferry's kernel (FERRY_TO_DECIMAL): it took every DECIMAL for a 64-bit one, XX000 with a
     * ClassCastException for a wide target and "does not fit type DECIMAL(38, 4)" for any DECIMAL source (the
     * fuzzer's exact re-check of order-dependent sums found it).
     */
    @Test
    void wideCastsInTheRowEngine() throws SQLException {
        String sql = "SELECT x.id, y.id, CAST(CAST(x.c AS DOUBLE) * y.k AS DECIMAL(38, 9)), CAST(x.a AS DECIMAL(36, 1)), "
                + "CAST(x.c AS DECIMAL(20, 2)), CAST(x.b AS DECIMAL(25, 1)) FROM h x JOIN h y ON x.k < y.k";
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    /**
     * APPROX_SUM and APPROX_AVG of values past 18 digits (their moments taken in doubles): without a sample, the
     * estimates are the exact answers as doubles, grouped or not.
     */
    @Test
    void approximateSumsOfWideValues() throws SQLException {
        String sql = "SELECT g, APPROX_SUM(a), SUM(a), APPROX_AVG(b), AVG(b), APPROX_SUM(c), SUM(c) FROM hw GROUP BY g";
        List<List<Object>> rows = ResultComparison.rows(ferry, sql);
        assertEquals(20, rows.size());
        for (List<Object> row : rows) {
            for (int i = 1; i < row.size(); i += 2) {
                double estimate = ((Number) row.get(i)).doubleValue();
                double exact = ((Number) row.get(i + 1)).doubleValue();
                assertEquals(exact, estimate, Math.abs(exact) * 1e-12, sql + ": " + row);
            }
        }
        assertFalse(ResultComparison.plan(ferry, sql).replace("FerryToEnumerableConverter", "")
                .contains("Enumerable"), ResultComparison.plan(ferry, sql));
    }

    @Test
    void orderedByValuesPastEighteenDigits() throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, "SELECT id, a FROM h ORDER BY a DESC NULLS LAST, id", true);
        ResultComparison.assertSameResult(ferry, duck, "SELECT id, a FROM h ORDER BY a NULLS FIRST, id", true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void sameAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @Test
    void orderedByWideDecimal() throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, "SELECT id, w FROM m ORDER BY w DESC NULLS LAST, id", true);
    }

    /** Result types as DuckDB reports them: a SUM is DECIMAL(38, s), a common type keeps the larger scale. */
    @Test
    void typesAsDuckDb() throws SQLException {
        String sql = "SELECT SUM(p), COALESCE(12.345, p), w, CASE WHEN p > 0 THEN q ELSE w END FROM m GROUP BY p, q, w";
        try (Statement f = ferry.createStatement(); ResultSet rf = f.executeQuery(sql);
                Statement d = duck.createStatement(); ResultSet rd = d.executeQuery(sql)) {
            ResultSetMetaData mf = rf.getMetaData();
            ResultSetMetaData md = rd.getMetaData();
            for (int i = 1; i <= mf.getColumnCount(); i++) {
                assertEquals(md.getPrecision(i), mf.getPrecision(i), "precision of column " + i);
                assertEquals(md.getScale(i), mf.getScale(i), "scale of column " + i);
            }
        }
    }

    /** A value past its type's 38 digits fails with 22003 and a sentence; the table keeps its rows. */
    @Test
    void valuesBeyondTheirPrecisionAreOverflows() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            SQLException insert = assertThrows(SQLException.class,
                    () -> s.execute("INSERT INTO h VALUES (8, 4, 1234567890123456789012345678901234567.1, 0, 0, 0)"));
            assertEquals("22003", insert.getSQLState(), insert.getMessage());
            assertTrue(insert.getMessage().contains("DECIMAL(38, 2)"), insert.getMessage());
            for (String sql : List.of("SELECT a * 100000 FROM h", "SELECT CAST(b AS BIGINT) FROM h",
                    "SELECT CAST(a AS DECIMAL(20, 2)) FROM h", "SELECT SUM(ABS(a) * 4000) FROM h")) {
                SQLException e = assertThrows(SQLException.class, () -> {
                    try (ResultSet rs = s.executeQuery(sql)) {
                        while (rs.next()) {
                            rs.getObject(1);
                        }
                    }
                }, sql);
                assertEquals("22003", e.getSQLState(), sql + ": " + e.getMessage());
            }
        }
        // nothing was inserted: the table is DuckDB's, which never saw the statement
        ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*), SUM(a), SUM(b) FROM h", false);
    }

    @Test
    void typesBeyondTheLimitsAreRefused() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            for (String type : List.of("DECIMAL(39, 2)", "DECIMAL(38, 20)")) {
                SQLException e = assertThrows(SQLException.class,
                        () -> s.execute("CREATE TABLE wide (x " + type + ")"));
                assertEquals("0A000", e.getSQLState(), e.getMessage());
            }
        }
    }
}
