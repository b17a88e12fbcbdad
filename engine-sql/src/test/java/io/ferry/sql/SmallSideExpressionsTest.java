package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Expressions over a join that read only its smaller side are computed there (SmallSideExpressions): the plan
 * shows them below the join, and the statements answer as DuckDB does; an expression of the side an outer join pads
 * with NULLs stays above the join.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmallSideExpressionsTest {
    private static final List<String> DAYS = List.of("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
            "Friday", "Saturday");

    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        StringBuilder dates = new StringBuilder();
        for (int sk = 0; sk < 730; sk++) {
            dates.append(sk == 0 ? "" : ", ").append('(').append(sk).append(", ").append(1999 + sk / 365).append(", ")
                    .append(sk % 50 == 0 ? "NULL" : "'" + DAYS.get(sk % 7) + "'").append(')');
        }
        StringBuilder sales = new StringBuilder();
        for (int i = 0; i < 6000; i++) {
            sales.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
                    .append(i % 97 == 0 ? "NULL" : String.valueOf(i * 7919 % 800)).append(", ").append(i % 5)
                    .append(", ").append(i % 13 == 0 ? "NULL" : (i % 400) + ".25").append(')');
        }
        db.executeOnBoth("CREATE TABLE dates (sk INTEGER NOT NULL, y INTEGER, day VARCHAR)",
                "CREATE TABLE sales (id INTEGER NOT NULL, date_sk INTEGER, store INTEGER, price DECIMAL(7, 2))",
                "INSERT INTO dates VALUES " + dates, "INSERT INTO sales VALUES " + sales);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    /** The plan's line holding {@code text} comes after (below) its first join. */
    private static boolean belowTheJoin(String plan, String text) {
        int join = plan.indexOf("FerryJoin(");
        int at = plan.indexOf(text);
        return join >= 0 && at > join;
    }

    @Test
    void dayNamesAreComparedOnTheDates() throws SQLException {
        String sql = "SELECT s.store, SUM(CASE WHEN d.day = 'Sunday' THEN s.price END), SUM(CASE WHEN d.day = "
                + "'Monday' THEN s.price ELSE 0 END), COUNT(CASE WHEN UPPER(d.day) LIKE 'T%' THEN 1 END) "
                + "FROM sales s JOIN dates d ON s.date_sk = d.sk WHERE d.y = 2000 GROUP BY s.store";
        String plan = ResultComparison.plan(db.ferry(), sql);
        assertTrue(belowTheJoin(plan, "'Sunday')") && belowTheJoin(plan, "'Monday')")
                && belowTheJoin(plan, "UPPER("), plan);
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
    }

    @Test
    void anExpressionOfBothSidesStaysAndItsPartsMove() throws SQLException {
        String sql = "SELECT s.id, CASE WHEN CHAR_LENGTH(d.day) > 6 THEN s.price * 2 ELSE s.price END, d.y * 10 "
                + "FROM sales s JOIN dates d ON s.date_sk = d.sk WHERE s.store = 3";
        String plan = ResultComparison.plan(db.ferry(), sql);
        assertTrue(belowTheJoin(plan, "CHAR_LENGTH("), plan);
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
    }

    @Test
    void theSideAnOuterJoinPadsKeepsItsExpressionsAbove() throws SQLException {
        // COALESCE of a padded NULL is 'none', which no row of dates computes below the join
        String sql = "SELECT s.id, COALESCE(d.day, 'none') = 'none', d.day IS NULL FROM sales s "
                + "LEFT JOIN dates d ON s.date_sk = d.sk AND d.y = 2000";
        String plan = ResultComparison.plan(db.ferry(), sql);
        assertTrue(!belowTheJoin(plan, "'none')"), plan);
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
    }
}
