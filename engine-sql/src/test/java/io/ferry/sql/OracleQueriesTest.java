package io.ferry.sql;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A broad set of single-table and join queries over data with NULLs, duplicates and an empty table, each
 * answered by Ferry and by DuckDB on the same rows. Small blocks (8 KiB) make every table span many blocks, so
 * the parallel partial/final paths and multi-morsel pipelines are exercised.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OracleQueriesTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void load() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        String[] ddl = {
            "CREATE TABLE t1 (id INTEGER NOT NULL, k INTEGER, v BIGINT, d DOUBLE, p DECIMAL(10,2), s VARCHAR, "
                    + "dt DATE, flag BOOLEAN)",
            "CREATE TABLE t2 (k INTEGER, name VARCHAR, w BIGINT)",
            "CREATE TABLE empty_t (k INTEGER, x BIGINT)",
            "CREATE TABLE edge (id INTEGER, k INTEGER, d DOUBLE, s VARCHAR)",
            "INSERT INTO edge VALUES (1, 1, CAST('-0.0' AS DOUBLE), '🦆x'), (2, 1, 0.0, 'Zürich ✓ 東京'), "
                    + "(3, NULL, 1.5, ''), (4, 7, 0.0, '🦆x'), (5, 7, NULL, NULL)",
            // windows: k = 1 sums past the largest BIGINT, k = 2 past the smallest; -0.0 and 0.0 in d
            "CREATE TABLE w (id INTEGER NOT NULL, k INTEGER, b BIGINT, d DOUBLE, s VARCHAR)",
            "INSERT INTO w VALUES (1, 1, 9223372036854775807, CAST('-0.0' AS DOUBLE), 'a'), (2, 1, 5, 0.0, 'b'), "
                    + "(3, 2, -9223372036854775807, 1.5, NULL), (4, 2, -5, 0.0, 'c'), (5, NULL, NULL, NULL, 'd'), "
                    + "(6, 3, 7, CAST('-0.0' AS DOUBLE), 'e')",
            // NaN, which SQL orders above every other DOUBLE (and equal to itself), beside the infinities
            "CREATE TABLE nan (id INTEGER NOT NULL, k INTEGER, d DOUBLE, e DOUBLE)",
            "INSERT INTO nan VALUES (1, 1, CAST('NaN' AS DOUBLE), 1.5), (2, 1, 1.5, CAST('NaN' AS DOUBLE)), "
                    + "(3, 2, CAST('Infinity' AS DOUBLE), CAST('NaN' AS DOUBLE)), (4, 2, CAST('NaN' AS DOUBLE), "
                    + "CAST('NaN' AS DOUBLE)), (5, 3, CAST('-Infinity' AS DOUBLE), NULL), (6, 3, NULL, 0.0), "
                    + "(7, 4, -2.5, CAST('-0.0' AS DOUBLE))"
        };
        for (String sql : ddl) {
            exec(sql);
        }
        Random rnd = new Random(42);
        String[] words = {"alpha", "beta", "gamma", "delta", "épsilon", "zeta", "eta", "theta", "a'b", ""};
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            rows.add("(" + i + ", " + nullable(rnd, String.valueOf(rnd.nextInt(60))) + ", "
                    + nullable(rnd, String.valueOf(rnd.nextLong() % 1_000_000_000L)) + ", "
                    + nullable(rnd, String.valueOf(Math.round(rnd.nextGaussian() * 1e6) / 1e3)) + ", "
                    + nullable(rnd, String.format("%d.%02d", rnd.nextInt(100_000) - 50_000, rnd.nextInt(100))) + ", "
                    + nullable(rnd, "'" + words[rnd.nextInt(words.length)].replace("'", "''") + "'") + ", "
                    + nullable(rnd, "DATE '" + LocalDate.of(1992, 1, 1).plusDays(rnd.nextInt(2500)) + "'") + ", "
                    + nullable(rnd, rnd.nextBoolean() ? "TRUE" : "FALSE") + ")");
        }
        insert("t1", rows);
        rows.clear();
        for (int i = 0; i < 80; i++) {
            rows.add("(" + nullable(rnd, String.valueOf(rnd.nextInt(70))) + ", '" + words[rnd.nextInt(words.length)]
                    .replace("'", "''") + i % 7 + "', " + nullable(rnd, String.valueOf(rnd.nextInt(1000))) + ")");
        }
        insert("t2", rows);
    }

    private static String nullable(Random rnd, String v) {
        return rnd.nextInt(10) == 0 ? "NULL" : v;
    }

    private void insert(String table, List<String> rows) throws SQLException {
        for (int from = 0; from < rows.size(); from += 500) {
            exec("INSERT INTO " + table + " VALUES " + String.join(", ", rows.subList(from, Math.min(rows.size(), from + 500))));
        }
    }

    private void exec(String sql) throws SQLException {
        try (Statement a = ferry.createStatement(); Statement b = duck.createStatement()) {
            a.execute(sql);
            b.execute(sql);
        }
    }

    @AfterAll
    void close() throws Exception {
        ferry.close();
        duck.close();
        engine.close();
    }

    static Stream<String> unordered() {
        return Stream.of(
                "SELECT * FROM t1",
                // a call that is NULL whatever its other operand holds, under another call (fuzzer, seed 41, query
                // 9425: XX000 "not a literal" from Calcite's collation metadata)
                "SELECT id, (CAST(CAST(NULL AS DECIMAL(12,2)) AS DOUBLE) / NULLIF(CAST(p AS DOUBLE), 0)) * d FROM t1",
                "SELECT id, (CAST(NULL AS DOUBLE) / d) + d, (CAST(NULL AS INTEGER) > k) OR flag FROM t1",
                // a year no Calendar holds (fuzzer, seed 45, query 3500: XX000 "Invalid range" from Calcite's
                // date-range rewrite)
                "SELECT COUNT(*) FROM t1 WHERE EXTRACT(YEAR FROM dt) = 2147483647",
                // a comparison with a NULL literal that Calcite's early column trimming failed on (seed 41, query
                // 838: XX000 "Comparison with NULL in pulledUpPredicates"); planned untrimmed
                "SELECT DISTINCT 0 FROM t1 WHERE CAST(NULL AS BOOLEAN) > flag",
                "SELECT DISTINCT NULLIF(id, id) >= -v, k FROM t1 WHERE CAST(NULL AS INTEGER) < k OR flag",
                // the same in the SQL's conversion itself: a DISTINCT over a filter with a BETWEEN … AND NULL, and a
                // BETWEEN over a CASE without a reachable branch (fuzzer, seed 49 queries 3336 and 3384)
                "SELECT DISTINCT CAST(dt AS TIMESTAMP) FROM t1 WHERE (id + k) BETWEEN -100 AND CAST(NULL AS INTEGER) "
                        + "AND flag GROUP BY s, dt HAVING (CAST(NULL AS DECIMAL(12,2)) - -0.001) < ABS(0)",
                "SELECT id, CASE WHEN (CASE WHEN FALSE THEN s WHEN FALSE THEN s END BETWEEN 'zz' AND 'a') THEN 1 END "
                        + "FROM t1",
                // a CASE that is NULL once its condition is folded, compared under a SELECT DISTINCT (fuzzer, seed 60
                // query 2268: the HAVING's simplification left NULL = MIN(0.0), XX000 as above)
                "SELECT DISTINCT CAST(0 AS BIGINT) FROM t1 a0 "
                        + "HAVING (NULLIF(0.0E0, CAST('-0.0' AS DOUBLE)) = MIN(0.0))",
                "SELECT DISTINCT 0 FROM t1 WHERE NULLIF(1, 1) = k OR flag",
                "SELECT DISTINCT k FROM t1 WHERE (NULLIF(1, 1) = k) IS NULL AND id < 50",
                // a comparison of BOOLEANs with NULL in a HAVING under a SELECT DISTINCT (fuzzer, seed 95 query 1348:
                // XX000 as above, the NULL hidden in the CASE that orders BOOLEANs)
                "SELECT DISTINCT SUM(k) FROM t1 GROUP BY s HAVING MAX(flag) >= (MIN(id) < CAST(NULL AS DECIMAL(12,2)))",
                "SELECT DISTINCT SUM(k) FROM t1 GROUP BY s HAVING MAX(flag) >= CAST(NULL AS BOOLEAN) OR COUNT(*) > 1",
                "SELECT id, flag >= CAST(NULL AS BOOLEAN), flag < (k > 3) FROM t1",
                // ... and with an IN list of constants that is NULL, folded only by simplification (fuzzer, seeds
                // 112 query 1249 and 130 query 2684: XX000 "Comparison with NULL in pulledUpPredicates")
                "SELECT DISTINCT '' FROM t1 HAVING MAX(flag) > (100.0 IN (0.00, CAST(NULL AS DECIMAL(12,2))))",
                "SELECT DISTINCT 0.0E0 FROM t1 HAVING MAX(FALSE) <> (1.0E300 NOT IN (CAST(NULL AS DOUBLE), 0.5E0))",
                // NULLs an empty join leaves under a RIGHT JOIN, in a calculation beside a window (fuzzer, seed 64
                // query 664: XX000 "not a literal: /(null:DOUBLE, 5.0E0:DOUBLE)" from Calcite's collation metadata)
                "SELECT (CAST(a.p AS DOUBLE) / 5.0E0) * 0.0, ROW_NUMBER() OVER (PARTITION BY b.k ORDER BY b.w, b.name) "
                        + "FROM t1 a JOIN t2 c ON FALSE RIGHT JOIN t2 b ON TRUE",
                // EXTRACT of one unit inside and outside a CASE branch, in a projection the row engine runs (above a
                // nested-loop join): Calcite's code generation failed with XX000 "Unable to implement EnumerableCalc"
                // (fuzzer, seed 44 query 2194); Ferry's DATE_PART runs there instead
                "SELECT a.id, b.k, COALESCE(EXTRACT(MONTH FROM a.dt), EXTRACT(MONTH FROM CAST(a.dt AS TIMESTAMP))), "
                        + "CASE WHEN EXTRACT(DAY FROM a.dt) > 15 THEN EXTRACT(DAY FROM a.dt) "
                        + "ELSE EXTRACT(YEAR FROM a.dt) END, EXTRACT(DOW FROM a.dt), EXTRACT(DOY FROM a.dt) "
                        + "FROM t1 a JOIN t2 b ON a.k < b.k - 60 "
                        + "WHERE a.id < 400",
                // a grouped expression that implicit casts change, again in HAVING: Calcite checked the HAVING against
                // the GROUP BY before casting it (fuzzer, seed 59 query 2796: 42000 "Expression 'ts' is not being
                // grouped", a TIMESTAMP column NOT IN TIMESTAMP literals)
                "SELECT p NOT IN (1.5, 3.5), COUNT(*) FROM t1 GROUP BY p NOT IN (1.5, 3.5) "
                        + "HAVING p NOT IN (1.5, 3.5) OR COUNT(*) > 1",
                "SELECT k NOT IN (1.5, 3.5), COUNT(*) FROM t1 GROUP BY k NOT IN (1.5, 3.5) HAVING k NOT IN (1.5, 3.5)",
                "SELECT COUNT(*) FROM t1 GROUP BY dt NOT IN (TIMESTAMP '1995-01-01 00:00:00', TIMESTAMP "
                        + "'1996-02-29 00:00:00'), s HAVING (dt NOT IN (TIMESTAMP '1995-01-01 00:00:00', TIMESTAMP "
                        + "'1996-02-29 00:00:00')) IS NOT FALSE",
                // a condition that reads three relations and nothing joins two of them: the join order had left
                // factors out (every row of a cross product, with columns of the wrong relation; fuzzer, seed 45
                // query 456)
                "SELECT a.id, b.k, c.w FROM t1 a, t2 b, t2 c WHERE a.k + b.k = c.k AND a.id < 40",
                "SELECT COUNT(*), SUM(c.w) FROM t2 a CROSS JOIN t2 b CROSS JOIN t2 c WHERE a.k + b.k = c.k OR a.w < 0",
                // COALESCE(SUM(x), 0) under two group keys: Calcite's SUM0 rewrite read a group key instead (fuzzer,
                // seed 49 query 5138: b's value; seed 47 query 1601: XX000 "Cannot add expression of different type")
                "SELECT s, k, COALESCE(SUM(d), 0.0E0) FROM t1 GROUP BY s, k",
                "SELECT k, flag, COALESCE(SUM(id + k), CAST(0 AS BIGINT)), 3 FROM t1 GROUP BY k, flag, s",
                // COALESCE of a SUM cast to text with a text default: Calcite's SUM0 rewrite read '' as a number
                // (XX000 "cannot convert CHAR literal to class java.math.BigDecimal", fuzzer seed 906 query 1407)
                "SELECT COALESCE(CAST(SUM(0) AS VARCHAR), '') FROM t1",
                "SELECT COALESCE(CAST(SUM(x) AS VARCHAR), 'none'), COALESCE(CAST(SUM(k) AS VARCHAR), '') FROM empty_t",
                "SELECT k, COALESCE(CAST(SUM(v) AS VARCHAR), '') FROM t1 GROUP BY k",
                // $SUM0 of DOUBLEs over no rows is 0, also where a union's column is nullable (fuzzer, seed 49 query
                // 2057: NULL, and the row merged into the union's NULL)
                "SELECT CAST(NULL AS DOUBLE) FROM t2 UNION SELECT COALESCE(SUM(d), 0.0E0) FROM t1 WHERE id < 0",
                "SELECT CAST(NULL AS DOUBLE) FROM empty_t UNION ALL SELECT COALESCE(SUM(-2.25E0), 0.0E0) FROM t1 "
                        + "WHERE FALSE",
                "SELECT id, k, v FROM t1 WHERE k = 7",
                "SELECT id FROM t1 WHERE k IS NULL",
                // Range conjuncts merged per column, next to other conditions; an empty range; constant first.
                "SELECT id FROM t1 WHERE k BETWEEN 10 AND 20 AND k <> 15 AND v > 0",
                "SELECT COUNT(*) FROM t1 WHERE k > 30 AND k < 10",
                // CASTs computed in the row engine (above a window or a UNION) round as Ferry's kernels and DuckDB do
                "SELECT id, CAST(AVG(d) OVER (PARTITION BY k) AS DECIMAL(12, 2)), CAST(d * 1.5 + id AS INTEGER), "
                        + "ROW_NUMBER() OVER (ORDER BY id) FROM t1",
                "SELECT CAST(x AS DECIMAL(10, 1)), CAST(x AS BIGINT) FROM (SELECT d AS x FROM t1 UNION ALL "
                        + "SELECT p FROM t1) u",
                // a BOOLEAN as text is 'true' / 'false', as in DuckDB and PostgreSQL (Ferry wrote 'TRUE'), whether
                // cast, folded from a literal, concatenated, or grouped on
                "SELECT id, CAST(flag AS VARCHAR), flag || '!', CONCAT('f=', flag), CAST(TRUE AS VARCHAR), "
                        + "CAST(k > 30 AS VARCHAR) FROM t1",
                "SELECT CAST(flag AS VARCHAR) AS f, COUNT(*) FROM t1 GROUP BY CAST(flag AS VARCHAR)",
                // booleans ordered FALSE < TRUE, a NULL operand giving NULL (an empty range over a NULL is NULL)
                "SELECT id FROM t1 WHERE (p BETWEEN 12.345 AND 3) BETWEEN FALSE AND TRUE",
                "SELECT id, (p > 2) < (k > 10), (p > 2) >= TRUE, (d < 0) <= (k BETWEEN 20 AND 10) FROM t1",
                "SELECT id, dt FROM t1 WHERE 5 < k AND dt >= DATE '1995-01-01' AND dt < DATE '1996-01-01'",
                "SELECT id FROM t1 WHERE p >= 100.5 AND p < 20000 AND v <= -5",
                "SELECT id FROM t1 WHERE v >= -922337203685477580 AND k = k",
                "SELECT id, s FROM t1 WHERE s IS NOT NULL AND k BETWEEN 10 AND 20",
                "SELECT id FROM t1 WHERE k IN (1, 3, 5, 59) OR s = 'beta'",
                "SELECT id FROM t1 WHERE k NOT IN (1, 2, 3)",
                "SELECT id, s FROM t1 WHERE s LIKE 'a%'",
                "SELECT id, s FROM t1 WHERE s LIKE '%ta' OR s LIKE '%mm%' OR s LIKE 'e_a'",
                "SELECT id FROM t1 WHERE NOT (k > 30) AND flag",
                "SELECT id, v + k, v - k, v * 3, k * k, -v FROM t1",
                "SELECT id, p + 1.5, p * 2, p - p, p * p FROM t1",
                "SELECT id, d * 2.5, d + k, d - v FROM t1 WHERE d > 0",
                "SELECT id, CASE WHEN k < 10 THEN 'low' WHEN k < 40 THEN 'mid' ELSE 'high' END FROM t1",
                "SELECT id, CASE WHEN k <> 0 THEN v / CAST(k AS DOUBLE) END FROM t1",
                "SELECT id, COALESCE(k, -1), COALESCE(s, 'none') FROM t1",
                "SELECT id, CAST(k AS BIGINT) * 1000000000, CAST(p AS DOUBLE), CAST(k AS VARCHAR) FROM t1",
                "SELECT id, EXTRACT(YEAR FROM dt), EXTRACT(MONTH FROM dt), EXTRACT(DAY FROM dt) FROM t1",
                "SELECT id FROM t1 WHERE dt >= DATE '1995-01-01' AND dt < DATE '1996-01-01'",
                "SELECT id, UPPER(s), LOWER(s), CHAR_LENGTH(s), s || '-' || s FROM t1",
                "SELECT id, SUBSTRING(s FROM 2 FOR 3) FROM t1",
                "SELECT id, flag IS TRUE, flag IS NOT FALSE, flag AND k > 5, flag OR k > 5 FROM t1",
                "SELECT COUNT(*), COUNT(k), COUNT(s), SUM(v), MIN(v), MAX(v), AVG(v) FROM t1",
                "SELECT SUM(p), MIN(p), MAX(p), AVG(p), SUM(d), MIN(s), MAX(s), MIN(dt), MAX(dt) FROM t1",
                "SELECT k, COUNT(*), SUM(v), MIN(d), MAX(d), AVG(d) FROM t1 GROUP BY k",
                "SELECT s, k, COUNT(*), SUM(p) FROM t1 GROUP BY s, k",
                "SELECT flag, COUNT(*) FROM t1 GROUP BY flag",
                "SELECT dt, COUNT(*) FROM t1 GROUP BY dt HAVING COUNT(*) > 3",
                "SELECT k, COUNT(DISTINCT s) FROM t1 GROUP BY k",
                "SELECT COUNT(DISTINCT k), COUNT(DISTINCT s) FROM t1",
                "SELECT COUNT(DISTINCT v) FROM t1",
                "SELECT k % 7, SUM(k) FROM t1 GROUP BY k % 7",
                // MOD takes its divisor's type: an INTEGER remainder of a BIGINT dividend must not overflow
                "SELECT id, MOD(v, 7), MOD(CAST(id AS BIGINT) * 1000000007, 9973), MOD(k, 3) FROM t1",
                "SELECT COUNT(*), SUM(x), MAX(x) FROM empty_t",
                "SELECT k, SUM(x) FROM empty_t GROUP BY k",
                "SELECT * FROM empty_t WHERE k > 1",
                "SELECT t1.id, t2.name FROM t1 JOIN t2 ON t1.k = t2.k",
                "SELECT t1.id, t2.name, t2.w FROM t1 LEFT JOIN t2 ON t1.k = t2.k",
                "SELECT t1.id, t2.name FROM t1 RIGHT JOIN t2 ON t1.k = t2.k",
                "SELECT t1.id, t2.name FROM t1 JOIN t2 ON t1.k = t2.k AND t1.v > t2.w",
                // The smaller input on the left: Ferry builds on it, the residual sees the swapped row.
                "SELECT t2.name, t1.id, t1.v FROM t2 JOIN t1 ON t1.k = t2.k AND t1.v > t2.w",
                "SELECT t2.name, t1.id, t1.s FROM t2 JOIN t1 ON t2.k = t1.k",
                // Sparse keys: the hashed layout, not the direct-mapped one.
                "SELECT a.id, b.id FROM t1 a JOIN t1 b ON a.v = b.v",
                "SELECT a.id, b.k FROM t1 a JOIN t1 b ON a.v = b.v * 7 WHERE b.k < 30",
                "SELECT t1.id, t2.name FROM t1 LEFT JOIN t2 ON t1.k = t2.k AND t2.w > 500",
                "SELECT t2.name, COUNT(*), SUM(t1.v) FROM t1 JOIN t2 ON t1.k = t2.k GROUP BY t2.name",
                "SELECT id FROM t1 WHERE k IN (SELECT k FROM t2 WHERE w > 100)",
                "SELECT id FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.k = t1.k)",
                "SELECT id FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t2 WHERE t2.k = t1.k)",
                "SELECT t1.id FROM t1 JOIN empty_t e ON t1.k = e.k",
                "SELECT t1.id, e.x FROM t1 LEFT JOIN empty_t e ON t1.k = e.k",
                "SELECT a.id, b.id FROM t1 a JOIN t1 b ON a.id = b.id + 1 WHERE a.k = 3",
                "SELECT t1.s, t2.name FROM t1 JOIN t2 ON t1.s = t2.name",
                "SELECT k, s, v FROM t1 WHERE v > (SELECT AVG(v) FROM t1)",
                "SELECT DISTINCT k FROM t1",
                "SELECT DISTINCT s, flag FROM t1",
                "SELECT x.k, x.c FROM (SELECT k, COUNT(*) AS c FROM t1 GROUP BY k) x JOIN t2 ON x.k = t2.k",
                "SELECT k FROM t1 UNION SELECT k FROM t2",
                "SELECT k FROM t1 UNION ALL SELECT k FROM t2",
                "SELECT id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) FROM t1",
                // Regressions (issue 15): a row value under DISTINCT counts its fields, NULLs included
                "SELECT COUNT(DISTINCT (k, v % 10)) FROM t1",
                "SELECT k % 5, COUNT(DISTINCT (s, flag)), COUNT(DISTINCT (k, dt)) FROM t1 GROUP BY k % 5",
                // moments accumulate in DOUBLE: products of integer sums overflowed BIGINT, quotients truncated
                "SELECT COVAR_SAMP(k, v), COVAR_POP(id, k), VAR_SAMP(v), VAR_POP(k), STDDEV_SAMP(v), STDDEV_POP(id) "
                        + "FROM t1",
                "SELECT k % 3, COVAR_SAMP(id, v), COVAR_POP(k, id), STDDEV_SAMP(p) FROM t1 GROUP BY k % 3",
                // arithmetic with a NULL literal is NULL
                "SELECT id, v + NULL, 37 / CAST(NULL AS INTEGER), k * CAST(NULL AS DECIMAL(5, 2)) FROM t1",
                "SELECT COUNT(*) FROM t1 WHERE k > NULL + 1 OR v = v + NULL",
                // UTF-8 literals, the largest BIGINT literal
                "SELECT id, 'Zürich ✓ 東京', s || ' ✓' FROM t1 WHERE s = 'épsilon'",
                "SELECT id, 9223372036854775807 - v FROM t1 WHERE v < 9223372036854775807 AND v >= 0 AND id < 50",
                // a quotient with a DECIMAL operand is a DOUBLE (DuckDB's rule), not a DECIMAL cut to 6 places
                "SELECT SUM(p * k) / SUM(p * 1.0), SUM(p) / COUNT(*), AVG(p) FROM t1",
                "SELECT id, p / 3, p / k, k / p FROM t1 WHERE k <> 0 AND p <> 0",
                // IN and NOT IN over many constants: one sorted-list lookup per row
                "SELECT id FROM t1 WHERE k IN (" + constants(40, 3) + ") OR v IN (" + constants(30, 1) + ")",
                "SELECT id, s FROM t1 WHERE k NOT IN (" + constants(25, 2) + ") AND s NOT IN ('alpha', 'beta', 'gamma',"
                        + " 'delta', 'zeta', 'eta', 'theta', 'x', 'y')",
                "SELECT id FROM t1 WHERE dt IN (" + dates(20) + ")",
                // -0.0 and 0.0 are one value to windows, sorts, grouping and DISTINCT (fuzzer)
                "SELECT id, COUNT(*) OVER (PARTITION BY d), RANK() OVER (ORDER BY d) FROM edge",
                "SELECT d, COUNT(*) FROM edge GROUP BY d",
                // lengths and substrings count characters, folded or computed, in Ferry or Calcite's operators
                "SELECT id, CHAR_LENGTH(s), SUBSTRING(s FROM 2 FOR 1), CHAR_LENGTH('🦆'), SUBSTRING('🦆x' FROM 2) FROM edge",
                "SELECT CHAR_LENGTH(e.s), (SELECT MAX(t2.w) FROM t2) FROM edge e",
                // ... in a window's keys too, where the row engine computes them (fuzzer, seed 7)
                "SELECT DENSE_RANK() OVER (ORDER BY e.k ASC NULLS FIRST, CHAR_LENGTH(e.s) > 2 ASC NULLS LAST) FROM edge e "
                        + "WHERE e.id <= (SELECT MAX(t2.k) FROM t2)",
                "SELECT e.id, RANK() OVER (PARTITION BY CHAR_LENGTH(e.s) > 2 ORDER BY e.id), ROW_NUMBER() OVER (ORDER BY "
                        + "SUBSTRING(e.s FROM 2 FOR 1) NULLS FIRST, e.id), SUM(e.id) OVER (PARTITION BY "
                        + "POSITION('x' IN e.s)) FROM edge e WHERE e.id <= (SELECT MAX(t2.k) FROM t2)",
                "SELECT CAST(CAST('0.125' AS DOUBLE) AS DECIMAL(12, 2)), CAST(-0.125E0 AS DECIMAL(12, 2)) FROM edge",
                // RIGHT and FULL joins without an equality keep duplicate unmatched rows
                "SELECT a.id, b.k FROM edge a FULL JOIN edge b ON FALSE",
                "SELECT a.id FROM edge a FULL JOIN edge b ON a.id < b.k",
                "SELECT b.k FROM edge a RIGHT JOIN edge b ON a.id > b.k + 10",
                "SELECT a.id, b.k FROM edge a FULL JOIN edge b ON a.id > b.k OR b.k IS NULL",
                // a join key compared with IS NOT DISTINCT FROM (NULL matches NULL) is checked beside the hash key
                "SELECT a.id, b.id FROM edge a JOIN edge b ON a.k = b.k AND a.d IS NOT DISTINCT FROM b.d",
                "SELECT a.id, b.id FROM edge a JOIN edge b ON a.k = b.k WHERE a.s IS NOT DISTINCT FROM "
                        + "CASE WHEN TRUE THEN b.s ELSE 'x' END",
                // an uncorrelated IN or EXISTS inside a correlated subquery is not dropped by decorrelation
                "SELECT a.id FROM edge a WHERE (SELECT MAX(b.d) FROM edge b WHERE b.k = a.k AND 49 IN "
                        + "(SELECT c.id * c.id FROM edge c)) IS NOT NULL",
                "SELECT a.id FROM edge a WHERE (SELECT MAX(b.d) FROM edge b WHERE b.k = a.k AND 16 IN "
                        + "(SELECT c.id * c.id FROM edge c)) IS NOT NULL",
                "SELECT a.id, EXISTS (SELECT 1 FROM edge b WHERE b.k = a.k AND EXISTS "
                        + "(SELECT 1 FROM edge c WHERE c.id > 9)) FROM edge a",
                // a comparison with a NULL literal left by decorrelation
                "SELECT id FROM edge a WHERE (SELECT MIN(b.d) FROM edge b WHERE CASE WHEN CAST(NULL AS BOOLEAN) "
                        + "THEN b.id END <> b.k) IS NULL",
                // an OR of ANDs that share the join key is a hash join with a residual filter
                "SELECT t1.id, t2.name FROM t1, t2 WHERE (t1.k = t2.k AND t2.w < 300 AND t1.v > 0) "
                        + "OR (t2.k = t1.k AND t2.w > 700) OR (t1.k = t2.k AND t1.s = 'beta')",
                // Windows, run by Calcite's row engine under WindowCallsRule and SignedZeros (fuzzer, issue 15):
                // integer sums that fit, in frames that keep them in range
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM w",
                "SELECT id, SUM(b) OVER (PARTITION BY k ORDER BY id), AVG(b) OVER (PARTITION BY k ORDER BY id) "
                        + "FROM w WHERE id <> 1 AND id <> 3",
                "SELECT id, SUM(k) OVER (PARTITION BY s), SUM(v) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND "
                        + "CURRENT ROW), AVG(v) OVER (PARTITION BY k ORDER BY id ROWS UNBOUNDED PRECEDING) FROM t1",
                // MIN/MAX/SUM/AVG of a NULL literal is NULL, not a planner error
                "SELECT id, MIN(CAST(NULL AS DOUBLE)) OVER (), MAX(CAST(NULL AS INTEGER)) OVER (PARTITION BY k), "
                        + "MIN(CAST(NULL AS VARCHAR)) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
                        + "SUM(CAST(NULL AS DECIMAL(12, 2))) OVER (), AVG(CAST(NULL AS INTEGER)) OVER (PARTITION BY k) "
                        + "FROM w",
                // NaN in comparisons and MIN/MAX, whichever row comes first (fuzzer, seed 11, query 837)
                "SELECT id, d > e, d >= e, d < e, d <= e, d = e, d <> e, d > 1000, d NOT BETWEEN -2.25 AND 1000 "
                        + "FROM nan",
                "SELECT k, MAX(d), MIN(d), MAX(e), MIN(e) FROM nan GROUP BY k",
                "SELECT id FROM nan WHERE d > e OR e >= 1e308",
                // ... where Calcite's row engine compares: a non-equi join (a nested loop), a correlated count, a
                // window the row engine computes, a BETWEEN; Java's operators lost every pair with a NaN
                // (RowEngineDoubleOrder)
                "SELECT a.id, b.id FROM nan a JOIN nan b ON a.d > b.e",
                "SELECT a.id, b.id FROM nan a JOIN nan b ON a.d = b.e OR a.d BETWEEN b.e AND b.e + 1",
                "SELECT a.id, b.id, a.d <= b.e, GREATEST(a.d, b.e) FROM nan a JOIN nan b ON a.k < b.k",
                "SELECT a.id, (SELECT COUNT(*) FROM nan b WHERE b.d > a.d) FROM nan a",
                "SELECT id, SUM(d) OVER (ORDER BY id RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) > 1 FROM nan",
                // MIN and MAX of NaN and the infinities in the row engine's aggregate (above a nested loop): MIN of
                // +Infinity was 1.7976931348623157E308 and MAX never chose a NaN (DoubleOrder.MIN, MAX)
                "SELECT a.k, MIN(a.d), MAX(a.d), MIN(b.e), MAX(b.e), COUNT(*) FROM nan a JOIN nan b ON a.k < b.k "
                        + "GROUP BY a.k",
                "SELECT b.k, MIN(a.d), MAX(a.d) FROM nan a JOIN nan b ON a.k < b.k WHERE a.d IS NULL OR a.d > 1e300 "
                        + "GROUP BY b.k",
                // ... and in its windows (a RANGE frame with an offset)
                "SELECT id, MAX(d) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW), MIN(e) OVER (ORDER BY "
                        + "id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW), MIN(d) OVER (ORDER BY id RANGE BETWEEN 2 "
                        + "PRECEDING AND CURRENT ROW) FROM nan",
                // a HAVING over COALESCE in the row engine (above a cross join): id 5's MAX(d) is NULL, not 0.0
                "SELECT e.id FROM edge e JOIN w ON TRUE GROUP BY e.id HAVING COALESCE(MAX(e.d), MIN(w.id) - 10) > -1",
                // ... also of what constant folding makes a NULL literal later (fuzzer, seed 11, query 770)
                "SELECT id, MAX(NULLIF(CAST(NULL AS DATE), dt)) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING), "
                        + "SUM(CASE WHEN k > 3 THEN CAST(NULL AS INTEGER) END) OVER (PARTITION BY k) FROM t1",
                // a window over Ferry rows of no columns (all trimmed): the row engine reads them as empty lists
                "SELECT COUNT(*) OVER () FROM t1 a JOIN t2 b ON a.k = b.k",
                "SELECT CAST(NULL AS INTEGER), COUNT(*) OVER () FROM t1 a LEFT JOIN t1 b ON a.k = b.k WHERE a.id <> 3",
                // MIN/MAX of another literal is the literal, also where the frame can be empty
                "SELECT id, MAX(TIMESTAMP '2999-12-31 23:59:59') OVER (), MIN('x') OVER (PARTITION BY k ORDER BY id), "
                        + "MIN(1.5) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING) FROM w",
                // -0.0 and 0.0 are one partition and tie in RANK, also where the row engine computed them
                "SELECT id, COUNT(*) OVER (PARTITION BY d), RANK() OVER (ORDER BY d NULLS FIRST), "
                        + "DENSE_RANK() OVER (ORDER BY -d DESC NULLS LAST) FROM w",
                "SELECT id, RANK() OVER (ORDER BY x NULLS FIRST), DENSE_RANK() OVER (ORDER BY x DESC NULLS LAST), "
                        + "COUNT(*) OVER (PARTITION BY x) FROM (SELECT id, CASE WHEN id = 2 THEN m ELSE -m END AS x "
                        + "FROM (SELECT id, MIN(d) OVER (PARTITION BY id) AS m FROM w))",
                // NTILE: larger buckets first, one row per bucket when there are fewer rows than buckets
                "SELECT id, NTILE(7) OVER (PARTITION BY k ORDER BY id), NTILE(3) OVER (ORDER BY v NULLS FIRST, id), "
                        + "NTILE(1) OVER (PARTITION BY s ORDER BY id DESC) FROM t1",
                "SELECT id, NTILE(4) OVER (ORDER BY id), NTILE(10) OVER (PARTITION BY k ORDER BY id) FROM w",
                // the fuzzer's other functions and frames, under a total order where ties would decide
                "SELECT id, DENSE_RANK() OVER (PARTITION BY k ORDER BY d NULLS LAST), "
                        + "RANK() OVER (ORDER BY s NULLS FIRST, k NULLS LAST) FROM t1",
                "SELECT id, LAG(s) OVER (PARTITION BY k ORDER BY id), LEAD(d, 2) OVER (ORDER BY v NULLS LAST, id), "
                        + "LAG(k, 3, 42) OVER (ORDER BY id), LEAD(s, 1, 'none') OVER (PARTITION BY k ORDER BY id DESC) "
                        + "FROM t1",
                "SELECT id, FIRST_VALUE(s) OVER (PARTITION BY k ORDER BY id), FIRST_VALUE(d) OVER (ORDER BY id "
                        + "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), FIRST_VALUE(v) OVER (PARTITION BY s ORDER BY id "
                        + "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t1",
                "SELECT id, MIN(s) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING), MAX(d) OVER (PARTITION BY k "
                        + "ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), COUNT(*) OVER (ORDER BY id ROWS "
                        + "BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), AVG(d) OVER (PARTITION BY k) FROM t1");
    }

    /** {@code n} integer constants, {@code step} apart. */
    private static String constants(int n, int step) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(String.valueOf(i * step));
        }
        return String.join(", ", out);
    }

    /** {@code n} DATE literals a week apart in t1's range. */
    private static String dates(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("DATE '" + LocalDate.of(1993, 1, 1).plusDays(7L * i) + "'");
        }
        return String.join(", ", out);
    }

    static Stream<String> ordered() {
        return Stream.of(
                "SELECT id, v FROM t1 ORDER BY v DESC NULLS LAST, id LIMIT 10",
                "SELECT id, s FROM t1 ORDER BY s NULLS FIRST, id LIMIT 25 OFFSET 5",
                "SELECT k, COUNT(*) AS c FROM t1 GROUP BY k ORDER BY c DESC, k NULLS LAST",
                "SELECT id, d FROM t1 ORDER BY d NULLS LAST, id",
                "SELECT id, dt, p FROM t1 ORDER BY dt DESC NULLS LAST, p NULLS FIRST, id LIMIT 100",
                "SELECT t2.name, SUM(t1.v) AS total FROM t1 JOIN t2 ON t1.k = t2.k GROUP BY t2.name "
                        + "ORDER BY total DESC NULLS LAST, t2.name LIMIT 5",
                // an ORDER BY over the row engine's -0.0 and 0.0 ties them, and the next key decides
                "SELECT id, CASE WHEN id = 2 THEN m ELSE -m END AS x FROM (SELECT id, MIN(d) OVER (PARTITION BY id) "
                        + "AS m FROM w) ORDER BY x NULLS FIRST, id DESC",
                "SELECT id, -(MAX(d) OVER (PARTITION BY id)) * CASE WHEN id > 3 THEN -1 ELSE 1 END AS x FROM w "
                        + "ORDER BY x NULLS LAST, id DESC LIMIT 4",
                "SELECT id, d, RANK() OVER (ORDER BY d NULLS FIRST) FROM w ORDER BY d NULLS FIRST, id DESC");
    }

    @org.junit.jupiter.api.Test
    void createTableAsSelectAndInsertSelectMatchDuckDb() throws SQLException {
        exec("CREATE TABLE agg AS SELECT k, s, COUNT(*) AS c, SUM(v) AS sv, MAX(dt) AS last_day FROM t1 GROUP BY k, s");
        exec("INSERT INTO agg SELECT k, name, 1, w, NULL FROM t2");
        ResultComparison.assertSameResult(ferry, duck, "SELECT * FROM agg", false);
        ResultComparison.assertSameResult(ferry, duck, "SELECT k, SUM(c), COUNT(last_day) FROM agg GROUP BY k", false);
        exec("DROP TABLE agg");
    }

    /**
     * Parameters of a VALUES list of several rows are bound at run time, not folded while planning (they were
     * folded to NULL, found by the fuzzer, which loads its non-Latin-1 strings and -0.0 this way).
     */
    @org.junit.jupiter.api.Test
    void aPreparedInsertOfSeveralRowsStoresItsParameters() throws SQLException {
        exec("CREATE TABLE bound (id INTEGER, s VARCHAR, d DOUBLE, b BIGINT)");
        String insert = "INSERT INTO bound VALUES (1, ?, ?, ?), (2, 'x', 1.5, 7), (3, UPPER(CAST(? AS VARCHAR)), CAST(? AS DOUBLE) * 2, ?)";
        for (Connection c : List.of(ferry, duck)) {
            try (java.sql.PreparedStatement p = c.prepareStatement(insert)) {
                Object[] values = {"Zürich ✓ 東京", -0.0, 9223372036854775807L, "🦆x", 2.25, -9223372036854775808L};
                for (int i = 0; i < values.length; i++) {
                    p.setObject(i + 1, values[i]);
                }
                p.executeUpdate();
            }
        }
        ResultComparison.assertSameResult(ferry, duck, "SELECT * FROM bound", false);
        exec("DROP TABLE bound");
    }

    /**
     * A windowed SUM of BIGINTs past the BIGINT range is exact, a DECIMAL(38, 0) as DuckDB's HUGEINT, where it had
     * wrapped and later failed with 22003.
     */
    @ParameterizedTest
    @MethodSource("overflowing")
    void aWindowedSumPastBigintIsExact(String sql) throws SQLException {
        BigDecimal largest = BigDecimal.ZERO;
        for (List<Object> row : ResultComparison.rows(duck, sql)) {
            if (row.get(1) != null) {
                largest = largest.max(new BigDecimal(row.get(1).toString()).abs());
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(largest.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0,
                "the test sums past BIGINT: " + sql);
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    static Stream<String> overflowing() {
        return Stream.of(
                "SELECT id, SUM(b) OVER (PARTITION BY k) FROM w",
                "SELECT id, SUM(b) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w",
                "SELECT id, SUM(CAST('9223372036854775807' AS BIGINT)) OVER () FROM w",
                "SELECT id, SUM(b) OVER (PARTITION BY k ORDER BY id ROWS UNBOUNDED PRECEDING) FROM w");
    }

    @ParameterizedTest
    @MethodSource("unordered")
    void sameRowsAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("ordered")
    void sameOrderedRowsAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, true);
    }

    /**
     * Every table of a join may be sampled, each by its own method and seed: the sampled join is the join of the two
     * samples. t1's unique id lets DuckDB hold exactly the rows each of Ferry's samples kept.
     */
    @org.junit.jupiter.api.Test
    void aJoinOfSampledTablesJoinsTheSamples() throws SQLException {
        String system = "t1 TABLESAMPLE SYSTEM(40) REPEATABLE(11)";
        String bernoulli = "t1 TABLESAMPLE BERNOULLI(30) REPEATABLE(12)";
        for (String[] sample : new String[][] {{"sa", system}, {"sb", bernoulli}}) {
            List<String> ids = new ArrayList<>();
            for (List<Object> row : ResultComparison.rows(ferry, "SELECT id FROM " + sample[1])) {
                ids.add(String.valueOf(row.get(0)));
            }
            org.junit.jupiter.api.Assertions.assertTrue(ids.size() > 300 && ids.size() < 5000,
                    sample[1] + " kept " + ids.size());
            try (Statement d = duck.createStatement()) {
                d.execute("CREATE TABLE " + sample[0] + " AS SELECT * FROM t1 WHERE id IN (" + String.join(", ", ids)
                        + ")");
            }
        }
        // Calcite takes the alias before TABLESAMPLE
        String join = "SELECT x.k, COUNT(*), SUM(y.v), MIN(y.s) FROM %s JOIN %s ON x.k = y.k WHERE y.flag GROUP BY x.k";
        ResultComparison.assertSameResult(ferry, String.format(join, system.replace("t1", "t1 x"),
                bernoulli.replace("t1", "t1 y")), duck, String.format(join, "sa x", "sb y"), false);
        ResultComparison.assertSameResult(ferry, String.format(join, bernoulli.replace("t1", "t1 x"),
                system.replace("t1", "t1 y")), duck, String.format(join, "sb x", "sa y"), false);
    }
}
