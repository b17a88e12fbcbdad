package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.fabric.Fabrics;
import io.ferry.sql.EngineConfig;

/**
 * A coordinator and two workers in one JVM over the tcp fabric: tables are placed on the workers, and queries answer
 * the same in forced function shipping, forced data shipping and auto mode.
 */
class ClusterInProcessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static Coordinator coordinator;
    private static final List<DataNode> nodes = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(64 * 1024)
                .withMemoryLimit(256L << 20);
        coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null, Fabrics.Kind.TCP, TIMEOUT,
                List.of()));
        InetSocketAddress control = coordinator.cluster().address();
        for (int i = 1; i <= 2; i++) {
            nodes.add(DataNode.start(new DataNode.Options(Role.WORKER, "w" + i, "127.0.0.1", 0, null, control, 1,
                    64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT)));
        }
        assertTrue(coordinator.cluster().awaitNodes(2, Duration.ofSeconds(30)), "workers joined");
        try (Connection c = coordinator.engine().connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE r (a BIGINT, b BIGINT)");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 20_000; i++) {
                values.append(values.length() == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 97)
                        .append(')');
            }
            s.execute("INSERT INTO r VALUES " + values);
        }
    }

    @AfterAll
    static void stop() {
        if (coordinator != null) {
            coordinator.close();
        }
        for (DataNode n : nodes) {
            n.close();
        }
    }

    private static Map<Long, Long> groupBy(Statement s) throws SQLException {
        Map<Long, Long> out = new TreeMap<>();
        try (ResultSet rs = s.executeQuery("SELECT b, COUNT(*), SUM(a) FROM r GROUP BY b")) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getLong(2) * 1_000_000_000L + rs.getLong(3));
            }
        }
        return out;
    }

    @Test
    void everyShippingModeAnswersTheSame() throws SQLException {
        try (Connection c = coordinator.engine().connect(); Statement s = c.createStatement()) {
            Map<Long, Long> expected = new TreeMap<>();
            for (long i = 0; i < 20_000; i++) {
                expected.merge(i % 97, 1_000_000_000L + i, Long::sum);
            }
            for (String mode : List.of("function", "data", "auto")) {
                s.execute("SET shipping = '" + mode + "'");
                assertEquals(expected, groupBy(s), mode);
            }
            try (ResultSet rs = s.executeQuery("SELECT node, mode FROM sys.fragments")) {
                List<String> seen = new ArrayList<>();
                while (rs.next()) {
                    seen.add(rs.getString(1) + ":" + rs.getString(2));
                }
                assertTrue(seen.contains("w1:function") && seen.contains("w2:data"), seen.toString());
            }
            s.execute("SET shipping = 'function'");
            Map<Boolean, Long> resultBytes = new TreeMap<>();
            for (boolean on : new boolean[] {false, true}) {
                s.execute("SET compression = '" + (on ? "on" : "off") + "'");
                assertEquals(expected, groupBy(s), "compression " + on);
                try (ResultSet rs = s.executeQuery("SELECT compressed, SUM(result_bytes) FROM sys.fragments "
                        + "WHERE query_id = (SELECT MAX(query_id) FROM sys.fragments) GROUP BY compressed")) {
                    assertTrue(rs.next());
                    assertEquals(on, rs.getBoolean(1), "sys.fragments.compressed");
                    resultBytes.put(on, rs.getLong(2));
                    assertFalse(rs.next(), "every unit shipped alike");
                }
            }
            assertTrue(resultBytes.get(true) < resultBytes.get(false), resultBytes.toString());
            s.execute("SET compression = 'auto'");
            try (ResultSet rs = s.executeQuery("SELECT role, COUNT(*), SUM(threads), MIN(memory_bytes) FROM sys.nodes "
                    + "WHERE state = 'up' GROUP BY role ORDER BY role")) {
                // the coordinator is a node too (id 0), with its engine's threads and memory
                assertTrue(rs.next());
                assertEquals("coordinator", rs.getString(1));
                assertEquals(1, rs.getLong(2));
                assertTrue(rs.getLong(3) > 0 && rs.getLong(4) > 0);
                assertTrue(rs.next());
                assertEquals(2, rs.getLong(2));
                assertFalse(rs.next());
            }
            try (ResultSet rs = s.executeQuery("SELECT nodes, blocks FROM sys.tables WHERE name = 'r'")) {
                rs.next();
                assertEquals(2, rs.getInt(1), "blocks spread over both workers");
                assertTrue(rs.getInt(2) >= 2);
            }
        }
    }

    /**
     * A sample is a function of its seed and each row's block and position, so function shipping (workers sample)
     * and data shipping (the coordinator samples blocks it read) keep the same rows, and the estimates built from
     * them — per-row moments under BERNOULLI, per-block under SYSTEM, merged from partial states — agree.
     */
    @Test
    void everyShippingModeSamplesTheSameRowsAndEstimatesAlike() throws SQLException {
        try (Connection c = coordinator.engine().connect(); Statement s = c.createStatement()) {
            for (String sample : List.of("BERNOULLI(10) REPEATABLE(3)", "SYSTEM(40) REPEATABLE(5)")) {
                Map<String, List<String>> rows = new TreeMap<>();
                Map<String, List<double[]>> estimates = new TreeMap<>();
                for (String mode : List.of("function", "data", "auto")) {
                    s.execute("SET shipping = '" + mode + "'");
                    List<String> kept = new ArrayList<>();
                    try (ResultSet rs = s.executeQuery("SELECT a, b FROM r TABLESAMPLE " + sample + " ORDER BY a")) {
                        while (rs.next()) {
                            kept.add(rs.getLong(1) + ":" + rs.getLong(2));
                        }
                    }
                    rows.put(mode, kept);
                    List<double[]> e = new ArrayList<>();
                    try (ResultSet rs = s.executeQuery("SELECT b, APPROX_COUNT(*), APPROX_SUM(a), "
                            + "APPROX_SUM_LOWER(a), APPROX_AVG_UPPER(a), COUNT(*) FROM r TABLESAMPLE " + sample
                            + " GROUP BY b ORDER BY b")) {
                        while (rs.next()) {
                            e.add(new double[] {rs.getLong(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4),
                                    rs.getDouble(5), rs.getLong(6)});
                        }
                    }
                    estimates.put(mode, e);
                }
                List<String> fs = rows.get("function");
                assertTrue(fs.size() > 500 && fs.size() < 19_000, sample + " kept " + fs.size());
                assertEquals(fs, rows.get("data"), sample);
                assertEquals(fs, rows.get("auto"), sample);
                List<double[]> f = estimates.get("function");
                assertFalse(f.isEmpty(), sample);
                for (String mode : List.of("data", "auto")) {
                    List<double[]> o = estimates.get(mode);
                    assertEquals(f.size(), o.size(), sample + " groups in " + mode);
                    for (int i = 0; i < f.size(); i++) {
                        for (int k = 0; k < f.get(i).length; k++) {
                            // the same sums, added in another order: equal up to rounding
                            assertEquals(f.get(i)[k], o.get(i)[k], 1e-9 * Math.abs(f.get(i)[k]),
                                    sample + " " + mode + " group " + i + " column " + k);
                        }
                    }
                }
            }
            s.execute("SET shipping = 'auto'");
        }
    }
}
