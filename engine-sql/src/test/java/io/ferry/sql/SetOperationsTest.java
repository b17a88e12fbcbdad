package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * UNION [ALL], INTERSECT [ALL] and EXCEPT [ALL] in Ferry's operators ({@code SetOperationQueries}: NULLs,
 * duplicates, inputs of different types, empty inputs, three inputs, nested, under aggregates and joins, with
 * ORDER BY and LIMIT, in subqueries), each answered as DuckDB answers it and planned without Calcite's row engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SetOperationsTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        SetOperationQueries.load(ferry, duck);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static List<String> queries() {
        return SetOperationQueries.queries();
    }

    /**
     * Every set operation runs in Ferry, and so does the whole query, but for a join above one: the cost-based phase
     * may still give that join to the row engine (it did above INTERSECT's rewrite into counts, estimated at a few
     * rows), the set operation staying in Ferry below it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void answersAsDuckDbInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains("ORDER BY"));
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(rowEngineSetOperation(plan), plan);
        if (!sql.contains(" JOIN ")) {
            assertFalse(plan.lines().anyMatch(l -> l.trim().startsWith("Enumerable")), plan);
        }
    }

    private static boolean rowEngineSetOperation(String plan) {
        return plan.contains("EnumerableUnion") || plan.contains("EnumerableIntersect")
                || plan.contains("EnumerableMinus") || plan.contains("EnumerableMergeUnion");
    }

    static List<String> subqueries() {
        return SetOperationQueries.subqueries();
    }

    /** An uncorrelated IN runs in Ferry whole, its semi-join too; a correlated EXISTS may not ({@code subqueries}). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("subqueries")
    void subqueriesAnswerAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        if (sql.contains(" IN ")) {
            String plan = ResultComparison.plan(ferry, sql);
            assertFalse(plan.lines().anyMatch(l -> l.trim().startsWith("Enumerable")), plan);
        }
    }

    /**
     * The ALL forms are Ferry's own operators. The distinct ones may be too, or Calcite's rewrite of them into
     * aggregates over UNION ALL (which the cost-based phase may prefer), which runs in Ferry as well.
     */
    @Test
    void plansAreFerrys() throws SQLException {
        for (String[] c : List.of(new String[] {"UNION ALL", "FerryUnion(all=[true])"},
                new String[] {"UNION", "FerryUnion("},
                new String[] {"INTERSECT", "FerryUnion(all=[true])"},
                new String[] {"INTERSECT ALL", "FerryIntersect(all=[true])"},
                new String[] {"EXCEPT", "FerryUnion(all=[true])"},
                new String[] {"EXCEPT ALL", "FerryMinus(all=[true])"})) {
            String plan = ResultComparison.plan(ferry, "SELECT i, v FROM sa " + c[0] + " SELECT i, v FROM sb");
            assertTrue(plan.contains(c[1]) || plan.contains(c[1].replace("Union(all=[true])", "Intersect"))
                    || plan.contains(c[1].replace("Union(all=[true])", "Minus")), plan);
            assertFalse(plan.lines().anyMatch(l -> l.trim().startsWith("Enumerable")), plan);
        }
    }

    /**
     * A filter over a UNION goes into each branch (TPC-DS q4's shape): the branch whose constant column cannot pass
     * it is gone from the plan, and the others filter before they aggregate.
     */
    @Test
    void filterOverUnionGoesIntoItsBranches() throws SQLException {
        String sql = "SELECT * FROM (SELECT i, 'a' AS src, SUM(p) AS s FROM sa GROUP BY i UNION ALL "
                + "SELECT i, 'b', SUM(p) FROM sb GROUP BY i UNION ALL SELECT i, 'c', SUM(p) FROM sc GROUP BY i) u "
                + "WHERE src IN ('a', 'c') AND i = 3";
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.contains("table=[[ferry, sb]]"), plan);
        assertTrue(plan.lines().filter(l -> l.contains("FerryFilter") && l.contains("3")).count() >= 2, plan);
    }

    /** A sort with a LIMIT over a distinct UNION: Calcite's row engine cut each input to the LIMIT first. */
    @Test
    void limitAboveDistinctUnion() throws SQLException {
        String sql = "SELECT i, v FROM sa UNION SELECT i, v FROM sb ORDER BY i NULLS LAST, v NULLS LAST LIMIT 7";
        ResultComparison.assertSameResult(ferry, duck, sql, true);
        assertEquals(7, ResultComparison.rows(ferry, sql).size());
    }
}
