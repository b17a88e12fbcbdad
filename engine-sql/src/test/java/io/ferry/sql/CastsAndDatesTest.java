package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CAST and TRY_CAST from text and between numbers, DATEDIFF, DATE_TRUNC and DATE_PART, each answered by Ferry and by
 * DuckDB on the same rows: texts in every form DuckDB reads (and some it does not), dates before 1970 and 1582, spans
 * running backwards. Every function is asked twice: alone, where Ferry's kernels run it ({@link #runsInFerry}), and
 * beside LPAD, which sends the whole projection to Calcite's row engine, whose answers must be the same.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CastsAndDatesTest {
    /** A projection with this falls back to Calcite's row engine (LPAD has no Ferry kernel yet). */
    private static final String ROW_ENGINE = ", LPAD(tag, 1, '-')";

    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        String[] texts = {"42", " 42 ", "\t-7\n", "+7", "3.5", "2.5", "-2.5", "0.5", "-0.5", "0.49999", "1e3", "1.5e1",
            "15e-1", "1.25e1", "-1.25e1", "1e-400", "1e400", "1_000", "1_000.5", "1__0", "_1", "1_", "0x1F", "0X10",
            "0b101", "-0x10", "0x", "0xFFFFFFFF", "2147483647", "2147483647.4", "2147483647.5", "-2147483648.4",
            "-2147483648.5", "9223372036854775807", "9223372036854775808", "-9223372036854775808", ".5", "5.", ".",
            "e3", "1e", "abc", "", "  ", "1,000", "1 2", "- 1", "inf", "-Infinity", "nan", "12.345", "123.45",
            "99.995", "true", "T", "yes", "n", "0", "1", "on", "2024-02-28", "2024-2-8", "2024/02/28",
            "2024-02-28 10:11:12", "2024-02-28T10:11:12.345", "2024-02-28 10:11", " 2024-02-28 ", "2024-02-30",
            "2023-02-29", "2024-02-28 24:00:00", "2024-02-28 10:60:00", "20240228", "1500-03-01", "0044-03-15",
            "2024-02-28 10", "2024-002-28", null};
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            rows.add("(" + i + ", " + (texts[i] == null ? "NULL" : "'" + texts[i] + "'") + ", 'x')");
        }
        String[] spans = {
            "DATE '2024-01-06', DATE '2024-01-08', TIMESTAMP '2020-01-01 23:59:59', TIMESTAMP '2020-01-02 00:00:01'",
            "DATE '2024-01-01', DATE '2024-01-14', TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-08 09:00:00'",
            "DATE '2024-01-14', DATE '2024-01-01', TIMESTAMP '2024-01-08 09:00:00', TIMESTAMP '2024-01-01 10:00:00'",
            "DATE '2020-12-31', DATE '2021-01-01', TIMESTAMP '2020-01-01 10:59:59.900', TIMESTAMP '2020-01-01 11:00:00.100'",
            "DATE '1969-12-25', DATE '1970-01-05', TIMESTAMP '1969-12-31 23:59:59.500', TIMESTAMP '1970-01-01 00:00:00'",
            "DATE '1500-03-01', DATE '2020-02-29', TIMESTAMP '1582-10-04 12:00:00', TIMESTAMP '1582-10-15 11:00:00'",
            "DATE '1999-12-31', DATE '1968-01-01', TIMESTAMP '2000-12-31 23:00:00', TIMESTAMP '1899-03-31 01:02:03.456'",
            "NULL, DATE '2020-01-01', NULL, TIMESTAMP '2020-01-01 00:00:00'"};
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE txt (id INTEGER, s VARCHAR, tag VARCHAR)");
                s.execute("INSERT INTO txt VALUES " + String.join(", ", rows));
                s.execute("CREATE TABLE num (id INTEGER, x DOUBLE, p DECIMAL(10, 3), v BIGINT, tag VARCHAR)");
                s.execute("INSERT INTO num VALUES (1, 2.5, 123.456, 3000000000, 'x'), (2, -2.5, 12.456, -2147483648, 'x'), "
                        + "(3, 3.5, 99.995, 2147483647, 'x'), (4, 0.5, -99.994, 2147483648, 'x'), "
                        + "(5, -0.5, -0.005, 7, 'x'), (6, 1e300, 0.004, -2147483649, 'x'), "
                        + "(7, 2147483647.4, 1.005, 0, 'x'), (8, 2147483647.5, NULL, NULL, 'x'), (9, NULL, 0, 1, 'x'), "
                        + "(10, 12.345, 2.5, 2, 'x'), (11, -9.5e18, 1.5, 3, 'x')");
                s.execute("CREATE TABLE span (id INTEGER, d1 DATE, d2 DATE, t1 TIMESTAMP, t2 TIMESTAMP, tag VARCHAR)");
                List<String> spanRows = new ArrayList<>();
                for (int i = 0; i < spans.length; i++) {
                    spanRows.add("(" + i + ", " + spans[i] + ", 'x')");
                }
                s.execute("INSERT INTO span VALUES " + String.join(", ", spanRows));
            }
        }
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> targets() {
        return Stream.of("INTEGER", "BIGINT", "DOUBLE", "DECIMAL(5, 2)", "DECIMAL(18, 3)", "BOOLEAN", "DATE",
                "TIMESTAMP");
    }

    /**
     * TRY_CAST of every text to every type: the value where DuckDB reads one, NULL where it does not. Ferry has no
     * infinite dates, which DuckDB reads from {@code inf}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void tryCastFromText(String type) throws SQLException {
        same("SELECT id, TRY_CAST(s AS " + type + ") FROM txt" + finite(type));
    }

    private static String finite(String type) {
        return type.equals("DATE") || type.equals("TIMESTAMP") ? " WHERE s IS NULL OR LOWER(s) NOT LIKE '%inf%'" : "";
    }

    /** CAST of the texts DuckDB reads gives the same values; of the others, an error with a SQLSTATE. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void castFromText(String type) throws SQLException {
        String finite = finite(type).isEmpty() ? "" : " AND LOWER(s) NOT LIKE '%inf%'";
        same("SELECT id, CAST(s AS " + type + ") FROM txt WHERE TRY_CAST(s AS " + type + ") IS NOT NULL" + finite);
        List<Integer> failing = new ArrayList<>();
        for (List<Object> row : ResultComparison.rows(duck, "SELECT id FROM txt WHERE s IS NOT NULL AND TRY_CAST(s AS "
                + type + ") IS NULL")) {
            failing.add(Integer.valueOf(row.get(0).toString()));
        }
        assertFalse(failing.isEmpty());
        for (int id : failing) {
            SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry,
                    "SELECT CAST(s AS " + type + ") FROM txt WHERE id = " + id));
            assertTrue(e.getSQLState().startsWith("22"), id + ": " + e.getSQLState() + " " + e.getMessage());
            assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        }
    }

    /** DOUBLE to integers rounds half to even, DECIMAL narrowing half away from zero; what overflows is NULL. */
    @Test
    void numericNarrowing() throws SQLException {
        same("SELECT id, TRY_CAST(x AS INTEGER), TRY_CAST(x AS BIGINT), TRY_CAST(x AS DECIMAL(4, 2)), "
                + "TRY_CAST(p AS DECIMAL(4, 2)), TRY_CAST(p AS INTEGER), TRY_CAST(v AS INTEGER), "
                + "TRY_CAST(p AS DECIMAL(18, 1)) FROM num");
        same("SELECT id, CAST(x AS INTEGER), CAST(p AS DECIMAL(5, 2)), CAST(p AS INTEGER) FROM num "
                + "WHERE ABS(x) < 1e9 AND x <> 2147483647.5");
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry,
                "SELECT CAST(v AS INTEGER) FROM num"));
        assertEquals("22003", e.getSQLState(), e.getMessage());
    }

    static Stream<String> units() {
        return Stream.of("year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond",
                "decade", "century", "millennium", "yr", "mons", "d", "h", "min", "s", "ms");
    }

    /** Boundaries crossed between two DATEs, two TIMESTAMPs and a DATE and a TIMESTAMP, both ways round. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void datediff(String unit) throws SQLException {
        for (String extra : List.of("", ROW_ENGINE)) {
            same("SELECT id, DATEDIFF('" + unit + "', d1, d2), DATEDIFF('" + unit + "', t1, t2), DATE_DIFF('" + unit
                    + "', t2, t1), DATEDIFF('" + unit + "', d1, t2)" + extra + " FROM span");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("units")
    void dateTrunc(String unit) throws SQLException {
        for (String extra : List.of("", ROW_ENGINE)) {
            same("SELECT id, DATE_TRUNC('" + unit + "', d1), DATE_TRUNC('" + unit + "', t1), DATE_TRUNC('" + unit
                    + "', t2)" + extra + " FROM span");
        }
    }

    static Stream<String> parts() {
        return Stream.concat(units(), Stream.of("dow", "isodow", "doy", "isoyear", "dayofweek", "weekday"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parts")
    void datePart(String unit) throws SQLException {
        for (String extra : List.of("", ROW_ENGINE)) {
            same("SELECT id, DATE_PART('" + unit + "', d1), DATE_PART('" + unit + "', t1), DATE_PART('" + unit
                    + "', t2)" + extra + " FROM span");
        }
    }

    /** EXTRACT with a keyword: DOW counts from Sunday = 0, as in DuckDB and PostgreSQL. */
    @Test
    void extract() throws SQLException {
        for (String extra : List.of("", ROW_ENGINE)) {
            same("SELECT id, EXTRACT(DOW FROM d1), EXTRACT(ISODOW FROM t1), EXTRACT(WEEK FROM d2), EXTRACT(DOY FROM t2), "
                    + "EXTRACT(ISOYEAR FROM d1), EXTRACT(MILLISECOND FROM t2), EXTRACT(CENTURY FROM d2)" + extra
                    + " FROM span");
        }
    }

    @Test
    void runsInFerry() throws SQLException {
        String plan = explain("SELECT DATEDIFF('week', d1, t2), DATE_TRUNC('week', d1), DATE_PART('dow', t1), "
                + "EXTRACT(WEEK FROM d1) FROM span");
        assertTrue(plan.contains("FerryProject") && !plan.contains("EnumerableCalc"), plan);
        plan = explain("SELECT TRY_CAST(s AS INTEGER) FROM txt");
        assertTrue(plan.contains("FerryProject") && !plan.contains("EnumerableCalc"), plan);
    }

    @Test
    void unknownUnits() throws SQLException {
        for (String sql : List.of("SELECT DATEDIFF('fortnight', d1, d2) FROM span",
                "SELECT DATE_TRUNC('dow', d1) FROM span", "SELECT DATE_PART('fortnight', d1) FROM span",
                "SELECT DATE_DIFF('doy', d1, d2) FROM span")) {
            SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql));
            assertEquals("22023", e.getSQLState(), sql + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("year, quarter, month, week, day"), e.getMessage());
        }
    }

    /** Beyond a DECIMAL's 18 digits a literal is a DOUBLE, not an error. */
    @Test
    void longLiterals() throws SQLException {
        same("SELECT 0.0026848210680345784 * 2, -123456789012345678.9, 9223372036854775807, 1 + 0.12345678901234567890");
    }

    private void same(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    private String explain(String sql) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
