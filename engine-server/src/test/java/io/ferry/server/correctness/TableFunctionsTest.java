package io.ferry.server.correctness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.gen.SkewWorkload;
import io.ferry.server.cluster.TwoWorkerCluster;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SkewLoad;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * Table functions: {@code generate_series} answers as DuckDB's does (the same SQL runs on both), locally and joined
 * to a table spread over two workers, where the generator ships inside the fragment; {@code skew_workload} stores
 * the very rows {@code bin/ferry load --generate skew} makes; bad arguments get their SQLSTATEs.
 */
class TableFunctionsTest {
    /** The same statement makes the same table in Ferry and in DuckDB. */
    private static final String TABLE = "CREATE TABLE t AS SELECT generate_series AS k, generate_series % 13 AS g "
            + "FROM generate_series(1, 20000)";

    private static final List<String> QUERIES = List.of(
            "SELECT * FROM generate_series(1, 10)",
            "SELECT * FROM generate_series(10, 1, -3)",
            "SELECT * FROM generate_series(5, 1)",
            "SELECT COUNT(*), SUM(generate_series), MIN(generate_series), MAX(generate_series) "
                    + "FROM generate_series(-1000000, 1000000, 7)",
            "SELECT x, y FROM generate_series(1, 30) AS a(x) LEFT JOIN generate_series(1, 30, 4) AS b(y) ON x = y",
            "SELECT * FROM generate_series(1, 3) UNION ALL SELECT * FROM generate_series(7, 8)",
            "SELECT g, COUNT(*), SUM(s.k) FROM t JOIN generate_series(1, 20000, 3) AS s(k) ON t.k = s.k GROUP BY g",
            "SELECT COUNT(*) FROM t WHERE k IN (SELECT * FROM generate_series(100, 300, 10))",
            "SELECT s.k, COUNT(t.k) FROM generate_series(-2, 4) AS s(k) LEFT JOIN t ON t.g = s.k GROUP BY s.k");

    @Test
    void generateSeriesAnswersAsDuckDbDoes() throws Exception {
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
                Connection ferry = engine.connect(); Statement s = ferry.createStatement();
                Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement d = duck.createStatement()) {
            s.execute(TABLE);
            d.execute(TABLE);
            for (String q : QUERIES) {
                ResultComparison.assertSameResult(ferry, duck, q, false);
            }
            // the standard's spelling, which DuckDB does not take
            ResultComparison.assertSameResult(ferry, "SELECT * FROM TABLE(generate_series(-5, 5, 5))", duck,
                    "SELECT * FROM generate_series(-5, 5, 5)", false);
            // INSERT ... SELECT from a generator: the row engine's scan of it was chosen, and failed with XX000
            for (String ddl : new String[] {"CREATE TABLE ins (x INTEGER PRIMARY KEY, y BIGINT)",
                "INSERT INTO ins SELECT generate_series, generate_series * 3 FROM generate_series(1, 500)",
                "INSERT INTO ins SELECT * FROM generate_series(501, 900, 2) AS a(x), generate_series(1, 1) AS b(y)"}) {
                s.execute(ddl);
                d.execute(ddl);
            }
            ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*), SUM(x), SUM(y) FROM ins", false);
            String plan = ResultComparison.plan(ferry, "SELECT COUNT(*) FROM generate_series(1, 100000)");
            assertTrue(plan.contains("FerryGenerate(invocation=[GENERATE_SERIES(1, 100000)], rows=[100000])"), plan);
            assertFalse(plan.replace("FerryToEnumerableConverter", "").contains("Enumerable"), plan);
        }
    }

    /** The fragment that runs on each worker carries the generator, as the build side of its join. */
    @Test
    void generateSeriesJoinsATableSpreadOverTwoWorkers() throws Exception {
        try (TwoWorkerCluster cluster = TwoWorkerCluster.start(); Statement s = cluster.ferry().createStatement();
                Statement d = cluster.duck().createStatement()) {
            s.execute(TABLE);
            d.execute(TABLE);
            for (String shipping : new String[] {"function", "data"}) {
                s.execute("SET shipping = '" + shipping + "'");
                for (String q : QUERIES) {
                    ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), q, false);
                }
            }
        }
    }

    @Test
    void skewWorkloadStoresTheRowsTheLoaderMakes() throws Exception {
        String rows = "rows=30000,inner=3000,distribution=zipf,z=1.25,partitions=4,seed=11";
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
                Connection ferry = engine.connect(); Statement s = ferry.createStatement()) {
            SkewLoad.load(SkewWorkload.Spec.parse(rows + ",prefix=l_"), engine.catalog(), ProgressListener.NONE);
            s.execute("CREATE TABLE a WITH (partition_by = 'fk=bkey:4', placement = 'nam') AS SELECT * FROM "
                    + "skew_workload('a', '" + rows + "')");
            s.execute("CREATE TABLE b AS SELECT * FROM skew_workload('B', '" + rows + "')");
            assertEquals(4, engine.catalog().require("a").partitioning().partitions());
            for (String t : new String[] {"a", "b"}) {
                for (String[] pair : new String[][] {{"l_" + t, t}, {t, "l_" + t}}) {
                    assertEquals(0, count(ferry, "(SELECT * FROM " + pair[0] + " EXCEPT ALL SELECT * FROM " + pair[1]
                            + ")"), t);
                }
            }
            assertEquals(3000, count(ferry, "b"));
        }
    }

    private static long count(Connection c, String from) throws SQLException {
        return ((Number) ResultComparison.rows(c, "SELECT COUNT(*) FROM " + from).get(0).get(0)).longValue();
    }

    @Test
    void badArgumentsGetTheirSqlStates() throws Exception {
        String[][] cases = {
            {"SELECT * FROM generate_series(1, 10, 0)", "22023", "step must not be 0"},
            {"SELECT * FROM generate_series(1, 1000000000000000)", "54000", "the most a series may have"},
            {"SELECT * FROM generate_series(1, 2 + 3)", "0A000", "takes constants"},
            {"SELECT * FROM generate_series(1, NULL)", "0A000", "takes constants"},
            {"SELECT * FROM generate_series('one', 3)", "22018", "is not a number"},
            {"SELECT generate_series(1, 3)", "0A000", "call it in FROM"},
            {"SELECT * FROM skew_workload('e', 'rows=10')", "42P01", "tables a, b, c and d"},
            {"SELECT * FROM skew_workload('a', 'rows=10,placement=nam')", "22023", "CREATE TABLE a WITH"},
            {"SELECT * FROM skew_workload('a', 'distribution=zipf')", "22023", "rows is missing"},
        };
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2));
                Connection ferry = engine.connect(); Statement s = ferry.createStatement()) {
            for (String[] c : cases) {
                SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(c[0]).next(), c[0]);
                assertEquals(c[1], e.getSQLState(), c[0] + ": " + e.getMessage());
                assertTrue(e.getMessage().contains(c[2]), c[0] + ": " + e.getMessage());
                assertFalse(e.getMessage().contains("io.ferry") || e.getMessage().contains("calcite"), e.getMessage());
            }
        }
    }
}
