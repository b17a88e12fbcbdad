package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.sql.ResultComparison;

/**
 * Two memory servers and a compute server: the compute server runs one unit per memory server for the same query,
 * at the same time (with two compute servers, round-robin placement and round-robin assignment happen to pair each
 * memory server with one compute server, which hid the bug). Units are told apart by (query, fragment), so results
 * that are too large for the region the coordinator first offered — held by the node until the coordinator asks for them — come back each to its own
 * unit, and every answer matches DuckDB's. A partitioned table placed by partition keeps each partition on one
 * memory server; placed NAM-style, a partition's blocks spread over both.
 */
class MemoryAndComputeServersTest {
    private static MemoryComputeCluster cluster;
    private static Coordinator coordinator;
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        cluster = MemoryComputeCluster.start(2, 1, 2, 64L << 20);
        coordinator = cluster.coordinator();
        ferry = coordinator.engine().connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        String rows = "SELECT i AS k, i % 17 AS g, 'text ' || i AS s FROM range(20000) r(i)";
        try (Statement s = duck.createStatement()) {
            s.execute("CREATE TABLE t AS " + rows);
        }
        try (Statement s = ferry.createStatement()) {
            s.execute("CREATE TABLE t (k BIGINT, g BIGINT, s VARCHAR)");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 20000; i++) {
                values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 17).append(", 'text ")
                        .append(i).append("')");
            }
            s.execute("INSERT INTO t VALUES " + values);
            s.execute("SET shipping = 'function'");
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
    void everyUnitGetsItsOwnResult() throws SQLException {
        // results far larger than their inputs' estimate: each unit's result is held, then fetched by its id
        for (int i = 0; i < 3; i++) {
            ResultComparison.assertSameResult(ferry, duck, "SELECT k, REPEAT(s, 40) FROM t WHERE g < 9", false);
            ResultComparison.assertSameResult(ferry, duck, "SELECT g, COUNT(*), SUM(k), MAX(s) FROM t GROUP BY g",
                    false);
        }
    }

    @Test
    void partitionPlacementKeepsEachPartitionOnOneMemoryServer() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            for (String placement : List.of("partition", "nam")) {
                String table = "p_" + placement;
                s.execute("CREATE TABLE " + table + " (k BIGINT, g BIGINT, s VARCHAR) WITH (partition_by = 'k:4', "
                        + "placement = '" + placement + "')");
                s.execute("INSERT INTO " + table + " SELECT * FROM t");
                Map<Integer, Set<String>> nodesOf = new HashMap<>();
                try (ResultSet rs = s.executeQuery("SELECT partition_id, node FROM sys.blocks WHERE "
                        + "table_name = '" + table + "'")) {
                    while (rs.next()) {
                        nodesOf.computeIfAbsent(rs.getInt(1), p -> new HashSet<>()).add(rs.getString(2));
                    }
                }
                assertEquals(Set.of(0, 1, 2, 3), nodesOf.keySet());
                if (placement.equals("partition")) {
                    nodesOf.forEach((p, nodes) -> assertEquals(1, nodes.size(),
                            "partition " + p + " lies on one memory server: " + nodes));
                } else {
                    assertTrue(nodesOf.values().stream().anyMatch(nodes -> nodes.size() == 2),
                            "nam spreads a partition over both memory servers: " + nodesOf);
                }
                ResultComparison.assertSameResult(ferry, "SELECT g, COUNT(*), MAX(s) FROM " + table + " GROUP BY g",
                        duck, "SELECT g, COUNT(*), MAX(s) FROM t GROUP BY g", false);
            }
        }
    }
}
