package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ROUND, CEIL, FLOOR, SQRT, EXP, LN, LOG10, POWER, FLOOR/CEIL to a unit, LAST_DAY, DAYNAME, MONTHNAME and MySQL's
 * DATEDIFF(end, start) in Ferry's kernels: each answered by Ferry and by DuckDB on the same rows (NULLs, 0, -0.0,
 * negatives, NaN, infinities, values near the types' limits, halves, month ends, leap days, dates before 1582),
 * doubles equal to a relative 1e-12, each plan free of Calcite's row engine, and the errors bad arguments give.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MathFunctionsTest {
    private static final BigDecimal TOLERANCE = new BigDecimal("1e-12");
    /** The digits column's values, for DuckDB, whose DECIMAL ROUND takes only constant digits. */
    private static final List<Integer> DIGITS = List.of(1, -1, 0, 2, -2, 400, -400, 18, 3, -3, -5, 5, 4);

    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        db.executeOnBoth(
                "CREATE TABLE m (id INTEGER, k INTEGER, a INTEGER, b BIGINT, x DOUBLE, p DECIMAL(10, 3), "
                        + "n INTEGER, d DATE, e DATE, t TIMESTAMP)",
                "INSERT INTO m VALUES "
                        + "(1, 1, 3, 30000000000, 2.5, 12.345, 1, DATE '2024-01-31', DATE '2024-02-29', "
                        + "TIMESTAMP '2024-01-31 10:11:12.345'), "
                        + "(2, 1, -7, -15, -1.5, -7.891, -1, DATE '2024-02-29', DATE '2023-02-28', "
                        + "TIMESTAMP '2024-02-29 23:59:59.999'), "
                        + "(3, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
                        + "(4, 2, 0, 0, -0.0, 0, 0, DATE '1500-03-01', DATE '1499-12-31', "
                        + "TIMESTAMP '1969-12-31 23:59:59.5'), "
                        + "(5, 2, 15, 125, 1e300, -0.005, 2, DATE '1582-10-04', DATE '1582-10-15', "
                        + "TIMESTAMP '0900-02-28 12:00:00'), "
                        + "(6, 3, -25, 9000000000000000005, 0.285, 999999.999, -2, DATE '0900-02-28', "
                        + "DATE '2000-02-29', TIMESTAMP '2024-01-01 00:00:00'), "
                        + "(7, 3, 2147483644, -9000000000000000005, CAST('nan' AS DOUBLE), -999999.999, 400, "
                        + "DATE '2000-12-31', DATE '1969-12-31', TIMESTAMP '2023-12-31 00:00:00'), "
                        + "(8, 3, -2147483644, 1, CAST('inf' AS DOUBLE), 0.5, -400, DATE '1969-12-31', "
                        + "DATE '2024-03-01', TIMESTAMP '1582-10-15 00:00:00'), "
                        + "(9, 4, 25, -1, CAST('-inf' AS DOUBLE), -0.5, 18, DATE '2023-03-31', DATE '2023-03-31', "
                        + "TIMESTAMP '2100-02-28 12:00:00'), "
                        + "(10, 4, 5, 2, 1, 2.675, 3, DATE '2024-01-01', DATE '2024-12-31', "
                        + "TIMESTAMP '2024-03-31 23:00:00'), "
                        + "(11, 4, -5, 3, -1, -2.675, -3, DATE '2023-12-31', DATE '0001-01-01', "
                        + "TIMESTAMP '2023-12-31 23:59:59'), "
                        + "(12, 5, 1, 4, 0.49999999999999994, 1.005, -5, DATE '2024-12-31', DATE '2024-01-31', "
                        + "TIMESTAMP '1500-03-01 00:00:00.001'), "
                        + "(13, 5, -1, 5, 1.0049999999999999e7, -1.005, 5, DATE '1970-01-01', DATE '1970-01-02', "
                        + "TIMESTAMP '1970-01-01 00:00:00'), "
                        + "(14, 5, 2, 6, -2.5e-10, 7.5, 4, DATE '2024-02-28', DATE '2024-02-29', "
                        + "TIMESTAMP '2024-02-29 00:00:00')");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    /** Calls that read the same in Ferry and DuckDB. */
    static Stream<String> calls() {
        return Stream.of("ROUND(x)", "ROUND(x, 1)", "ROUND(x, 2)", "ROUND(x, -1)", "ROUND(x, 400)", "ROUND(x, -400)",
                "ROUND(x, 308)", "ROUND(x, -308)", "ROUND(x, n)", "ROUND(a)", "ROUND(a, -1)", "ROUND(a, 1)",
                "ROUND(b, -2)", "ROUND(b, 0)", "ROUND(p)", "ROUND(p, 1)", "ROUND(p, 2)", "ROUND(p, -1)", "ROUND(p, 5)",
                "CEIL(x)", "FLOOR(x)", "CEILING(x)", "CEIL(p)", "FLOOR(p)", "CEIL(a)", "FLOOR(b)", "CEIL(x * 1.0)",
                "SQRT(x)", "SQRT(p)", "SQRT(a)", "SQRT(-x)", "POWER(x, 0.25)", "EXP(x)", "EXP(p)", "EXP(-x)",
                "LN(ABS(x) + 1)", "LOG10(ABS(x) + 1)", "LN(ABS(p) + 0.5)", "LOG10(ABS(a) + 1)",
                "POWER(x, 2)", "POWER(x, -1)", "POWER(x, x)", "POWER(1, x)", "POWER(-1, x)",
                "POWER(x, 0)", "POWER(0, x)", "POWER(-8, x)", "POWER(a, n)", "POWER(p, 3)", "POW(x, 3)",
                "POWER(2, a)", "LAST_DAY(d)", "LAST_DAY(t)", "DAYNAME(d)", "DAYNAME(t)", "MONTHNAME(d)",
                "MONTHNAME(t)", "DATEDIFF('day', d, e)", "DATEDIFF('month', t, d)",
                // MOD of a DOUBLE is a DOUBLE with the dividend's sign (C's fmod); exact operands stay exact
                "MOD(x, 7)", "x % 2.5", "MOD(x, -0.75E0)", "MOD(a, 2.5E0)", "MOD(p, 0.5E0)", "MOD(-x, 1e300)",
                "MOD(a, 7)", "b % 7", "MOD(b, k)",
                // a DECIMAL dividend wider than the divisor: MOD(p, 1.2) is typed with the divisor's integral digits
                "MOD(p, 1.2)", "MOD(p * 100, 0.7)", "MOD(12.345, 1.2)");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void answersAsDuckDb(String call) throws SQLException {
        assertSame("SELECT id, " + call + " FROM m ORDER BY id", "SELECT id, " + call + " FROM m ORDER BY id");
    }

    /** DuckDB's DECIMAL ROUND takes constant digits only: a CASE over the digits column's values stands for it. */
    @Test
    void roundToDigitsOfAColumn() throws SQLException {
        String wide = "CAST(p AS DECIMAL(12, 3))";
        assertSame("SELECT id, ROUND(p, n), ROUND(" + wide + ", n) FROM m ORDER BY id",
                "SELECT id, " + roundByDigits("p") + ", " + roundByDigits(wide) + " FROM m ORDER BY id");
    }

    private static String roundByDigits(String value) {
        return DIGITS.stream().map(n -> "WHEN " + n + " THEN ROUND(" + value + ", " + n + ")")
                .collect(Collectors.joining(" ", "CASE n ", " END"));
    }

    /**
     * Calcite writes SQRT(x) as POWER(x, 0.5), so Ferry computes every POWER(x, 0.5) as DuckDB's SQRT: NaN for -inf,
     * where DuckDB's POWER(-inf, 0.5) is inf.
     */
    @Test
    void powerOfOneHalfIsSquareRoot() throws SQLException {
        assertSame("SELECT id, POWER(x, 0.5), POWER(p, 0.5E0) FROM m ORDER BY id",
                "SELECT id, SQRT(x), SQRT(p) FROM m ORDER BY id");
    }

    @Test
    void roundOfACastStaysInFerry() throws SQLException {
        String sql = "SELECT id, ROUND(CAST(x AS DECIMAL(10, 2)), 1) FROM m WHERE ABS(x) < 1e6 ORDER BY id";
        assertSame(sql, sql);
    }

    /**
     * Calcite's FLOOR(x TO unit) and CEIL(x TO unit) against DuckDB's DATE_TRUNC (weeks from Sunday, as Calcite
     * counts them): a DATE stays a DATE, a TIMESTAMP a TIMESTAMP; CEIL of a unit's start is itself.
     */
    @Test
    void floorAndCeilToAUnit() throws SQLException {
        for (String unit : List.of("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND")) {
            for (String column : List.of("d", "t")) {
                String floor = unit.equals("WEEK")
                        ? "(DATE_TRUNC('week', " + column + " + INTERVAL 1 DAY) - INTERVAL 1 DAY)"
                        : "DATE_TRUNC('" + unit + "', " + column + ")";
                String ceil = "CASE WHEN " + floor + " = " + column + " THEN " + floor + " ELSE " + floor
                        + " + INTERVAL 1 " + unit + " END";
                String type = column.equals("d") ? "DATE" : "TIMESTAMP";
                assertSame("SELECT id, FLOOR(" + column + " TO " + unit + "), CEIL(" + column + " TO " + unit
                        + ") FROM m ORDER BY id", "SELECT id, CAST(" + floor + " AS " + type + "), CAST(" + ceil
                        + " AS " + type + ") FROM m ORDER BY id");
            }
        }
    }

    /** MySQL's DATEDIFF(end, start) is DuckDB's DATE_DIFF('day', start, end): calendar days, whatever the time. */
    @Test
    void mysqlDateDiff() throws SQLException {
        assertSame("SELECT id, DATEDIFF(e, d), DATEDIFF(t, d), DATEDIFF(d, t) FROM m ORDER BY id",
                "SELECT id, DATE_DIFF('day', d, e), DATE_DIFF('day', d, t), DATE_DIFF('day', t, d) FROM m ORDER BY id");
    }

    /** Calcite computes STDDEV as POWER(variance, 0.5) in a projection above the aggregate, now Ferry's. */
    @Test
    void standardDeviations() throws SQLException {
        assertSame("SELECT k, STDDEV(a), STDDEV_POP(p), STDDEV_SAMP(b) FROM m GROUP BY k ORDER BY k",
                "SELECT k, STDDEV(a), STDDEV_POP(p), STDDEV_SAMP(b) FROM m GROUP BY k ORDER BY k");
    }

    /**
     * Folded while planning by the same kernels, so constants agree with columns. ROUND keeps its argument's type, as
     * Calcite types it: DECIMAL(4, 3), so -2.680.
     */
    @Test
    void constants() throws SQLException {
        assertEquals(List.of(List.of("2024-01-28T00:00", "2024-04-01", "2024-02-29", new BigDecimal("3.0"),
                new BigDecimal("-3.0"), new BigDecimal("29"), "Thursday", new BigDecimal("-2.680"))),
                ResultComparison.rows(ferry, "SELECT FLOOR(TIMESTAMP '2024-01-31 10:00:00' TO WEEK), "
                        + "CEIL(DATE '2024-01-31' TO QUARTER), LAST_DAY(DATE '2024-02-10'), ROUND(2.5E0), "
                        + "ROUND(-2.5E0), DATEDIFF(DATE '2024-03-01', DATE '2024-02-01'), DAYNAME(DATE '2024-02-29'), "
                        + "ROUND(-2.675, 2)"));
    }

    /**
     * Remainders of DOUBLEs that Calcite's MOD, which cast them to DECIMAL(18, 15), got wrong or refused: computed in
     * a join without an equality too (Ferry's hash join on a constant key), and folded as constants.
     */
    @Test
    void remaindersOfDoubles() throws SQLException {
        String sql = "SELECT MOD(1234.5E0, 7), 1234.5E0 % -7, MOD(-1234.5E0, 7), MOD(0.1E0, 0.03E0), MOD(7, 2.5E0), "
                + "MOD(1e300, 3.7E0)";
        ResultComparison.assertSameResult(ferry, duck, sql, true);
        ResultComparison.assertSameResult(ferry, duck, "SELECT a.id, b.id, MOD(a.x, b.a + 0.5E0), a.p % b.x, "
                + "MOD(a.b, b.k) FROM m a JOIN m b ON a.id < b.id AND b.id < 4 WHERE b.x <> 0", false);
    }

    /** Bad arguments: an SQLSTATE and a sentence, no Java class names. */
    @Test
    void badArguments() throws SQLException {
        for (String[] c : List.of(new String[] {"LN(x) FROM m", "2201E"}, new String[] {"LOG10(a) FROM m", "2201E"},
                new String[] {"LN(0) FROM m", "2201E"},
                new String[] {"ROUND(a + 2147483000, -3) FROM m WHERE id = 7", "22003"},
                new String[] {"ROUND(b + 223372036854775800, -1) FROM m WHERE id = 6", "22003"},
                new String[] {"ROUND(CAST(p AS DECIMAL(9, 3)), -6) FROM m", "22003"},
                new String[] {"CEIL(TIMESTAMP '9999-12-31 12:00:00' TO DAY) FROM m", "22008"},
                new String[] {"CEIL(CAST(t AS TIMESTAMP) + INTERVAL '7975' YEAR TO YEAR) FROM m WHERE id = 9",
                        "22008"},
                new String[] {"MOD(x, a) FROM m WHERE id = 4", "22012"}, new String[] {"MOD(1234.5E0, 0) FROM m",
                        "22012"}, new String[] {"MOD(7, 0.0E0)", "22012"})) {
            SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, "SELECT " + c[0]),
                    c[0]);
            assertEquals(c[1], e.getSQLState(), c[0] + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        }
    }

    /** Both answers in order, numbers equal to a relative 1e-12, and Ferry's plan without Calcite's row engine. */
    private void assertSame(String ferrySql, String duckSql) throws SQLException {
        List<List<Object>> expected;
        try {
            expected = ResultComparison.rows(duck, duckSql);
        } catch (SQLException e) {
            throw new AssertionError("DuckDB rejected the test query (fix the test): " + duckSql, e);
        }
        List<List<Object>> actual = ResultComparison.rows(ferry, ferrySql);
        assertEquals(expected.size(), actual.size(), ferrySql);
        for (int r = 0; r < expected.size(); r++) {
            for (int i = 0; i < expected.get(r).size(); i++) {
                Object x = expected.get(r).get(i);
                Object y = actual.get(r).get(i);
                boolean equal = x instanceof BigDecimal bx && y instanceof BigDecimal by
                        ? bx.subtract(by).abs().compareTo(bx.abs().max(by.abs()).multiply(TOLERANCE)) <= 0
                        : x == null ? y == null : x.equals(y);
                if (!equal) {
                    fail(ferrySql + "\nrow " + r + ": DuckDB " + expected.get(r) + ", Ferry " + actual.get(r));
                }
            }
        }
        String plan = explain(ferrySql);
        assertTrue(plan.contains("Ferry") && !plan.contains("EnumerableCalc"), plan);
    }

    private String explain(String sql) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
