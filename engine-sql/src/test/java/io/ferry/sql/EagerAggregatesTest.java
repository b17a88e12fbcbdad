package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Aggregates over a join that group by a dimension's strings are computed in two steps where the facts are many and
 * their join key repeats ({@code EagerAggregates}): the facts grouped by join key first, then joined, then grouped by
 * the statement's keys. The answers are DuckDB's — with NULL join keys among the facts, dimension keys that repeat
 * (each partial result joins every dimension row a fact row would have), SUM, COUNT, COUNT(*), MIN, MAX and AVG,
 * arguments computed from the facts' columns, HAVING, ROLLUP, CUBE, grouping sets and GROUPING — and the plans have the
 * aggregates they should: two where the rewrite applies, one where a call cannot be split (DISTINCT) or
 * the join drops most facts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EagerAggregatesTest {
    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        db.executeOnBoth(
                "CREATE TABLE f (k INTEGER, y INTEGER, v DECIMAL(9, 2), w DOUBLE)",
                "CREATE TABLE d (k INTEGER, name VARCHAR, city VARCHAR, n INTEGER)",
                "INSERT INTO f SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE CAST(i % 5000 AS INTEGER) END, "
                        + "CAST(2000 + i % 5 AS INTEGER), CAST(i % 10000 AS DECIMAL(9, 2)) * 0.01, "
                        + "CASE WHEN i % 13 = 0 THEN NULL ELSE CAST(i % 777 AS DOUBLE) END "
                        + "FROM generate_series(1, 200000) AS g(i)",
                // keys 0..5999, those below 600 twice: a dimension whose key repeats; names shared by ten keys each
                "INSERT INTO d SELECT CAST(i % 6000 AS INTEGER), 'name ' || CAST(i % 6000 - i % 10 AS VARCHAR), "
                        + "'city ' || CAST(i % 7 AS VARCHAR), CAST(i % 6000 AS INTEGER) "
                        + "FROM generate_series(0, 6599) AS g(i)");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                Arguments.of(2, "SELECT d.name, d.city, f.y, SUM(f.v), COUNT(*), COUNT(f.w), MIN(f.w), MAX(f.v) "
                        + "FROM f JOIN d ON f.k = d.k GROUP BY d.name, d.city, f.y"),
                Arguments.of(2, "SELECT d.city, SUM(f.v * 2 - f.w) AS s FROM f, d WHERE d.k = f.k GROUP BY d.city "
                        + "HAVING SUM(f.v) > 0"),
                Arguments.of(2, "SELECT d.name, COUNT(*) FROM d JOIN f ON d.k = f.k WHERE f.y < 2003 GROUP BY d.name"),
                // AVG as a sum and a count; over integers, decimals and doubles with NULLs
                Arguments.of(2, "SELECT d.name, AVG(f.w), AVG(f.v), AVG(f.y), COUNT(*) FROM f JOIN d ON f.k = d.k "
                        + "GROUP BY d.name"),
                // grouping sets of the dimension's and the facts' keys, an empty one among them
                Arguments.of(2, "SELECT d.city, d.name, f.y, AVG(f.w), SUM(f.v), MIN(f.w), COUNT(*) FROM f JOIN d "
                        + "ON f.k = d.k GROUP BY ROLLUP(d.city, d.name, f.y)"),
                Arguments.of(2, "SELECT d.city, f.y, AVG(f.v), COUNT(f.w) FROM f JOIN d ON f.k = d.k "
                        + "GROUP BY CUBE(f.y, d.city)"),
                Arguments.of(2, "SELECT d.city, f.y, MAX(f.v) FROM f JOIN d ON f.k = d.k "
                        + "GROUP BY GROUPING SETS ((d.city), (f.y), ())"),
                Arguments.of(2, "SELECT d.city, f.y, GROUPING(d.city), GROUPING(f.y, d.city), SUM(f.v) FROM f "
                        + "JOIN d ON f.k = d.k GROUP BY ROLLUP(d.city, f.y)"),
                // DISTINCT is not split: one aggregate
                Arguments.of(1, "SELECT d.city, COUNT(DISTINCT f.y) FROM f JOIN d ON f.k = d.k GROUP BY d.city"),
                // a join that keeps few facts: one aggregate
                Arguments.of(1, "SELECT d.name, SUM(f.v) FROM f JOIN d ON f.k = d.k WHERE d.n = 17 GROUP BY d.name"));
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameAnswersAsDuckDb(int aggregates, String sql) throws SQLException {
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
        assertEquals(aggregates, ResultComparison.planCount(db.ferry(), sql, "FerryAggregate"),
                "aggregates in the plan of " + sql);
    }
}
