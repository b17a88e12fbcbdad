package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Words that PostgreSQL and DuckDB accept unquoted as column names and aliases, and that Calcite's grammar reserves:
 * each is a column of a table, selected, aggregated, grouped, ordered and used as an alias, as DuckDB answers it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NonReservedNamesTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> words() {
        return Stream.of("value", "year", "month", "day", "hour", "minute", "second", "count", "position", "result",
                "name", "type", "language", "source", "size", "start", "rank", "sum", "min", "max", "avg", "date",
                "time", "timestamp", "percent", "element", "method", "open", "close", "output", "scope", "upper",
                "lower", "global", "local", "module", "level", "key", "first", "last", "one", "next", "row_number",
                "rows", "range", "period", "filter", "uuid");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("words")
    void aWordIsAName(String w) throws SQLException {
        String table = "w_" + w;
        for (Connection c : new Connection[] {ferry, duck}) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + table + " (" + w + " INTEGER, k INTEGER)");
                s.execute("INSERT INTO " + table + " (" + w + ", k) VALUES (1, 2), (3, 2), (NULL, 5)");
            }
        }
        ResultComparison.assertSameResult(ferry, duck, "SELECT " + w + ", k AS " + w + "_k, " + table + "." + w
                + " + 1 AS " + w + " FROM " + table + " WHERE " + w + " IS NOT NULL", false);
        ResultComparison.assertSameResult(ferry, duck, "SELECT k, SUM(" + w + ") AS " + w + ", COUNT(" + w + ") FROM "
                + table + " GROUP BY k ORDER BY k", true);
        ResultComparison.assertSameResult(ferry, duck, "SELECT " + w + " FROM (SELECT " + w + " FROM " + table
                + ") AS " + w + " ORDER BY " + w + " NULLS LAST", true);
    }
}
