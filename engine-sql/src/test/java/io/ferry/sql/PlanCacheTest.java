package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.sql.jdbc.PlanCache;

/** Repeated queries reuse their plan, and a reused plan answers exactly as a new one would. */
class PlanCacheTest {
    private FerryEngine engine;
    private Connection conn;

    @BeforeEach
    void start() throws Exception {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        conn = engine.connect();
        try (Statement s = conn.createStatement()) {
            s.execute("CREATE TABLE t (a BIGINT, b VARCHAR)");
            s.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'x')");
        }
    }

    @AfterEach
    void stop() throws Exception {
        conn.close();
        engine.close();
    }

    private String one(String sql) throws Exception {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    @Test
    void aRepeatedQueryIsPlannedOnce() throws Exception {
        PlanCache plans = engine.plans();
        String q = "SELECT SUM(a) FROM t WHERE b = 'x'";
        long missesBefore = plans.misses();
        assertEquals("4", one(q));
        long hitsBefore = plans.hits();
        assertEquals("4", one(q));
        assertEquals("4", one(q));
        assertEquals(hitsBefore + 2, plans.hits());
        assertEquals(missesBefore + 1, plans.misses());
        // Other text is another plan.
        assertEquals("2", one("SELECT SUM(a) FROM t WHERE b = 'y'"));
        assertEquals(missesBefore + 2, plans.misses());
    }

    @Test
    void changesToTheCatalogReplan() throws Exception {
        String q = "SELECT SUM(a) FROM t WHERE b = 'x'";
        assertEquals("4", one(q));
        try (Statement s = conn.createStatement()) {
            s.execute("INSERT INTO t VALUES (10, 'x')");
            long misses = engine.plans().misses();
            assertEquals("14", one(q));
            assertEquals(misses + 1, engine.plans().misses(), "an INSERT makes the next execution replan");
            // Same name, new column types: the old plan must not be used.
            s.execute("DROP TABLE t");
            s.execute("CREATE TABLE t (a DOUBLE, b VARCHAR)");
            s.execute("INSERT INTO t VALUES (0.5, 'x'), (0.25, 'x')");
        }
        assertEquals(0.75, Double.parseDouble(one(q)));
    }

    /** A SET replans: EXPLAIN reports on the session's settings, so a plan made under others must not be reused. */
    @Test
    void aSettingChangeReplans() throws Exception {
        String q = "SELECT SUM(a) FROM t WHERE b = 'x'";
        assertEquals("4", one(q));
        try (Statement s = conn.createStatement()) {
            s.execute("SET steal = 'off'");
            long misses = engine.plans().misses();
            assertEquals("4", one(q));
            assertEquals(misses + 1, engine.plans().misses(), "planned anew under the new setting");
            s.execute("RESET steal");
            long hits = engine.plans().hits();
            assertEquals("4", one(q));
            assertEquals(hits + 1, engine.plans().hits(), "the plan made under the old settings is found again");
        }
    }

    @Test
    void preparedStatementsWithParametersShareOnePlan() throws Exception {
        try (PreparedStatement ps = conn.prepareStatement("SELECT COUNT(*) FROM t WHERE b = ?")) {
            for (String[] c : new String[][] {{"x", "2"}, {"y", "1"}, {"z", "0"}}) {
                ps.setString(1, c[0]);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(c[1], rs.getString(1));
                }
            }
        }
    }

    @Test
    void aSampleWithoutRepeatableIsDrawnAnewEachTime() throws Exception {
        try (Statement s = conn.createStatement()) {
            StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < 5000; i++) {
                sb.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'v')");
            }
            s.execute(sb.toString());
        }
        Set<String> fresh = new HashSet<>();
        Set<String> repeatable = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            fresh.add(one("SELECT SUM(a) FROM t TABLESAMPLE BERNOULLI(50)"));
            repeatable.add(one("SELECT SUM(a) FROM t TABLESAMPLE BERNOULLI(50) REPEATABLE(9)"));
        }
        assertTrue(fresh.size() > 1, "five executions of an unseeded sample all drew " + fresh);
        assertEquals(1, repeatable.size(), "REPEATABLE(9) drew " + repeatable);
    }

    @Test
    void closingAConnectionDropsItsPlans() throws Exception {
        try (Connection other = engine.connect()) {
            try (Statement s = other.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
                rs.next();
            }
            assertTrue(engine.plans().size() >= 1);
        }
        int left = engine.plans().size();
        conn.close();
        assertEquals(0, engine.plans().size(), "plans left after both connections closed (" + left + " before)");
    }
}
