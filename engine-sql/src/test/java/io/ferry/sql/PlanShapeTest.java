package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Plans whose shape decides whether a query finishes: Ferry's logical rewrites must leave equi-join keys where the
 * join rule finds them. Results of the same queries are checked against
 * DuckDB in {@link OracleQueriesTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlanShapeTest {
    private FerryEngine engine;
    private Connection ferry;

    @BeforeAll
    void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        ferry = engine.connect();
        try (Statement s = ferry.createStatement()) {
            s.execute("CREATE TABLE l (k INTEGER, q INTEGER)");
            s.execute("CREATE TABLE p (k INTEGER, brand VARCHAR)");
        }
    }

    @AfterAll
    void stop() throws SQLException {
        ferry.close();
        engine.close();
    }

    private String explain(String sql) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void anOrOfAndsSharingTheJoinKeyIsAHashJoin() throws SQLException {
        String plan = explain("SELECT COUNT(*) FROM l, p WHERE (p.k = l.k AND p.brand = 'A' AND l.q < 10) "
                + "OR (p.k = l.k AND p.brand = 'B' AND l.q > 20) OR (l.k = p.k AND p.brand = 'C')");
        assertTrue(plan.contains("FerryJoin(condition=[AND(=("), plan);
        assertFalse(plan.contains("condition=[true]") || plan.contains("Nested"), plan);
    }
}
