package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FILTER, DISTINCT beside other calls, COUNT(DISTINCT a, b), the two-variable statistics, ANY_VALUE and STRING_AGG
 * against DuckDB, each run in Ferry's aggregate (no EnumerableAggregate in the plan). Small blocks spread the rows
 * over both threads, so partial states are merged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MoreAggregatesTest {
    private FerryEngine engine;
    private Connection ferry;
    private Connection duck;

    @BeforeAll
    void load() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        ferry = engine.connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        AggregateQueries.load(ferry, duck);
    }

    @AfterAll
    void close() throws Exception {
        ferry.close();
        duck.close();
        engine.close();
    }

    static Stream<String> queries() {
        return AggregateQueries.moreAggregates().stream();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsDuckDb(String sql) throws SQLException {
        ResultComparison.assertSameResult(ferry, duck, sql, false);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void runsInFerrysAggregate(String sql) throws SQLException {
        String plan = explain(sql);
        assertFalse(plan.contains("EnumerableAggregate"), plan);
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

    /** The order STRING_AGG joins a group's values in is unspecified: the joined parts, sorted, must be DuckDB's. */
    @Test
    void stringAggJoinsEveryValue() throws SQLException {
        for (String agg : List.of("STRING_AGG(CAST(i AS VARCHAR), ', ')", "STRING_AGG(CAST(id AS VARCHAR), '|') "
                + "FILTER (WHERE d > 0)")) {
            String sql = "SELECT g, " + agg + " FROM q GROUP BY g";
            assertEquals(sortedParts(duck, sql), sortedParts(ferry, sql.replace("STRING_AGG", "LISTAGG")), sql);
            assertFalse(explain(sql).contains("EnumerableAggregate"));
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
        List<String> lines = new ArrayList<>();
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
        }
        return String.join("\n", lines);
    }
}
