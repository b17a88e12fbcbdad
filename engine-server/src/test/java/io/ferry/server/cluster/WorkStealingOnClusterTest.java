package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.sql.ResultComparison;

/**
 * Work stealing on a cluster (I-Store skew paper section 4): two memory servers, the first a straggler (every read of
 * its blocks held back 2 ms), and two compute servers. With {@code SET steal = 'on'} each unit's blocks sit in a
 * work queue on their memory server; the units reading the fast server's blocks finish first and steal the
 * straggler's. Answers equal DuckDB's, the blocks the units report having run add up to the table's blocks exactly
 * (none twice, none left out), some were stolen, and the queues' words are freed when the query ends.
 */
class WorkStealingOnClusterTest {
    private static MemoryComputeCluster cluster;
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        cluster = MemoryComputeCluster.start(2, 2, 1, 64L << 20, 64L << 20, 2_000);
        ferry = cluster.coordinator().engine().connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        String dim = "SELECT i AS d, 'name ' || (i % 7) AS dn FROM range(50) r(i)";
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE f AS SELECT i AS k, i % 50 AS d, (i * 7) % 1000 AS v FROM range(40000) r(i)");
            s.execute("CREATE TABLE dim AS " + dim);
        }
        try (Statement s = ferry.createStatement()) {
            s.execute("CREATE TABLE f (k BIGINT, d BIGINT, v BIGINT)");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 40000; i++) {
                values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 50).append(", ")
                        .append((i * 7L) % 1000).append(')');
            }
            s.execute("INSERT INTO f VALUES " + values);
            s.execute("CREATE TABLE dim (d BIGINT, dn VARCHAR)");
            StringBuilder dims = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                dims.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'name ").append(i % 7).append("')");
            }
            s.execute("INSERT INTO dim VALUES " + dims);
            s.execute("SET shipping = 'function'");
            s.execute("SET execution = 'gather'");
            s.execute("SET steal = 'on'");
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        if (ferry != null) {
            ferry.close();
            duck.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void unitsStealFromTheStragglerAndEveryBlockRunsOnce() throws Exception {
        String q = "SELECT dn, COUNT(*), SUM(v) FROM f JOIN dim ON f.d = dim.d GROUP BY dn";
        String plan = ResultComparison.plan(ferry, q);
        assertTrue(plan.contains("units on compute servers share " + blocks(ferry, "f") + " blocks through work "
                + "queues"), plan);
        long regionsBefore = settledRegions();
        int blocks = blocks(ferry, "f");
        int stolen = 0;
        for (int run = 0; run < 3; run++) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
            int[] ran = ranAndStolen(ferry);
            assertEquals(blocks, ran[0], "the units ran every block of f exactly once");
            stolen += ran[1];
        }
        assertTrue(stolen > 0, "units stole from the straggler's queues");
        // heartbeats report every 500 ms: within 5 s the memory servers are back to the regions they had idle
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (regions() != regionsBefore) {
            assertTrue(System.nanoTime() < deadline, "the queues' words were not freed: " + regions() + " regions, "
                    + regionsBefore + " before");
            Thread.onSpinWait();
        }
    }

    @Test
    void stealingIsOnByDefaultAndExplainSaysWhyItIsNotApplied() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            s.execute("RESET steal");
            String q = "SELECT COUNT(*) FROM f";
            String plan = ResultComparison.plan(ferry, q);
            assertTrue(plan.contains("steal=on: "), "steal is on by default: " + plan);
            s.execute("SET steal = 'off'");
            assertTrue(!ResultComparison.plan(ferry, q).contains("steal="), "steal = 'off' turns it off");
            s.execute("SET steal = 'on'");
            String sampled = ResultComparison.plan(ferry, "SELECT COUNT(*) FROM f TABLESAMPLE SYSTEM (50)");
            assertTrue(sampled.contains("steal=on, not applied: a sampled scan"), sampled);
        }
    }

    /** The blocks the last query's units ran through the work queues, and how many of them were stolen. */
    static int[] ranAndStolen(Connection ferry) throws SQLException {
        Pattern p = Pattern.compile("ran (\\d+) blocks through the work queues, (\\d+) of them stolen");
        int ran = 0;
        int stolen = 0;
        long last = -1;
        try (Statement s = ferry.createStatement();
                ResultSet rs = s.executeQuery("SELECT query_id, reason FROM sys.fragments ORDER BY query_id DESC")) {
            while (rs.next()) {
                if (last >= 0 && rs.getLong(1) != last) {
                    break;
                }
                last = rs.getLong(1);
                Matcher m = p.matcher(rs.getString(2));
                if (m.find()) {
                    ran += Integer.parseInt(m.group(1));
                    stolen += Integer.parseInt(m.group(2));
                }
            }
        }
        return new int[] {ran, stolen};
    }

    static int blocks(Connection ferry, String table) throws SQLException {
        try (Statement s = ferry.createStatement();
                ResultSet rs = s.executeQuery("SELECT blocks FROM sys.tables WHERE name = '" + table + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** The memory servers' regions once two heartbeats (500 ms apart) agree: the load's regions are all reported. */
    private static long settledRegions() throws Exception {
        long last = regions();
        while (true) {
            Thread.sleep(1_100);
            long now = regions();
            if (now == last) {
                return now;
            }
            last = now;
        }
    }

    private static long regions() throws SQLException {
        try (Statement s = ferry.createStatement();
                ResultSet rs = s.executeQuery("SELECT SUM(regions) FROM sys.nodes WHERE role = 'memory'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
