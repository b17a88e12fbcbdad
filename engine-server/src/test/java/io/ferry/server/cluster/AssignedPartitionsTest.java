package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.sql.ResultComparison;

/**
 * Two memory servers and two compute servers (I-Store's layout): a star join over co-partitioned tables runs with the
 * fact table's partitions assigned to the compute servers ({@link io.ferry.sql.distributed.WorkAssignment}), each
 * streaming its partitions' blocks from both memory servers and only the dimension parts they meet; EXPLAIN shows
 * the assignment; answers of two- and three-way joins equal DuckDB's, also when one key holds every row.
 */
class AssignedPartitionsTest {
    private static MemoryComputeCluster cluster;
    private static Coordinator coordinator;
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        cluster = MemoryComputeCluster.start(2, 2, 2, 64L << 20);
        coordinator = cluster.coordinator();
        ferry = coordinator.engine().connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement d = duck.createStatement(); Statement f = ferry.createStatement()) {
            d.execute("CREATE TABLE lo AS SELECT i AS lo_orderkey, (i * 7) % 600 AS lo_custkey, (i * 11) % 300 AS "
                    + "lo_partkey, i % 50 AS lo_quantity FROM range(16000) r(i)");
            d.execute("CREATE TABLE customer AS SELECT i AS c_custkey, i % 5 AS c_nation FROM range(600) r(i)");
            d.execute("CREATE TABLE part AS SELECT i AS p_partkey, 'brand' || (i % 9) AS p_brand FROM range(300) r(i)");
            f.execute("CREATE TABLE lo (lo_orderkey BIGINT, lo_custkey BIGINT, lo_partkey BIGINT, lo_quantity BIGINT) "
                    + "WITH (partition_by = 'custkey:4, partkey:2')");
            f.execute("CREATE TABLE customer (c_custkey BIGINT, c_nation BIGINT) WITH (partition_by = 'custkey:4')");
            f.execute("CREATE TABLE part (p_partkey BIGINT, p_brand VARCHAR) WITH (partition_by = 'partkey:2')");
            StringBuilder lo = new StringBuilder();
            for (int i = 0; i < 16000; i++) {
                lo.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append((i * 7L) % 600).append(", ")
                        .append((i * 11L) % 300).append(", ").append(i % 50).append(')');
            }
            f.execute("INSERT INTO lo VALUES " + lo);
            StringBuilder cu = new StringBuilder();
            for (int i = 0; i < 600; i++) {
                cu.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 5).append(')');
            }
            f.execute("INSERT INTO customer VALUES " + cu);
            StringBuilder pa = new StringBuilder();
            for (int i = 0; i < 300; i++) {
                pa.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'brand").append(i % 9).append("')");
            }
            f.execute("INSERT INTO part VALUES " + pa);
            f.execute("SET shipping = 'function'");
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
    void starJoinsRunOnAssignedPartitions() throws SQLException {
        String twoWay = "SELECT c_nation, COUNT(*), SUM(lo_quantity) FROM lo JOIN customer ON lo_custkey = c_custkey "
                + "GROUP BY c_nation";
        String threeWay = "SELECT c_nation, p_brand, SUM(lo_quantity) FROM lo JOIN customer ON lo_custkey = c_custkey "
                + "JOIN part ON lo_partkey = p_partkey GROUP BY c_nation, p_brand";
        String plan = ResultComparison.plan(ferry, threeWay);
        assertTrue(plan.contains("partitions assigned to compute servers: grid"), plan);
        long[] before = coordinator.runner().buildBlocks();
        for (String q : List.of(twoWay, threeWay)) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        long[] after = coordinator.runner().buildBlocks();
        assertTrue(after[1] > before[1], "the compute servers read only the dimension parts they need");
    }

    /** {@code SET assignment} forces the method: LDM, the grid, or each memory server's partitions to one compute server. */
    @Test
    void assignmentPicksTheMethodAndEveryMethodAnswersRight() throws SQLException {
        String threeWay = "SELECT c_nation, p_brand, SUM(lo_quantity) FROM lo JOIN customer ON lo_custkey = c_custkey "
                + "JOIN part ON lo_partkey = p_partkey GROUP BY c_nation, p_brand";
        try (Statement s = ferry.createStatement()) {
            for (String how : List.of("ldm", "grid", "partition")) {
                s.execute("SET assignment = '" + how + "'");
                String plan = ResultComparison.plan(ferry, threeWay);
                assertTrue(plan.contains("partitions assigned to compute servers: " + how), plan);
                ResultComparison.assertSameResult(ferry, duck, threeWay, false);
            }
            s.execute("RESET assignment");
        }
    }

    @Test
    void aSingleHotKeyAndEmptyPartitionsStillAnswer() throws SQLException {
        try (Statement d = duck.createStatement(); Statement f = ferry.createStatement()) {
            d.execute("CREATE TABLE hot AS SELECT i AS h_orderkey, 7 AS h_custkey FROM range(3000) r(i)");
            f.execute("CREATE TABLE hot (h_orderkey BIGINT, h_custkey BIGINT) WITH (partition_by = 'custkey:4')");
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 3000; i++) {
                rows.append(i == 0 ? "" : ", ").append('(').append(i).append(", 7)");
            }
            f.execute("INSERT INTO hot VALUES " + rows);
        }
        String q = "SELECT c_nation, COUNT(*), SUM(h_orderkey) FROM hot JOIN customer ON h_custkey = c_custkey "
                + "GROUP BY c_nation";
        // every row in one partition, three partitions empty: one compute server gets all the work
        assertTrue(ResultComparison.plan(ferry, q).contains("partitions assigned to compute servers"));
        ResultComparison.assertSameResult(ferry, duck, q, false);
        ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*) FROM hot LEFT JOIN customer ON h_custkey "
                + "= c_custkey AND c_nation = 4", false);
    }
}
