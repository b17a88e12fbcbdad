package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.apache.datasketches.kll.KllSketch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MEDIAN, PERCENTILE_CONT and PERCENTILE_DISC against DuckDB's exact answers; APPROX_PERCENTILE against the rank its
 * answer has in DuckDB's copy of the data; GROUPING SETS, ROLLUP and CUBE against DuckDB; FILTER, DISTINCT beside
 * other calls, COUNT(DISTINCT a, b), the two-variable statistics, ANY_VALUE and STRING_AGG against DuckDB, each run
 * in Ferry's aggregate (no EnumerableAggregate in the plan). Small blocks (8 KiB) spread
 * each table over many blocks and both threads, so partial states are merged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderedSetAggregatesTest {
    private static final int APPROX_ROWS = 30_000;
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void load() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        AggregateQueries.load(ferry, duck);
        // a skewed column (x), a wide integer one (n) and a DECIMAL, in 4 groups of unequal size
        Random rnd = new Random(7);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < APPROX_ROWS; i++) {
            rows.add("(" + (i % 7 % 4) + ", " + Math.round(Math.exp(rnd.nextGaussian() * 2) * 1e6) / 1e6 + ", " + (rnd.nextLong() >> 20) + ", "
                    + (rnd.nextInt(2_000_000) - 1_000_000) / 100.0 + ")");
        }
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE big (g INTEGER, x DOUBLE, n BIGINT, p DECIMAL(10, 2))");
                for (int from = 0; from < rows.size(); from += 500) {
                    s.execute("INSERT INTO big VALUES " + String.join(", ", rows.subList(from, from + 500)));
                }
            }
        }
    }

    @AfterAll
    void close() throws Exception {
        ferry.close();
        duck.close();
        engine.close();
    }

    static Stream<String> exactQuantiles() {
        return AggregateQueries.exactQuantiles().stream();
    }

    static Stream<String> groupingSets() {
        return AggregateQueries.groupingSets().stream();
    }

    @ParameterizedTest
    @MethodSource("exactQuantiles")
    void exactQuantilesMatchDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("groupingSets")
    void groupingSetsMatchDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("groupingSets")
    void groupingSetsRunInFerrysAggregate(String sql) throws SQLException {
        String plan = explain(sql);
        assertFalse(plan.contains("EnumerableAggregate"), plan);
    }

    /**
     * Over a FULL join without an equality, which only the row engine runs, grouping sets stay there; () still gives
     * its row.
     */
    @Test
    void groupingSetsOverTheRowEngineKeepTheGrandTotal() throws SQLException {
        // what Ferry's engine does not run (an interval cast to text) keeps the join and the rollup there
        String window = ", CHAR_LENGTH(CAST(COALESCE(i, 0) * INTERVAL '1' DAY AS VARCHAR)) AS w";
        for (String from : List.of("(SELECT * FROM (SELECT g, i" + window + " FROM q_empty) WHERE w > 0)",
                "(SELECT * FROM (SELECT g, i" + window + " FROM q WHERE id < 500) WHERE w > 0)")) {
            String sql = "SELECT a.g, COUNT(*), SUM(a.i), GROUPING(a.g) FROM " + from + " a FULL JOIN " + from
                    + " b ON a.g < b.g AND a.i > b.i + 150 GROUP BY ROLLUP(a.g)";
            ResultComparison.assertSameResult(ferry, duck, sql, false);
            String plan = explain(sql);
            assertTrue(plan.contains("GrandTotalFill") && plan.contains("EnumerableAggregate"), plan);
        }
    }

    /** Quantiles run in Ferry's aggregate, not in a row-engine fallback. */
    @Test
    void quantilesRunInFerrysAggregate() throws SQLException {
        String plan = explain("SELECT g, MEDIAN(i), PERCENTILE_DISC(0.1) WITHIN GROUP (ORDER BY dt DESC), "
                + "APPROX_PERCENTILE(d, 0.9) FROM q GROUP BY g");
        assertTrue(plan.contains("FerryAggregate"), plan);
        assertFalse(plan.contains("EnumerableAggregate"), plan);
        assertTrue(plan.contains("percentile_disc[0.1 desc]") && plan.contains("median[0.5]"), plan);
    }

    /**
     * Each estimate's rank among DuckDB's copy of the rows is within KLL's normalized rank error (single quantile,
     * 99% confidence) of the fraction asked for: the rows below it and the rows up to it bracket the fraction.
     */
    @Test
    void approximatePercentilesAreWithinTheSketchRankError() throws SQLException {
        double epsilon = KllSketch.getNormalizedRankError(200, false);
        double[] fractions = {0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1};
        for (String column : List.of("x", "n", "p")) {
            for (double f : fractions) {
                String sql = "SELECT g, APPROX_PERCENTILE(" + column + ", " + f + "), APPROX_QUANTILE(" + column
                        + ", " + f + ") FROM big GROUP BY g";
                int groups = 0;
                for (List<Object> row : ResultComparison.rows(ferry, sql)) {
                    groups++;
                    for (int k = 1; k <= 2; k++) {
                        BigDecimal estimate = (BigDecimal) row.get(k);
                        List<Object> rank = ResultComparison.rows(duck, "SELECT COUNT(*) FILTER (WHERE " + column
                                + " < " + estimate + "), COUNT(*) FILTER (WHERE " + column + " <= " + estimate + "), "
                                + "COUNT(" + column + ") FROM big WHERE g = " + row.get(0)).get(0);
                        double n = ((BigDecimal) rank.get(2)).doubleValue();
                        double below = ((BigDecimal) rank.get(0)).doubleValue() / n;
                        double upTo = ((BigDecimal) rank.get(1)).doubleValue() / n;
                        assertTrue(below - epsilon <= f && f <= upTo + epsilon, sql + ": group " + row.get(0)
                                + " estimate " + estimate + " has rank [" + below + ", " + upTo + "], epsilon "
                                + epsilon);
                    }
                }
                assertEquals(4, groups, sql);
            }
        }
    }

    /** Over few values the sketch holds them all, and its quantile is one of them, as PERCENTILE_DISC picks. */
    @Test
    void approximatePercentilesOfFewValuesAreExact() throws SQLException {
        ResultComparison.assertSameResult(ferry, "SELECT g, APPROX_PERCENTILE(i, 0.5), APPROX_QUANTILE(d, 0.9) FROM q "
                + "WHERE id < 300 GROUP BY g", duck, "SELECT g, PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY i), "
                + "PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY d) FROM q WHERE id < 300 GROUP BY g", false);
        ResultComparison.assertSameResult(ferry, "SELECT APPROX_PERCENTILE(i, 0.5) FROM q_empty", duck,
                "SELECT APPROX_QUANTILE(i, 0.5) FROM q_empty", false);
    }

    @Test
    void aFractionOutsideZeroToOneIsAnInvalidParameter() {
        for (String sql : List.of("SELECT PERCENTILE_CONT(1.5) WITHIN GROUP (ORDER BY i) FROM q",
                "SELECT PERCENTILE_DISC(-0.1) WITHIN GROUP (ORDER BY i) FROM q", "SELECT APPROX_PERCENTILE(d, 2) FROM q",
                "SELECT APPROX_QUANTILE(d, -1) FROM q")) {
            SqlErrors.Translated e = error(sql);
            assertEquals("22023", e.sqlState(), sql + ": " + e.message());
            assertTrue(e.message().contains("from 0 to 1"), e.message());
        }
    }

    @Test
    void aQuantileOfTextOrANonConstantFractionIsRefusedWithASentence() {
        for (String sql : List.of("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY s) FROM (SELECT CAST(i AS "
                + "VARCHAR) AS s FROM q) t", "SELECT PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY CAST(i AS VARCHAR)) "
                + "FROM q", "SELECT PERCENTILE_CONT(i) WITHIN GROUP "
                + "(ORDER BY d) FROM q", "SELECT APPROX_PERCENTILE(d, i) FROM q")) {
            SqlErrors.Translated e = error(sql);
            assertTrue(e.sqlState().startsWith("42") || e.sqlState().startsWith("22"), sql + ": " + e.sqlState()
                    + " " + e.message());
            assertFalse(e.message().matches("(?s).*\\b(java|org)\\.[a-z]+\\..*"), e.message());
        }
    }

    private SqlErrors.Translated error(String sql) {
        SQLException e = assertThrows(SQLException.class, () -> ResultComparison.rows(ferry, sql), sql);
        return SqlErrors.translate(e);
    }

    static Stream<String> moreAggregates() {
        return AggregateQueries.moreAggregates().stream();
    }

    static Stream<String> largeAverages() {
        return AggregateQueries.largeAverages().stream();
    }

    @ParameterizedTest
    @MethodSource("largeAverages")
    void largeAveragesMatchDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("moreAggregates")
    void moreAggregatesMatchDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("moreAggregates")
    void moreAggregatesRunInFerrysAggregate(String sql) throws SQLException {
        String plan = explain(sql);
        assertFalse(inRowEngine(plan), plan);
    }

    /** DuckDB has no COUNT of several arguments: it counts the pairs where neither is NULL, as FILTER does there. */
    @Test
    void countOfSeveralArgumentsSkipsPairsWithANull() throws SQLException {
        String ferrySql = "SELECT g, COUNT(DISTINCT i, d), COUNT(i, d), SUM(b) FROM q GROUP BY g";
        ResultComparison.assertSameResult(ferry, ferrySql, duck, "SELECT g, COUNT(DISTINCT (i, d)) FILTER (WHERE i "
                + "IS NOT NULL AND d IS NOT NULL), COUNT(*) FILTER (WHERE i IS NOT NULL AND d IS NOT NULL), SUM(b) "
                + "FROM q GROUP BY g", false);
        assertFalse(explain(ferrySql).contains("EnumerableAggregate"));
    }

    /**
     * COUNT(DISTINCT a, b, c) and COUNT(a, b, c), alone and beside other calls, with and without GROUP BY: the tuples
     * (rows) where none is NULL, which DuckDB counts with a FILTER.
     */
    @Test
    void countOfThreeArgumentsSkipsTuplesWithANull() throws SQLException {
        String present = "i IS NOT NULL AND p IS NOT NULL AND dt IS NOT NULL";
        for (String tail : List.of("FROM q GROUP BY g", "FROM q", "FROM q WHERE id < 300 GROUP BY g % 4")) {
            String keys = tail.contains("GROUP BY") ? tail.substring(tail.indexOf("GROUP BY") + 9) + ", " : "";
            String ferrySql = "SELECT " + keys + "COUNT(DISTINCT i % 9, p > 0, dt), COUNT(i, p, dt), SUM(b) " + tail;
            String duckSql = "SELECT " + keys + "COUNT(DISTINCT (i % 9, p > 0, dt)) FILTER (WHERE " + present
                    + "), COUNT(*) FILTER (WHERE " + present + "), SUM(b) " + tail;
            ResultComparison.assertSameResult(ferry, ferrySql, duck, duckSql, false);
            String plan = explain(ferrySql);
            assertFalse(inRowEngine(plan), plan);
            String alone = "SELECT " + keys + "COUNT(DISTINCT i % 9, p > 0, dt) " + tail;
            ResultComparison.assertSameResult(ferry, alone, duck, "SELECT " + keys + "COUNT(DISTINCT (i % 9, p > 0, "
                    + "dt)) FILTER (WHERE " + present + ") " + tail, false);
            String alonePlan = explain(alone);
            assertFalse(inRowEngine(alonePlan), alonePlan);
        }
    }

    /**
     * The order STRING_AGG joins a group's values in is unspecified: the joined parts, sorted, must be DuckDB's; with
     * DISTINCT, each value once.
     */
    @Test
    void stringAggJoinsEveryValue() throws SQLException {
        for (String agg : List.of("STRING_AGG(CAST(i AS VARCHAR), ', ')", "STRING_AGG(CAST(id AS VARCHAR), '|') "
                + "FILTER (WHERE d > 0)", "STRING_AGG(DISTINCT CAST(i % 13 AS VARCHAR), ',')",
                "STRING_AGG(DISTINCT CAST(b % 6 AS VARCHAR), '|') FILTER (WHERE i > 0)")) {
            String sql = "SELECT g, " + agg + " FROM q GROUP BY g";
            assertEquals(sortedParts(duck, sql), sortedParts(ferry, sql.replace("STRING_AGG", "LISTAGG")), sql);
            assertFalse(inRowEngine(explain(sql)), sql);
        }
    }

    static Stream<String> orderedStringAggregates() {
        return AggregateQueries.orderedStringAggregates().stream();
    }

    @ParameterizedTest
    @MethodSource("orderedStringAggregates")
    void orderedStringAggregatesMatchDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("orderedStringAggregates")
    void orderedStringAggregatesRunInFerrysAggregate(String sql) throws SQLException {
        String plan = explain(sql);
        assertFalse(inRowEngine(plan), plan);
    }

    /** Whether a plan has a node of Calcite's row engine below the converter every plan ends in. */
    private static boolean inRowEngine(String plan) {
        return plan.replace("FerryToEnumerableConverter", "").contains("Enumerable");
    }

    /**
     * LISTAGG's WITHIN GROUP (ORDER BY ...) is the ORDER BY inside DuckDB's STRING_AGG (which has no LISTAGG form);
     * without a separator both join with ','. A lone LISTAGG(DISTINCT s) is planned as a grouping on s below it, its
     * ORDER BY read there.
     */
    @Test
    void listaggWithinGroupJoinsInItsOrder() throws SQLException {
        for (List<String> pair : List.of(
                List.of("SELECT g, LISTAGG(CAST(id AS VARCHAR), ',') WITHIN GROUP (ORDER BY dt DESC NULLS LAST, id) "
                        + "FROM q GROUP BY g", "SELECT g, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY dt DESC NULLS "
                        + "LAST, id) FROM q GROUP BY g"),
                List.of("SELECT g, LISTAGG(CAST(id AS VARCHAR)) WITHIN GROUP (ORDER BY id DESC) FROM q GROUP BY g",
                        "SELECT g, STRING_AGG(CAST(id AS VARCHAR) ORDER BY id DESC) FROM q GROUP BY g"),
                List.of("SELECT g, LISTAGG(DISTINCT CAST(i % 6 AS VARCHAR)) WITHIN GROUP (ORDER BY CAST(i % 6 AS "
                        + "VARCHAR) DESC NULLS LAST) FROM q GROUP BY g", "SELECT g, STRING_AGG(DISTINCT CAST(i % 6 "
                        + "AS VARCHAR) ORDER BY CAST(i % 6 AS VARCHAR) DESC NULLS LAST) FROM q GROUP BY g"))) {
            ResultComparison.assertSameResult(ferry, pair.get(0), duck, pair.get(1), false);
            String plan = explain(pair.get(0));
            assertFalse(inRowEngine(plan), plan);
        }
    }

    /**
     * Keys at the edges of their types' orders: NaN above every DOUBLE, infinities, -0.0 equal to 0.0 (the next key
     * breaks the tie), the smallest and largest BIGINT, the empty string, a prefix before its extensions, bytes above
     * ASCII. Where a key gives no NULLS, Ferry puts NULLs as PostgreSQL does (last ascending, first descending), which
     * DuckDB's SQL then spells out: DuckDB's own default is last both ways.
     */
    @Test
    void orderedStringAggregatesOrderTheEdgesOfEachType() throws SQLException {
        for (Connection c : List.of(ferry, duck)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE edges (id INTEGER, x DOUBLE, n BIGINT, s VARCHAR)");
                s.execute("INSERT INTO edges VALUES (1, CAST('NaN' AS DOUBLE), -9223372036854775808, 'ab'), "
                        + "(2, CAST('-0.0' AS DOUBLE), 9223372036854775807, ''), (3, 0.0, 0, 'a'), "
                        + "(4, CAST('Infinity' AS DOUBLE), -1, 'a b'), (5, CAST('-Infinity' AS DOUBLE), 1, 'B'), "
                        + "(6, -1.5, NULL, 'é'), (7, NULL, 2, NULL), (8, 1e300, -2, 'b')");
            }
        }
        try {
            for (String key : List.of("x", "x DESC", "x NULLS FIRST", "n", "n DESC NULLS LAST", "s", "s DESC",
                    "s NULLS FIRST", "s DESC NULLS LAST", "x, n", "s, x DESC")) {
                String sql = "SELECT id % 2, STRING_AGG(CAST(id AS VARCHAR), ',' ORDER BY " + key + ", id) FROM edges "
                        + "GROUP BY ROLLUP(id % 2)";
                String duckSql = sql.replaceAll("(\\w) DESC,", "$1 DESC NULLS FIRST,");
                ResultComparison.assertSameResult(ferry, sql, duck, duckSql, false);
                assertFalse(inRowEngine(explain(sql)), sql);
            }
        } finally {
            for (Connection c : List.of(ferry, duck)) {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE edges");
                }
            }
        }
    }

    private static TreeMap<String, String> sortedParts(Connection c, String sql) throws SQLException {
        TreeMap<String, String> out = new TreeMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                String joined = rs.getString(2);
                String[] parts = joined == null ? new String[0] : joined.split("[,|] ?");
                Arrays.sort(parts);
                out.put(String.valueOf(rs.getObject(1)), joined == null ? "NULL" : String.join(",", parts));
            }
        }
        return out;
    }

    private String explain(String sql) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
        }
        return out.toString();
    }
}
