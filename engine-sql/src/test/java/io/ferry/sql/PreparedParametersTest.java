package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Statements with parameters ({@code ?}) run in Ferry's vectorized operators, their values bound as constants when
 * they run (StatementValues), and answer as DuckDB does with the same values. Each case runs its prepared statement
 * several times with different values: the plan is made once.
 */
class PreparedParametersTest {
    private static FerryEngine engine;
    private static Connection ferry;
    private static Connection duck;

    /** A statement, and sets of values for its parameters, one execution each. */
    record Case(String sql, List<List<Object>> executions) {
        @Override
        public String toString() {
            return sql;
        }
    }

    @BeforeAll
    static void load() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        AggregateQueries.load(ferry, duck);
    }

    @AfterAll
    static void close() throws SQLException {
        ferry.close();
        duck.close();
        engine.close();
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("SELECT g, COUNT(*), SUM(b) FROM q WHERE i > ? AND g <> ? GROUP BY g",
                        List.of(List.of(10, 3), List.of(-1000, 0), List.of(1_000_000, 1))),
                new Case("SELECT id, i * CAST(? AS INTEGER) + CAST(? AS BIGINT), d / CAST(? AS DOUBLE) FROM q "
                        + "WHERE id BETWEEN ? AND ?",
                        List.of(List.of(2, 5L, 4.0, 10, 30), List.of(-1, 0L, 0.5, 0, 3))),
                new Case("SELECT SUM(p * ?), AVG(p) FROM q WHERE p > ?",
                        List.of(List.of(new BigDecimal("1.5"), new BigDecimal("-3.25")),
                                List.of(new BigDecimal("0.01"), new BigDecimal("1000")))),
                new Case("SELECT COUNT(*) FROM q WHERE dt < ? OR dt IS NULL",
                        List.of(List.of(java.sql.Date.valueOf("2000-01-01")), List.of(java.sql.Date.valueOf("1900-06-30")))),
                new Case("SELECT CAST(g AS VARCHAR) || CAST(? AS VARCHAR) AS s, COUNT(*) FROM q "
                        + "WHERE CAST(g AS VARCHAR) = ? GROUP BY 1",
                        List.of(List.of("!", "3"), List.of("", "11"))),
                new Case("SELECT a.g, COUNT(*) FROM q a JOIN q b ON a.id = b.id + ? WHERE a.i < ? GROUP BY a.g",
                        List.of(List.of(1, 50), List.of(3, 0))));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void answersAsDuckDbWithTheSameValues(Case c) throws SQLException {
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

    /** Before, any parameter sent the whole statement to Calcite's row engine, 10–13 times slower. */
    @ParameterizedTest
    @MethodSource("cases")
    void runsInFerrysOperators(Case c) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (PreparedStatement explain = ferry.prepareStatement("EXPLAIN PLAN FOR " + c.sql())) {
            List<Object> values = c.executions().get(0);
            for (int i = 0; i < values.size(); i++) {
                explain.setObject(i + 1, values.get(i));
            }
            try (ResultSet rs = explain.executeQuery()) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
        }
        assertFalse(plan.toString().replace("FerryToEnumerableConverter", "").contains("Enumerable"), plan.toString());
    }

    @Test
    void aValueTheParameterCannotHoldFailsAsACastWould() throws SQLException {
        try (PreparedStatement f = ferry.prepareStatement("SELECT COUNT(*) FROM q WHERE i > ?")) {
            f.setString(1, "many");
            SQLException e = assertThrows(SQLException.class, () -> f.executeQuery().close());
            assertEquals("22018", e.getSQLState(), e.getMessage());
            f.setLong(1, 1L << 40);
            e = assertThrows(SQLException.class, () -> f.executeQuery().close());
            assertEquals("22003", e.getSQLState(), e.getMessage());
        }
    }
}
