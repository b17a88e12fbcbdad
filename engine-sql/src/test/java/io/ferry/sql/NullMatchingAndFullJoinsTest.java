package io.ferry.sql;

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
 * Joins on keys compared with IS NOT DISTINCT FROM, and FULL joins, in Ferry's hash join ({@link JoinQueries}:
 * NULL keys, duplicates, several keys of every type, residual conditions, empty sides, nesting, aggregates), each
 * answered as DuckDB answers it and planned without Calcite's row engine; so are joins without an equality (a hash
 * join on a constant key), FULL ones too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NullMatchingAndFullJoinsTest {
    private FerryAndDuckDb db;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        ferry = db.ferry();
        duck = db.duck();
        JoinQueries.load(ferry, duck);
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static List<String> nullMatching() {
        return JoinQueries.nullMatching();
    }

    static List<String> full() {
        return JoinQueries.full();
    }

    static List<String> withoutEquality() {
        return JoinQueries.withoutEquality();
    }

    static List<String> fullWithoutEquality() {
        return JoinQueries.fullWithoutEquality();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nullMatching")
    void nullMatchingKeysAnswerAsDuckDbInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        assertRunsInFerry(sql);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("full")
    void fullJoinsAnswerAsDuckDbInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, sql.contains("ORDER BY"));
        assertRunsInFerry(sql);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withoutEquality")
    void joinsWithoutAnEqualityAnswerAsDuckDbInFerry(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        assertRunsInFerry(sql);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fullWithoutEquality")
    void fullJoinsWithoutAnEqualityAnswerAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
        assertRunsInFerry(sql);
    }

    /** EXPLAIN shows a NULL-matching key in the hash join's condition; no residual re-checks it. */
    @Test
    void explainShowsANullMatchingKey() throws SQLException {
        String plan = ResultComparison.plan(ferry, "SELECT a.id, b.id FROM ja a JOIN jb b ON a.v IS NOT DISTINCT FROM b.v AND a.k = b.k");
        assertTrue(plan.lines().anyMatch(l -> l.contains("FerryJoin(") && l.contains("IS NOT DISTINCT FROM(")),
                plan);
        assertFalse(plan.contains("IS NULL"), plan);
    }

    /** A FULL join is its LEFT join and the other side's unmatched rows (an ANTI join), united. */
    @Test
    void aFullJoinIsALeftJoinAndAnAntiJoin() throws SQLException {
        String plan = ResultComparison.plan(ferry, "SELECT a.id, b.id FROM ja a FULL JOIN jb b ON a.k = b.k AND a.x > b.x");
        assertTrue(plan.contains("joinType=[left]") && plan.contains("joinType=[anti]")
                && plan.contains("FerryUnion(all=[true])"), plan);
    }

    /**
     * An input that may give other rows when read again (a sample without REPEATABLE) keeps its FULL join whole, so
     * both halves see one sample; it runs in the row engine, over Ferry's sample.
     */
    @Test
    void aFullJoinOverAFreshSampleStaysWhole() throws SQLException {
        String sql = "SELECT a.id, b.id FROM (SELECT * FROM ja TABLESAMPLE BERNOULLI(50)) a FULL JOIN jb b "
                + "ON a.k = b.k";
        String plan = ResultComparison.plan(ferry, sql);
        assertTrue(plan.contains("joinType=[full]") && !plan.contains("joinType=[anti]"), plan);
        List<List<Object>> rows = ResultComparison.rows(ferry, sql);
        // every row of jb is there, matched or not
        assertTrue(rows.stream().map(r -> r.get(1)).filter(java.util.Objects::nonNull).distinct().count() == 800,
                plan);
        String repeatable = ResultComparison.plan(ferry, sql.replace("BERNOULLI(50)", "BERNOULLI(50) REPEATABLE(3)"));
        assertTrue(repeatable.contains("joinType=[anti]"), repeatable);
    }

    private void assertRunsInFerry(String sql) throws SQLException {
        String plan = ResultComparison.plan(ferry, sql);
        assertFalse(plan.lines().anyMatch(l -> l.trim().startsWith("Enumerable")), plan);
    }
}
