package io.ferry.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The rows and queries that check ordered-set aggregates, APPROX_PERCENTILE and grouping sets against DuckDB, shared
 * by the local test ({@link OrderedSetAggregatesTest}) and the cluster's. Table {@code q} has NULLs in every column,
 * duplicates, -0.0 beside 0.0, negative numbers, dates before 1582, and a group (g = 99) whose values are all NULL;
 * {@code q_empty} has no rows.
 */
public final class AggregateQueries {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private AggregateQueries() {
    }

    /** Creates and fills {@code q} and {@code q_empty} in each connection, the same rows in each. */
    public static void load(Connection... connections) throws SQLException {
        List<String> statements = new ArrayList<>();
        statements.add("CREATE TABLE q (id INTEGER, g INTEGER, i INTEGER, b BIGINT, d DOUBLE, p DECIMAL(12, 2), "
                + "dt DATE, ts TIMESTAMP)");
        statements.add("CREATE TABLE q_empty (g INTEGER, i INTEGER, d DOUBLE)");
        Random rnd = new Random(15);
        List<String> rows = new ArrayList<>();
        for (int id = 0; id < 4000; id++) {
            boolean allNull = id % 97 == 0;
            rows.add("(" + id + ", " + (allNull ? "99" : nullable(rnd, String.valueOf(rnd.nextInt(12)))) + ", "
                    + value(rnd, allNull, String.valueOf(rnd.nextInt(200) - 50)) + ", "
                    + value(rnd, allNull, String.valueOf(rnd.nextLong() % 10_000_000_000L)) + ", "
                    + value(rnd, allNull, rnd.nextInt(50) == 0 ? "CAST('-0.0' AS DOUBLE)"
                            : String.valueOf(Math.round(rnd.nextGaussian() * 1e5) / 1e2)) + ", "
                    + value(rnd, allNull, String.format("%d.%02d", rnd.nextInt(20_000) - 10_000, rnd.nextInt(100)))
                    + ", " + value(rnd, allNull, "DATE '" + LocalDate.of(1500, 1, 1).plusDays(rnd.nextInt(200_000)) + "'")
                    + ", " + value(rnd, allNull, "TIMESTAMP '" + LocalDateTime.of(1960, 1, 1, 0, 0)
                            .plusSeconds(rnd.nextInt(2_000_000_000)).format(TIMESTAMP) + "'") + ")");
        }
        for (int from = 0; from < rows.size(); from += 500) {
            statements.add("INSERT INTO q VALUES " + String.join(", ", rows.subList(from, Math.min(rows.size(),
                    from + 500))));
        }
        for (Connection c : connections) {
            try (Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
        }
    }

    private static String nullable(Random rnd, String v) {
        return rnd.nextInt(12) == 0 ? "NULL" : v;
    }

    private static String value(Random rnd, boolean allNull, String v) {
        return allNull ? "NULL" : nullable(rnd, v);
    }

    /** MEDIAN, PERCENTILE_CONT and PERCENTILE_DISC over every type they take, at fractions from 0 to 1. */
    public static List<String> exactQuantiles() {
        List<String> out = new ArrayList<>();
        for (String where : List.of("", " WHERE id % 3 = 0")) {
            out.add("SELECT MEDIAN(i), MEDIAN(b), MEDIAN(d), PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY p) FROM q"
                    + where);
            out.add("SELECT g, MEDIAN(i), MEDIAN(b), MEDIAN(d), COUNT(*) FROM q" + where + " GROUP BY g");
            for (String f : List.of("0", "0.1", "0.25", "0.28", "0.5", "0.56", "0.9", "0.999", "1")) {
                out.add("SELECT g, PERCENTILE_CONT(" + f + ") WITHIN GROUP (ORDER BY i), PERCENTILE_DISC(" + f
                        + ") WITHIN GROUP (ORDER BY i), PERCENTILE_CONT(" + f + ") WITHIN GROUP (ORDER BY d DESC), "
                        + "PERCENTILE_DISC(" + f + ") WITHIN GROUP (ORDER BY b DESC) FROM q" + where + " GROUP BY g");
                out.add("SELECT g % 3, PERCENTILE_DISC(" + f + ") WITHIN GROUP (ORDER BY p), PERCENTILE_DISC(" + f
                        + ") WITHIN GROUP (ORDER BY dt), PERCENTILE_DISC(" + f + ") WITHIN GROUP (ORDER BY ts DESC), "
                        + "PERCENTILE_DISC(" + f + ") WITHIN GROUP (ORDER BY d) FROM q" + where + " GROUP BY g % 3");
                out.add("SELECT g, PERCENTILE_CONT(" + f + ") WITHIN GROUP (ORDER BY p), PERCENTILE_CONT(" + f
                        + ") WITHIN GROUP (ORDER BY p DESC) FROM q" + where + " GROUP BY g");
            }
            out.add("SELECT g, MEDIAN(p), SUM(p), AVG(d), MIN(dt) FROM q" + where + " GROUP BY g");
        }
        // several quantiles of one argument share its state; beside plain aggregates, over joined and computed input
        out.add("SELECT g, PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY i), MEDIAN(i), PERCENTILE_CONT(0.75) "
                + "WITHIN GROUP (ORDER BY i), MAX(i), COUNT(i) FROM q GROUP BY g");
        out.add("SELECT a.g, MEDIAN(a.i + b.i) FROM q a JOIN q b ON a.id = b.id + 1 GROUP BY a.g");
        out.add("SELECT MEDIAN(i), PERCENTILE_DISC(0.3) WITHIN GROUP (ORDER BY d) FROM q WHERE g = 99");
        out.add("SELECT MEDIAN(i), PERCENTILE_CONT(0.3) WITHIN GROUP (ORDER BY d) FROM q_empty");
        out.add("SELECT g, MEDIAN(i) FROM q_empty GROUP BY g");
        out.add("SELECT g, MEDIAN(d) FROM q GROUP BY g HAVING MEDIAN(d) > 0");
        return out;
    }

    /**
     * GROUPING SETS, ROLLUP and CUBE with GROUPING() and GROUPING_ID(), over NULL keys that are not grouped-away NULLs
     * (integer, text, date and decimal keys), with FILTER, DISTINCT, quantiles, HAVING and ORDER BY, over empty input.
     */
    public static List<String> groupingSets() {
        return List.of(
                "SELECT g, i % 3, COUNT(*), SUM(b), MIN(d), MAX(dt) FROM q GROUP BY ROLLUP(g, i % 3)",
                "SELECT g, i % 3, COUNT(*), SUM(b), AVG(d), GROUPING(g), GROUPING(g, i % 3) FROM q "
                        + "GROUP BY CUBE(g, i % 3)",
                "SELECT g, dt, COUNT(d), GROUPING(dt, g) FROM q WHERE id < 400 GROUP BY GROUPING SETS ((g), (dt), ())",
                "SELECT g, i % 2, SUM(p), COUNT(DISTINCT i) FROM q GROUP BY GROUPING SETS ((g, i % 2), (g))",
                "SELECT g, COUNT(*) FROM q GROUP BY ROLLUP(g) HAVING GROUPING(g) = 1 OR COUNT(*) > 300",
                "SELECT COUNT(*), SUM(i) FROM q GROUP BY GROUPING SETS (())",
                // a repeated key and a constant one in a ROLLUP: Calcite makes the repeated set a UNION ALL branch, and
                // pulling the constant out of it, then merging projections, failed its type check (XX000, fuzzer seed
                // 1008 query 1683); pulled out of the grouping sets, the constant lost the sets without it
                "SELECT MAX(''), COUNT(*) FROM q GROUP BY ROLLUP((12.345 NOT BETWEEN -0.001 AND 3), dt, dt)",
                "SELECT g, MAX(i), GROUPING(g) FROM q GROUP BY ROLLUP(TRUE, g, g)",
                "SELECT 'k', g, SUM(b) FROM q GROUP BY CUBE('k', g)",
                // the empty set gives its grand-total row over no rows too
                "SELECT g, i % 3, COUNT(*), SUM(i), GROUPING(g), GROUPING(g, i % 3) FROM q_empty "
                        + "GROUP BY ROLLUP(g, i % 3)",
                "SELECT g, COUNT(*), MAX(d) FROM q WHERE i > 1000000 GROUP BY CUBE(g)",
                "SELECT g, d, COUNT(*), GROUPING(d, g) FROM q GROUP BY GROUPING SETS ((g, d), (d), ()) "
                        + "HAVING COUNT(*) > 1",
                // text, date and decimal keys with NULLs; a NULL key and a rolled-up NULL told apart by GROUPING
                "SELECT CAST(g AS VARCHAR) AS s, dt, p, COUNT(*), COUNT(i), SUM(i), AVG(p), MIN(d), MAX(CAST(i AS "
                        + "VARCHAR)), GROUPING(CAST(g AS VARCHAR)), GROUPING(dt), GROUPING(p) FROM q WHERE id % 5 = 0 "
                        + "GROUP BY ROLLUP(CAST(g AS VARCHAR), dt, p)",
                "SELECT g, p, COUNT(*), GROUPING_ID(g, p), GROUPING(p, g), GROUPING(g, p, g) FROM q WHERE id % 7 = 0 "
                        + "GROUP BY CUBE(g, p)",
                // duplicate sets give their rows twice, as in DuckDB
                "SELECT g, COUNT(*), SUM(d) FROM q GROUP BY GROUPING SETS ((g), (g), (), ())",
                // ... and so do a ROLLUP's and a CUBE's that repeat a key (RepeatedGroupingKeys; Calcite's sets of
                // bitmaps kept one of each, fuzzer)
                "SELECT g, COUNT(*), SUM(d) FROM q GROUP BY ROLLUP(g, g)",
                "SELECT g, i % 3, COUNT(*), GROUPING(g), GROUPING(i % 3) FROM q GROUP BY CUBE(g, i % 3, g)",
                "SELECT g, dt, MIN(p) FROM q WHERE id % 3 = 0 GROUP BY ROLLUP((g, dt), g)",
                // a grand-total set answers its row over a filter that is never true, which the planner proves
                // empty (Calcite's pruning of aggregates over empty inputs dropped it)
                "SELECT g, COUNT(*), SUM(d) FROM q WHERE FALSE GROUP BY GROUPING SETS ((g), ())",
                "SELECT COUNT(*), MAX(d), GROUPING(g) FROM q WHERE 1 = 0 GROUP BY ROLLUP(g, i % 3)",
                "SELECT g FROM q WHERE id < 0 AND id > 0 GROUP BY CUBE(g)",
                "SELECT g, i % 2, COUNT(*) FILTER (WHERE d > 0), SUM(i) FILTER (WHERE b > 0), AVG(d) FILTER (WHERE "
                        + "i > 10), MAX(dt) FILTER (WHERE i < 0) FROM q GROUP BY CUBE(g, i % 2)",
                "SELECT g, COUNT(DISTINCT i), SUM(DISTINCT i % 10), COUNT(*) FROM q GROUP BY ROLLUP(g)",
                "SELECT g, COUNT(DISTINCT i) FROM q GROUP BY ROLLUP(g)",
                "SELECT g, i % 3, MEDIAN(d), PERCENTILE_DISC(0.25) WITHIN GROUP (ORDER BY i), COUNT(*) FROM q "
                        + "GROUP BY ROLLUP(g, i % 3)",
                "SELECT g, CORR(d, i), STRING_AGG(CAST(g AS VARCHAR), '') FILTER (WHERE id = 5) FROM q "
                        + "GROUP BY ROLLUP(g)",
                "SELECT g, i % 3 AS m, SUM(b), GROUPING(g) + GROUPING(i % 3) AS lvl FROM q GROUP BY ROLLUP(g, i % 3) "
                        + "HAVING SUM(b) > 0 OR GROUPING(g) = 1 ORDER BY lvl DESC, g NULLS FIRST, m NULLS LAST",
                "SELECT g, dt, COUNT(*), GROUPING(g) FROM q GROUP BY GROUPING SETS ((g), (dt)) "
                        + "ORDER BY 3 DESC, 4, 1 NULLS LAST, 2 NULLS LAST LIMIT 10",
                "SELECT g, i % 2, COUNT(*), SUM(d), MAX(d), GROUPING(g, i % 2) FROM q_empty GROUP BY CUBE(g, i % 2)",
                "SELECT COUNT(*), SUM(i), MIN(d) FROM q_empty GROUP BY GROUPING SETS ((), ())",
                "SELECT g, COUNT(*) FROM q_empty GROUP BY GROUPING SETS ((g), ()) HAVING COUNT(*) = 0",
                // grouping sets over a join; more sets than keys
                "SELECT a.g, b.g, COUNT(*), SUM(a.i + b.i) FROM q a JOIN q b ON a.id = b.id + 1 "
                        + "GROUP BY ROLLUP(a.g, b.g)",
                "SELECT g, i % 2 AS m, dt > DATE '1800-01-01' AS late, COUNT(*), SUM(d) FROM q "
                        + "GROUP BY GROUPING SETS ((g, i % 2), (i % 2, dt > DATE '1800-01-01'), (g), (g, i % 2), ())",
                // two keys of one value are two keys: i is NULL in the second set's rows, i * 1 in the first's
                // (the simplified i * 1 merged with i, fuzzer seed 432 query 2127)
                "SELECT CAST('-0.0' AS DOUBLE) + b.i FROM q a JOIN q b ON a.id = b.id + 1 WHERE a.id < 50 "
                        + "GROUP BY GROUPING SETS ((b.i, a.dt), (b.i * 1))",
                "SELECT i, i * 1, g + 0, COUNT(*), GROUPING(i, g) FROM q GROUP BY GROUPING SETS ((i, g), (i * 1), (g + 0))",
                // HAVING on a key some sets roll up stays above the aggregate, also where the keys are not the
                // input's first columns (i, output 1, was taken for input column 1, g: fuzzer seed 512 q818)
                "SELECT g, i, b, COUNT(*), GROUPING(b, i, g) FROM q GROUP BY CUBE(b, i), g HAVING i > 0");
    }

    /**
     * AVG of BIGINTs whose group sums pass 2^53, each row k times in group k: equal means of groups of different
     * sizes must be one value, in Calcite's row engine (the cross join) as in Ferry's aggregate (the equi-join), or
     * a DISTINCT keeps two (fuzzer, seed 311 query 2072).
     */
    public static List<String> largeAverages() {
        String multiples = java.util.stream.IntStream.rangeClosed(1, 15).boxed()
                .flatMap(k -> java.util.Collections.nCopies(k, "(" + k + ")").stream())
                .collect(java.util.stream.Collectors.joining(", "));
        return List.of(
                "SELECT COUNT(*), MIN(m) FROM (SELECT DISTINCT AVG(a.b * 100001) AS m FROM q a JOIN (VALUES "
                        + multiples + ") v(k) ON TRUE GROUP BY v.k) t",
                "SELECT COUNT(*), MIN(m) FROM (SELECT DISTINCT AVG(a.b * 100001) AS m FROM q a JOIN (VALUES "
                        + multiples + ") v(k) ON a.g = v.k % 3 GROUP BY v.k, a.g) t");
    }

    /**
     * FILTER on every aggregate Ferry runs, DISTINCT beside plain calls and over several arguments, the two-variable
     * statistics, ANY_VALUE and STRING_AGG (one value per group, where the order of joining cannot matter), with and
     * without GROUP BY, over integral, multi-column and text keys, NULLs and empty input.
     */
    public static List<String> moreAggregates() {
        return List.of(
                "SELECT g, COUNT(*) FILTER (WHERE i > 0), COUNT(d) FILTER (WHERE b > 0), SUM(i) FILTER (WHERE d < 0), "
                        + "AVG(d) FILTER (WHERE i % 2 = 0), MIN(dt) FILTER (WHERE i > 10), MAX(p) FILTER (WHERE d > 0), "
                        + "SUM(p) FILTER (WHERE i < 0), AVG(i) FILTER (WHERE i > 1000) FROM q GROUP BY g",
                "SELECT COUNT(*) FILTER (WHERE i > 0), SUM(b) FILTER (WHERE i IS NULL), "
                        + "COUNT(DISTINCT i) FILTER (WHERE d > 0), MEDIAN(d) FILTER (WHERE i > 0) FROM q",
                "SELECT g, MEDIAN(d) FILTER (WHERE i > 0), COUNT(DISTINCT i) FILTER (WHERE d > 0), SUM(i) FROM q "
                        + "GROUP BY g",
                "SELECT COUNT(*) FILTER (WHERE i > 0), SUM(i) FILTER (WHERE d > 0) FROM q_empty",
                "SELECT g, SUM(i), COUNT(DISTINCT b % 100), COUNT(*) FROM q GROUP BY g",
                "SELECT g, BOOL_AND(i > 0), BOOL_OR(d > 0), BOOL_AND(i > 0) FILTER (WHERE d < 0) FROM q GROUP BY g",
                "SELECT g, COUNT(DISTINCT i), COUNT(DISTINCT d), SUM(DISTINCT i), AVG(DISTINCT i), MAX(DISTINCT dt), "
                        + "SUM(DISTINCT p) FROM q GROUP BY g",
                "SELECT g, i % 3, COUNT(DISTINCT CAST(id % 13 AS VARCHAR)), SUM(p), AVG(DISTINCT p) FROM q "
                        + "GROUP BY g, i % 3",
                "SELECT CAST(g AS VARCHAR), COUNT(DISTINCT i), MIN(d), COUNT(DISTINCT CAST(i AS VARCHAR)) FROM q "
                        + "GROUP BY CAST(g AS VARCHAR)",
                "SELECT SUM(i), COUNT(DISTINCT i), COUNT(DISTINCT d) FROM q",
                "SELECT SUM(i), COUNT(DISTINCT i) FROM q_empty",
                "SELECT g, SUM(i), COUNT(DISTINCT d) FROM q_empty GROUP BY g",
                "SELECT g, COUNT(DISTINCT (i % 5, d > 0)) FROM q GROUP BY g",
                // two row values: Calcite expands them over grouping sets, whose outer COUNT has four arguments each
                "SELECT g, COUNT(DISTINCT (i % 5, dt)), COUNT(DISTINCT (b % 7, p)), SUM(i) FROM q GROUP BY g",
                "SELECT COUNT(DISTINCT (i % 3, g, id % 4)), COUNT(DISTINCT (g, dt)) FROM q",
                "SELECT g, COVAR_POP(d, i), COVAR_SAMP(i, d), CORR(d, b), REGR_SLOPE(d, i), REGR_INTERCEPT(d, i), "
                        + "REGR_R2(d, i), REGR_COUNT(d, i), REGR_AVGX(d, i), REGR_AVGY(d, i), REGR_SXX(d, i), "
                        + "REGR_SYY(d, i), REGR_SXY(d, p) FROM q GROUP BY g",
                "SELECT CORR(b, b), COVAR_POP(b, i), REGR_SLOPE(i, p), COVAR_SAMP(p, p), CORR(i, d) FROM q",
                "SELECT CORR(d, i), COVAR_SAMP(d, i), REGR_COUNT(d, i) FROM q_empty",
                "SELECT g, CORR(d, i) FILTER (WHERE i > 0), COVAR_POP(d, i), SUM(i), COUNT(DISTINCT i) FROM q GROUP BY g",
                "SELECT id % 500, COVAR_SAMP(d, i), REGR_INTERCEPT(d, i), REGR_R2(d, i), CORR(d, i) FROM q "
                        + "WHERE id < 600 GROUP BY id % 500",
                "SELECT g, ANY_VALUE(g * 2), ANY_VALUE(CAST(g AS VARCHAR)), COUNT(*) FROM q GROUP BY g",
                "SELECT ANY_VALUE(i) FROM q WHERE g = 99",
                "SELECT id, STRING_AGG(CAST(i AS VARCHAR), ';'), STRING_AGG(CAST(g AS VARCHAR) || 'x', '') FROM q "
                        + "WHERE id < 300 GROUP BY id",
                "SELECT STRING_AGG(CAST(i AS VARCHAR), ',') FROM q_empty",
                // many values: their order of joining is unspecified, their total length is not
                "SELECT g, CHAR_LENGTH(STRING_AGG(CAST(id AS VARCHAR), ',')) FROM q WHERE id % 97 = 0 GROUP BY g");
    }

    /**
     * STRING_AGG(... ORDER BY ...) over every key type Ferry has (integers, DECIMAL, DOUBLE with -0.0 beside 0.0,
     * VARCHAR, DATE, TIMESTAMP, BOOLEAN), several keys, DESC, NULLS FIRST and LAST, FILTER, beside other calls, with
     * and without GROUP BY, under ROLLUP, over NULL values and empty input. Every ORDER BY ends with the unique id, so
     * that no two rows tie and the order of joining is DuckDB's too. A DESC key names where its NULLs go: DuckDB puts
     * them last by default, PostgreSQL (and Ferry, with Calcite) first.
     */
    public static List<String> orderedStringAggregates() {
        return List.of(
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY id) FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ';' ORDER BY i DESC NULLS FIRST, id) FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), '' ORDER BY b, id DESC) FROM q WHERE id < 2000 GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY d NULLS FIRST, id) FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY d DESC NULLS LAST, id DESC) FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY p DESC NULLS LAST, id) FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(i AS VARCHAR), '|' ORDER BY dt, id), STRING_AGG(CAST(id AS VARCHAR), '|' "
                        + "ORDER BY ts DESC NULLS FIRST, id) FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY CAST(i AS VARCHAR) NULLS FIRST, id) FROM q "
                        + "GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY CAST(b AS VARCHAR) DESC NULLS LAST, id) "
                        + "FROM q GROUP BY g",
                "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY i > 0 DESC NULLS LAST, d > 0, id) FROM q "
                        + "GROUP BY g",
                "SELECT g % 5, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY g % 3 DESC NULLS LAST, dt NULLS FIRST, "
                        + "i, id) FROM q GROUP BY g % 5",
                "SELECT g, COUNT(*), STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY d, id) FILTER (WHERE i > 0), SUM(i), "
                        + "STRING_AGG(CAST(i AS VARCHAR), ', ' ORDER BY id DESC), STRING_AGG(CAST(g AS VARCHAR), '') "
                        + "FILTER (WHERE id = 7), MEDIAN(d) FROM q GROUP BY g",
                "SELECT STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY b NULLS FIRST, id) FROM q WHERE id < 700",
                "SELECT STRING_AGG(CAST(i AS VARCHAR), ',' ORDER BY d) FROM q_empty",
                "SELECT g, STRING_AGG(CAST(i AS VARCHAR), ',' ORDER BY d DESC NULLS LAST) FROM q_empty GROUP BY g",
                "SELECT CAST(g AS VARCHAR), STRING_AGG(CAST(i AS VARCHAR) || 'x', '-' ORDER BY p, id) FROM q "
                        + "WHERE id % 97 < 5 GROUP BY CAST(g AS VARCHAR)",
                "SELECT g, i % 3, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY id DESC), COUNT(*) FROM q "
                        + "WHERE id < 1200 GROUP BY ROLLUP(g, i % 3)",
                // DISTINCT orders by its arguments only, as in PostgreSQL and DuckDB
                "SELECT g, STRING_AGG(DISTINCT CAST(i % 7 AS VARCHAR), ',' ORDER BY CAST(i % 7 AS VARCHAR) DESC "
                        + "NULLS LAST), SUM(i) FROM q GROUP BY g",
                "SELECT STRING_AGG(DISTINCT CAST(g AS VARCHAR), '-' ORDER BY CAST(g AS VARCHAR)), COUNT(*), "
                        + "STRING_AGG(DISTINCT CAST(b % 4 AS VARCHAR), '' ORDER BY CAST(b % 4 AS VARCHAR)) FILTER "
                        + "(WHERE d > 0) FROM q",
                "SELECT g % 2, STRING_AGG(DISTINCT CAST(i % 5 AS VARCHAR), ';' ORDER BY CAST(i % 5 AS VARCHAR)) "
                        + "FROM q GROUP BY CUBE(g % 2)");
    }
}
