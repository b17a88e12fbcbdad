package io.ferry.sql;

import java.sql.SQLException;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Aggregates over nearly as many groups as rows, on two threads, against DuckDB. Where the planner expects that (keys'
 * distinct counts), a thread's table with 65,536 groups made by as many rows but 2% goes to the merge, and so does
 * every table after at 12,288 groups ({@code AggregateSink}); the merge makes room for each part's groups at once;
 * several integral keys are packed into one long whose ranges are learnt from the rows ({@code PackedKeyGroupTable}),
 * widening batch after batch as the keys grow and giving way to the packed-row table when they no longer fit 64 bits.
 * 300,000 rows, NULL keys among them; grouping by a key that repeats (reducing well), with COUNT(DISTINCT), and by sets
 * of keys (ROLLUP) too. Five of the eight fail when the merge loses a held table's last batch.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManyGroupsTest {
    private FerryAndDuckDb db;

    @BeforeAll
    void start() throws SQLException {
        db = FerryAndDuckDb.start();
        db.executeOnBoth("CREATE TABLE t (a BIGINT, b INTEGER, d DATE, far BIGINT, v DOUBLE, m DECIMAL(9, 2))",
                // a: 291,000 values, ascending with the rows (its range widens batch after batch); b: 7 values; far:
                // values spread over the whole BIGINT range from row 150,000 on (no division: DuckDB's / is not
                // integral)
                "INSERT INTO t SELECT CASE WHEN i % 50 = 0 THEN NULL WHEN i % 100 = 0 THEN i - 1 ELSE i END, "
                        + "CAST(i % 7 AS INTEGER), "
                        + "CASE WHEN i % 70 = 3 THEN NULL ELSE DATE '2020-01-01' + CAST(i % 1500 AS INTEGER) END, "
                        + "CASE WHEN i < 150000 THEN i % 1000 ELSE (i % 13 - 6) * 709490156681136600 + i END, "
                        + "CAST(i % 1000 AS DOUBLE) / 8, CAST(i % 100000 AS DECIMAL(9, 2)) * 0.01 "
                        + "FROM generate_series(1, 300000) AS g(i)");
    }

    @AfterAll
    void stop() throws SQLException {
        db.close();
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT a, b, COUNT(*), SUM(v), MIN(v), MAX(m), AVG(m) FROM t GROUP BY a, b",
                "SELECT a, COUNT(*), SUM(m) FROM t GROUP BY a",
                "SELECT b, a, d, COUNT(*) FROM t GROUP BY b, a, d",
                "SELECT far, b, COUNT(*), SUM(v) FROM t GROUP BY far, b",
                "SELECT d, b, COUNT(*), COUNT(DISTINCT a), SUM(m) FROM t GROUP BY d, b",
                "SELECT a, b, COUNT(*) FROM t GROUP BY ROLLUP(a, b)",
                "SELECT a % 1000 AS k, b, SUM(v) FROM t GROUP BY a % 1000, b HAVING COUNT(*) > 1",
                "SELECT COUNT(*), SUM(c) FROM (SELECT a, far, COUNT(*) AS c FROM t GROUP BY a, far) x");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameGroupsAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(db.ferry(), db.duck(), sql, false);
    }
}
