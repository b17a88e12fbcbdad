package io.ferry.sql;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Statements with parameters over {@link AggregateQueries}' tables, each with sets of values for one execution each,
 * and how their answers are checked against DuckDB's for the same values (locally and on a cluster).
 */
public final class PreparedQueries {
    private PreparedQueries() {
    }

    /** A statement and sets of values for its parameters. */
    public record Case(String sql, List<List<Object>> executions) {
        @Override
        public String toString() {
            return sql;
        }
    }

    public static List<Case> cases() {
        return List.of(
                new Case("SELECT g, COUNT(*), SUM(b) FROM q WHERE i > ? AND g <> ? GROUP BY g",
                        List.of(List.of(10, 3), List.of(-1000, 0), List.of(1_000_000, 1))),
                new Case("SELECT id, i * CAST(? AS INTEGER) + CAST(? AS BIGINT), d / CAST(? AS DOUBLE) FROM q "
                        + "WHERE id BETWEEN ? AND ?",
                        List.of(List.of(2, 5L, 4.0, 10, 30), List.of(-1, 0L, 0.5, 0, 3))),
                new Case("SELECT SUM(p * ?), AVG(p) FROM q WHERE p > ?",
                        List.of(List.of(new BigDecimal("1.5"), new BigDecimal("-3.25")),
                                List.of(new BigDecimal("0.01"), new BigDecimal("1000")))),
                new Case("SELECT COUNT(*) FROM q WHERE dt < ? OR dt IS NULL",
                        List.of(List.of(java.sql.Date.valueOf("2000-01-01")),
                                List.of(java.sql.Date.valueOf("1900-06-30")))),
                new Case("SELECT CAST(g AS VARCHAR) || CAST(? AS VARCHAR) AS s, COUNT(*) FROM q "
                        + "WHERE CAST(g AS VARCHAR) = ? GROUP BY 1",
                        List.of(List.of("!", "3"), List.of("", "11"))),
                new Case("SELECT a.g, COUNT(*) FROM q a JOIN q b ON a.id = b.id + ? WHERE a.i < ? GROUP BY a.g",
                        List.of(List.of(1, 50), List.of(3, 0))));
    }

    /** Runs {@code c}'s statement once per set of values, prepared once in each engine, comparing every answer. */
    public static void assertAnswersAsDuckDb(Connection ferry, Connection duck, Case c) throws SQLException {
        try (PreparedStatement f = ferry.prepareStatement(c.sql()); PreparedStatement d = duck.prepareStatement(c.sql())) {
            for (List<Object> values : c.executions()) {
                for (int i = 0; i < values.size(); i++) {
                    f.setObject(i + 1, values.get(i));
                    d.setObject(i + 1, values.get(i));
                }
                List<List<Object>> expected;
                try (ResultSet rs = d.executeQuery()) {
                    expected = ResultComparison.rows(rs);
                }
                try (ResultSet rs = f.executeQuery()) {
                    ResultComparison.assertSameRows(c.sql() + " with " + values, expected, ResultComparison.rows(rs),
                            false);
                }
            }
        }
    }
}
