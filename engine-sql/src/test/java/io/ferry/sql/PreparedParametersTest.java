package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    static Stream<PreparedQueries.Case> cases() {
        return PreparedQueries.cases().stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void answersAsDuckDbWithTheSameValues(PreparedQueries.Case c) throws SQLException {
        PreparedQueries.assertAnswersAsDuckDb(ferry, duck, c);
    }

    /** Before, any parameter sent the whole statement to Calcite's row engine, 10–13 times slower. */
    @ParameterizedTest
    @MethodSource("cases")
    void runsInFerrysOperators(PreparedQueries.Case c) throws SQLException {
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
