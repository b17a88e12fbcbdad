package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
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
 * {@link SubqueryQueries} in local mode against DuckDB (in order where they sort), and the plans of the common NOT IN shapes: no cross join
 * the SQL did not ask for, and no NULL bookkeeping where neither side can be NULL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubqueryOracleTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void load() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        SubqueryQueries.load(ferry, duck);
    }

    @AfterAll
    void close() throws Exception {
        ferry.close();
        duck.close();
        engine.close();
    }

    static Stream<String> queries() {
        return SubqueryQueries.queries().stream();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameRowsAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    static Stream<String> enclosingCorrelations() {
        return SubqueryQueries.enclosingCorrelations().stream();
    }

    /** A subquery within a subquery that reads the outer query only: answered as DuckDB does, in Ferry's operators. */
    @ParameterizedTest
    @MethodSource("enclosingCorrelations")
    void enclosingCorrelationRunsInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.replace("FerryToEnumerableConverter", "").contains("Enumerable"), plan);
    }

    static Stream<String> severalRowScalars() {
        return SubqueryQueries.severalRowScalars().stream();
    }

    /** More than one row from a scalar subquery fails (21000) as in DuckDB, in Ferry's operators whole. */
    @ParameterizedTest
    @MethodSource("severalRowScalars")
    void scalarSubqueryOfSeveralRowsFails(String sql) throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql));
        assertEquals("21000", e.getSQLState(), e.getMessage());
        assertThrows(SQLException.class, () -> ResultComparison.rows(duck, sql));
        String plan = ResultComparison.plan(ferry, sql);
        assertTrue(plan.contains("FERRY_SINGLE_ROW"), plan);
        assertFalse(plan.replace("FerryToEnumerableConverter", "").contains("Enumerable"), plan);
    }

    /** ORDER BY over a grand total (TPC-DS q16's shape) sorts nothing: no sort in the row engine above Ferry's rows. */
    @Test
    void orderByOverOneRowIsDropped() throws SQLException {
        String sql = "SELECT COUNT(DISTINCT a.g), SUM(a.k) FROM sa a WHERE a.k IN (SELECT b.k FROM sb b) ORDER BY 1 "
                + "LIMIT 100";
        ResultComparison.assertSameResult(ferry, duck, sql, true);
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.contains("EnumerableSort") || plan.contains("EnumerableLimit"), plan);
    }

    /** An IN under OR keeps its aggregate in Ferry: the marker column is a constant, not Calcite's LITERAL_AGG. */
    @Test
    void inUnderOrRunsInFerry() throws SQLException {
        String plan = ResultComparison.plan(ferry, "SELECT a.id FROM sa a WHERE a.k = 3 OR a.g IN (SELECT b.g FROM sb b WHERE b.nn > 20)");
        assertFalse(plan.contains("LITERAL_AGG") || plan.contains("EnumerableAggregate"), plan);
    }

    static Stream<List<String>> correlatedRowIns() {
        return SubqueryQueries.correlatedRowIns().stream();
    }

    @ParameterizedTest
    @MethodSource("correlatedRowIns")
    void correlatedInOfSeveralColumnsAsDuckDbsExists(List<String> ferryAndDuck) throws SQLException {
        ResultComparison.assertSameResult(ferry, ferryAndDuck.get(0), duck, ferryAndDuck.get(1), false);
    }

    @Test
    void correlatedInOfSeveralColumnsOverAnAggregateIsRefused() {
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry,
                "SELECT a.id FROM sa a WHERE (a.k + 1, a.g) IN (SELECT MAX(b.nn), b.g FROM sb b WHERE b.k = a.k "
                        + "GROUP BY b.g)"));
        assertEquals("0A000", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("EXISTS"), e.getMessage());
    }

    static Stream<String> ordered() {
        return SubqueryQueries.ordered().stream();
    }

    @ParameterizedTest
    @MethodSource("ordered")
    void sameOrderAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, true);
    }

    @Test
    void correlatedNotInOverNotNullColumnsIsOneHashJoin() throws SQLException {
        String plan = ResultComparison.plan(ferry, "SELECT a.id FROM sa a WHERE a.nn NOT IN (SELECT b.nn FROM sb b WHERE b.g = a.g)");
        assertFalse(plan.contains("NestedLoopJoin"), plan);
        assertFalse(plan.contains("COUNT"), "no NULL counting for NOT NULL columns:\n" + plan);
    }

    @Test
    void rewrittenSubqueriesJoinOnTheirKeys() throws SQLException {
        for (String sql : List.of("SELECT a.id FROM sa a WHERE NOT (a.d IN (SELECT MIN(b.d) FROM sb b WHERE b.k = a.k))",
                "SELECT a.id FROM sa a WHERE CAST(NULL AS INTEGER) NOT IN (SELECT b.k FROM sb b WHERE b.g = a.g)")) {
            String plan = ResultComparison.plan(ferry, sql);
            assertFalse(plan.contains("NestedLoopJoin"), plan);
        }
    }

    /** An uncorrelated scalar subquery joins on a constant key in Ferry's hash join, not in a row-engine loop. */
    @Test
    void uncorrelatedScalarSubqueriesAreHashJoins() throws SQLException {
        for (String sql : List.of("SELECT a.id, (SELECT MAX(b.ts) FROM sb b), CAST(-0.001 * a.d AS DECIMAL(12, 2)) "
                + "FROM sa a", "SELECT a.id FROM sa a WHERE a.d > (SELECT AVG(b.d) FROM sb b)")) {
            String plan = ResultComparison.plan(ferry, sql);
            assertFalse(plan.contains("NestedLoopJoin") || plan.contains("EnumerableCalc"), plan);
        }
    }
}
