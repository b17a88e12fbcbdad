package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
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
 * Functions from Calcite's standard, PostgreSQL and MySQL libraries that Ferry enables, each called on the same rows
 * (NULLs, empty and non-ASCII strings, negative numbers) in Ferry and in DuckDB, where DuckDB has the same function.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunctionsTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        db.executeOnBoth(
                "CREATE TABLE f (id INTEGER, s VARCHAR, a INTEGER, b INTEGER, x DOUBLE, flag BOOLEAN)",
                "INSERT INTO f VALUES (1, 'hello,world', 3, 5, 2.5, TRUE), (2, 'ab', NULL, 1, -1.5, FALSE), "
                        + "(3, '', 7, -2, 0.25, NULL), (4, NULL, 0, 0, 100.0, TRUE), (5, 'Zürich,東京', -4, 9, 9.75, FALSE)");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> calls() {
        return Stream.of("LEFT(s, 2)", "RIGHT(s, 3)", "LPAD(s, 12, '*')", "RPAD(s, 4, '-')", "SPLIT_PART(s, ',', 2)",
                "STRPOS(s, 'o')", "REPLACE(s, 'l', 'L')", "UPPER(s)", "LOWER(s)", "TRIM(s)",
                "LTRIM(s)", "RTRIM(s)", "LENGTH(s)", "CHAR_LENGTH(s)", "POSITION('o' IN s)", "SUBSTRING(s FROM 2 FOR 3)",
                "s || '!'", "CONCAT(s, '!', a)", "CONCAT_WS('-', s, s)", "GREATEST(a, b)", "LEAST(a, b)",
                "COALESCE(a, b)", "NULLIF(a, 3)", "ROUND(x)", "ROUND(x, 1)", "CEIL(x)", "FLOOR(x)", "ABS(x)",
                "MOD(b, 2)", "POWER(x, 2)", "SQRT(ABS(x))", "LN(ABS(x) + 1)", "LOG10(ABS(x) + 1)", "EXP(x / 10)",
                "SIGN(a)", "CASE WHEN flag THEN s ELSE 'no' END");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void answersAsDuckDb(String call) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, "SELECT id, " + call + " FROM f", false);
    }

    @Test
    void aggregatesFromTheLibraries() throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, "SELECT BOOL_AND(flag), BOOL_OR(flag), COUNT(*) FROM f", false);
    }

    /** PostgreSQL's DATE_TRUNC (a TIMESTAMP, for a DATE too) and NOW(), which Calcite's library lacks. */
    @Test
    void dateTruncAndNow() throws SQLException {
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE dt (id INTEGER, d DATE, t TIMESTAMP)");
                s.execute("INSERT INTO dt VALUES (1, DATE '2024-03-15', TIMESTAMP '2024-03-15 10:11:12'), "
                        + "(2, DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59'), (3, NULL, NULL), "
                        + "(4, DATE '1500-03-01', TIMESTAMP '1500-03-01 00:00:01')");
            }
        }
        for (String unit : List.of("year", "quarter", "month", "day", "hour", "minute", "second")) {
            ResultComparison.assertSameResult(ferry, duck, "SELECT id, DATE_TRUNC('" + unit + "', d), DATE_TRUNC('"
                    + unit + "', t) FROM dt", false);
        }
        ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*) FROM dt WHERE NOW() > t", false);
    }

    /** The JDBC escapes BI tools send, in any case. */
    @Test
    void jdbcEscapes() throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT {fn UCASE(s)}, {fn lcase(s)}, "
                + "{fn CONCAT(s, 'x')}, {fn ABS(-a)}, {fn SUBSTRING(s, 2, 2)}, {fn IFNULL(a, 0)}, {d '2020-01-02'}, "
                + "{ts '2020-01-02 03:04:05'}, {fn YEAR({d '2021-05-06'})} FROM f WHERE id = 1")) {
            rs.next();
            assertEquals("HELLO,WORLD", rs.getString(1));
            assertEquals("hello,world", rs.getString(2));
            assertEquals("hello,worldx", rs.getString(3));
            assertEquals(3, rs.getInt(4));
            assertEquals("el", rs.getString(5));
            assertEquals(3, rs.getInt(6));
            assertEquals("2020-01-02", rs.getString(7));
            assertEquals(java.sql.Timestamp.valueOf("2020-01-02 03:04:05"), rs.getTimestamp(8));
            assertEquals(2021, rs.getInt(9));
        }
    }
}
