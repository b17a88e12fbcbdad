package io.ferry.server.correctness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * Queries whose hash tables, sorts, join build sides and window inputs are many times their query memory (8 MiB here)
 * give DuckDB's answers: they spill to disk, EXPLAIN ANALYZE says how much, and the spill directory is empty once
 * they end.
 */
class SpillAgainstDuckDbTest {
    private static final long QUERY_MEMORY = 8 << 20;

    /** 400,000 rows with NULLs in every column but k, strings and doubles; the same statement in both engines. */
    private static final String TABLE = "CREATE TABLE t AS SELECT generate_series AS k, "
            + "CASE WHEN generate_series % 11 = 0 THEN NULL ELSE generate_series % 1000 END AS g, "
            + "CASE WHEN generate_series % 13 = 0 THEN NULL ELSE 'v' || CAST(generate_series * 7 % 100003 AS VARCHAR)"
            + " END AS s, CASE WHEN generate_series % 17 = 0 THEN NULL ELSE generate_series * 0.5 END AS d "
            + "FROM generate_series(1, 400000)";

    private static final List<String> UNORDERED = List.of(
            "SELECT k % 200000 AS b, COUNT(*), SUM(d), MIN(s), MAX(g) FROM t GROUP BY k % 200000",
            "SELECT s, COUNT(*), SUM(k) FROM t GROUP BY s",
            "SELECT g, COUNT(DISTINCT s), COUNT(DISTINCT k % 5000) FROM t GROUP BY g",
            "SELECT g % 10, k % 50000, COUNT(*), SUM(d) FROM t GROUP BY ROLLUP(g % 10, k % 50000)",
            "SELECT COUNT(*), SUM(a.d), COUNT(b.k), SUM(b.d) FROM t a LEFT JOIN t b ON a.k = b.k + 5",
            "SELECT a.g, COUNT(*), MAX(b.s) FROM t a JOIN t b ON a.s = b.s GROUP BY a.g",
            "SELECT COUNT(*) FROM t a WHERE NOT EXISTS (SELECT 1 FROM t b WHERE b.k = a.k * 2)",
            "SELECT COUNT(*), SUM(k) FROM t a WHERE a.s IN (SELECT b.s FROM t b WHERE b.k % 3 = 0)",
            "SELECT DISTINCT s FROM t WHERE k % 2 = 0",
            "SELECT g, SUM(r), MAX(c), MIN(l) FROM (SELECT g, ROW_NUMBER() OVER (PARTITION BY g ORDER BY k) AS r, "
                    + "SUM(d) OVER (PARTITION BY g ORDER BY k) AS c, LAG(s) OVER (PARTITION BY g ORDER BY k) AS l "
                    + "FROM t WHERE g IS NOT NULL) x GROUP BY g");

    private static final List<String> ORDERED = List.of(
            "SELECT k, s, d FROM t ORDER BY s DESC NULLS LAST, k LIMIT 1000 OFFSET 300000",
            "SELECT s, g, k FROM t ORDER BY g NULLS FIRST, s, k");

    @TempDir
    Path spillDir;

    @Test
    void queriesLargerThanTheirMemorySpillAndAnswerAsDuckDbDoes() throws Exception {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withQueryMemoryLimit(QUERY_MEMORY)
                .withSpillDirectory(spillDir);
        try (FerryEngine engine = FerryEngine.start(config); Connection ferry = engine.connect();
                Statement s = ferry.createStatement(); Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement d = duck.createStatement()) {
            s.execute(TABLE);
            d.execute(TABLE);
            for (String q : UNORDERED) {
                ResultComparison.assertSameResult(ferry, duck, q, false);
                assertEquals(List.of(), filesUnder(spillDir), q);
            }
            for (String q : ORDERED) {
                ResultComparison.assertSameResult(ferry, duck, q, true);
                assertEquals(List.of(), filesUnder(spillDir), q);
            }
            for (String q : List.of(UNORDERED.get(0), UNORDERED.get(4), ORDERED.get(1))) {
                String analyzed = (String) ResultComparison.rows(ferry, "EXPLAIN ANALYZE " + q).get(0).get(0);
                assertTrue(analyzed.contains("of its 8 MiB limit") && analyzed.contains("Spilled: "), analyzed);
            }
            String small = (String) ResultComparison.rows(ferry, "EXPLAIN ANALYZE SELECT COUNT(*) FROM t").get(0)
                    .get(0);
            assertTrue(small.contains("Peak Memory: ") && !small.contains("Spilled"), small);
        }
    }

    private static List<Path> filesUnder(Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> !p.equals(dir)).toList();
        }
    }
}
