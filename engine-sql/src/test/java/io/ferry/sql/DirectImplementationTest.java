package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Plans Ferry runs entirely are implemented node by node, without Calcite's cost-based search, after the rewrites
 * that search used to choose (PlanningProgram's CHOICES, FerryImplementation): each rewrite shows in the plan, and
 * each statement answers as DuckDB does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DirectImplementationTest {
    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            rows.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 7).append(", ")
                    .append(i % 11 == 0 ? "NULL" : String.valueOf(i % 13 - 6)).append(", '")
                    .append(i % 3 == 0 ? "Sunday" : "Monday").append("')");
        }
        db.executeOnBoth("CREATE TABLE d (id INTEGER NOT NULL, g INTEGER NOT NULL, x INTEGER, day VARCHAR)",
                "INSERT INTO d VALUES " + rows);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    private String plan(String sql) throws SQLException {
        return ResultComparison.plan(db.ferry(), sql);
    }

    private void answersAsDuckDb(String sql, boolean ordered) throws SQLException {
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, ordered);
    }

    @Test
    void aCountingCaseIsACountWithAFilter() throws SQLException {
        String sql = "SELECT g, SUM(CASE WHEN x > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN day = 'Sunday' THEN x END) "
                + "FROM d GROUP BY g";
        String plan = plan(sql);
        assertTrue(plan.contains("COUNT() FILTER"), plan);
        assertTrue(plan.contains("SUM($1) FILTER") || plan.contains("SUM($2) FILTER"), plan);
        assertFalse(plan.contains("CASE("), plan);
        answersAsDuckDb(sql, false);
    }

    @Test
    void aggregatesOfAGroupKeyAreTheKey() throws SQLException {
        String sql = "SELECT g, MIN(g), MAX(g), AVG(g), COUNT(*) FROM d GROUP BY g";
        String plan = plan(sql);
        assertFalse(plan.contains("MIN(") || plan.contains("MAX(") || plan.contains("AVG("), plan);
        answersAsDuckDb(sql, false);
    }

    @Test
    void anOrderByAColumnThatIsAConstantStillOrders() throws SQLException {
        answersAsDuckDb("SELECT 'all' AS c, g, COUNT(*) AS n FROM d WHERE x IS NOT NULL GROUP BY g "
                + "ORDER BY c, n DESC, g LIMIT 5", true);
        answersAsDuckDb("SELECT * FROM (SELECT 2000 AS y, g, SUM(x) AS s FROM d GROUP BY g) t "
                + "ORDER BY y, s DESC NULLS LAST, g LIMIT 4", true);
    }

    @Test
    void aJoinWithDistinctKeysIsASemiJoin() throws SQLException {
        String sql = "SELECT d.id FROM d JOIN (SELECT DISTINCT g FROM d WHERE x > 5) k ON d.g = k.g";
        assertTrue(plan(sql).contains("joinType=[semi]"), plan(sql));
        answersAsDuckDb(sql, false);
    }

    @Test
    void valuesSortedEveryWayAndASubplanReadTwiceAnswer() throws SQLException {
        answersAsDuckDb("SELECT 1, 'a' UNION ALL SELECT 2, 'bc' UNION ALL SELECT g, day FROM d WHERE id < 9", false);
        answersAsDuckDb("WITH s AS (SELECT g, SUM(x) AS t FROM d GROUP BY g) SELECT a.g, a.t, b.t FROM s a "
                + "JOIN s b ON a.g = b.g + 1 ORDER BY a.g", true);
    }

    @Test
    void oneColumnAndManyColumnResultsReadTheirRows() throws SQLException {
        answersAsDuckDb("SELECT id FROM d WHERE id < 30 ORDER BY id", true);
        answersAsDuckDb("SELECT id, g, x, day FROM d WHERE id BETWEEN 100 AND 140 ORDER BY id", true);
    }
}
