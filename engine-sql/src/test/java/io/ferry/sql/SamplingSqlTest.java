package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** TABLESAMPLE through SQL: both methods plan (Calcite alone cannot plan SYSTEM), repeat with a seed, and EXPLAIN shows them. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SamplingSqlTest {
    private FerryEngine engine;
    private Connection conn;

    @BeforeAll
    void load() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        conn = engine.connect();
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE t (a BIGINT, b VARCHAR)");
            StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < 20000; i++) {
                sb.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'v").append(i % 13).append("')");
            }
            s.execute(sb.toString());
        }
    }

    @AfterAll
    void close() throws Exception {
        conn.close();
        engine.close();
    }

    private long count(String sql) throws Exception {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void systemAndBernoulliSamplesAreRepeatable() throws Exception {
        long system = count("SELECT COUNT(*) FROM t TABLESAMPLE SYSTEM(20) REPEATABLE(42)");
        assertEquals(system, count("SELECT COUNT(*) FROM t TABLESAMPLE SYSTEM(20) REPEATABLE(42)"));
        assertTrue(system > 0 && system < 20000, "SYSTEM(20) kept " + system);
        long bernoulli = count("SELECT COUNT(*) FROM t TABLESAMPLE BERNOULLI(10) REPEATABLE(7)");
        assertEquals(bernoulli, count("SELECT COUNT(*) FROM t TABLESAMPLE BERNOULLI(10) REPEATABLE(7)"));
        assertTrue(Math.abs(bernoulli - 2000) < 5 * Math.sqrt(20000 * 0.1 * 0.9), "BERNOULLI(10) kept " + bernoulli);
        assertEquals(20000, count("SELECT COUNT(*) FROM t TABLESAMPLE BERNOULLI(100)"));
        assertEquals(0, count("SELECT COUNT(*) FROM t TABLESAMPLE SYSTEM(0)"));
        long sum = count("SELECT SUM(a) FROM t TABLESAMPLE SYSTEM(50) REPEATABLE(3) WHERE b = 'v1'");
        assertEquals(sum, count("SELECT SUM(a) FROM t TABLESAMPLE SYSTEM(50) REPEATABLE(3) WHERE b = 'v1'"));
    }

    private String explain(String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                plan.append(rs.getString(1));
            }
        }
        return plan.toString();
    }

    /** a rises with the load order, b cycles through 13 values: SYSTEM sampling on a can miss groups, on b not. */
    @Test
    void explainWarnsWhenClusterSamplingCanMissGroups() throws Exception {
        String grouped = explain("SELECT a, COUNT(*) FROM t TABLESAMPLE SYSTEM(10) GROUP BY a");
        assertTrue(grouped.contains("warning0=[GROUP BY a on t TABLESAMPLE SYSTEM"), grouped);
        String filtered = explain("SELECT COUNT(*) FROM t TABLESAMPLE SYSTEM(10) WHERE a BETWEEN 10 AND 20");
        assertTrue(filtered.contains("warning0=[WHERE a on t"), filtered);
        assertTrue(!explain("SELECT a, COUNT(*) FROM t TABLESAMPLE BERNOULLI(10) GROUP BY a").contains("warning"));
        assertTrue(!explain("SELECT b, COUNT(*) FROM t TABLESAMPLE SYSTEM(10) GROUP BY b").contains("warning"));
        assertTrue(!explain("SELECT a, COUNT(*) FROM t GROUP BY a").contains("warning"));
    }

    @Test
    void explainShowsTheSample() throws Exception {
        StringBuilder plan = new StringBuilder();
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT COUNT(*) FROM t TABLESAMPLE SYSTEM(5)")) {
            while (rs.next()) {
                plan.append(rs.getString(1));
            }
        }
        assertTrue(plan.toString().contains("FerrySample") && plan.toString().contains("SYSTEM"), plan.toString());
    }
}
