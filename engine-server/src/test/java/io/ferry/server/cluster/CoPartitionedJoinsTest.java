package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.sql.ResultComparison;

/**
 * Joins of co-partitioned tables on a cluster (I-Store DPE section 2, partial replication): with LINEORDER and
 * CUSTOMER both partitioned by custkey into 4 and placed by partition on two workers, a worker's fragment reads only
 * the customer parts its lineorder blocks are in, not all of CUSTOMER; every answer (inner, left and semi joins,
 * which may be restricted, and anti joins and mismatched partitionings, which may not) equals DuckDB's.
 */
class CoPartitionedJoinsTest {
    private static TwoWorkerCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TwoWorkerCluster.start();
        try (Statement duck = cluster.duck().createStatement(); Statement ferry = cluster.ferry().createStatement()) {
            duck.execute("CREATE TABLE lo AS SELECT i AS lo_orderkey, (i * 7) % 500 AS lo_custkey, i % 50 AS "
                    + "lo_quantity FROM range(20000) r(i)");
            duck.execute("CREATE TABLE cu AS SELECT i AS c_custkey, 'name ' || i AS c_name, i % 5 AS c_nation "
                    + "FROM range(450) r(i)");
            duck.execute("CREATE TABLE cu2 AS SELECT * FROM cu");
            ferry.execute("CREATE TABLE lo (lo_orderkey BIGINT, lo_custkey BIGINT, lo_quantity BIGINT) "
                    + "WITH (partition_by = 'custkey:4', placement = 'partition')");
            ferry.execute("CREATE TABLE cu (c_custkey BIGINT, c_name VARCHAR, c_nation BIGINT) "
                    + "WITH (partition_by = 'custkey:4', placement = 'partition')");
            ferry.execute("CREATE TABLE cu2 (c_custkey BIGINT, c_name VARCHAR, c_nation BIGINT) "
                    + "WITH (partition_by = 'custkey:2')");
            StringBuilder lo = new StringBuilder();
            for (int i = 0; i < 20000; i++) {
                lo.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append((i * 7L) % 500).append(", ")
                        .append(i % 50).append(')');
            }
            ferry.execute("INSERT INTO lo VALUES " + lo);
            StringBuilder cu = new StringBuilder();
            for (int i = 0; i < 450; i++) {
                cu.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'name ").append(i).append("', ")
                        .append(i % 5).append(')');
            }
            ferry.execute("INSERT INTO cu VALUES " + cu);
            ferry.execute("INSERT INTO cu2 SELECT * FROM cu");
        }
        cluster.shipping("function");
    }

    @AfterAll
    static void stop() throws SQLException {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aWorkerReadsOnlyTheBuildPartsItsProbeBlocksNeed() throws SQLException {
        long[] before = cluster.coordinator().runner().buildBlocks();
        for (String q : List.of(
                "SELECT c_nation, COUNT(*), SUM(lo_quantity) FROM lo JOIN cu ON lo_custkey = c_custkey GROUP BY c_nation",
                "SELECT COUNT(*), COUNT(c_name) FROM lo LEFT JOIN cu ON lo_custkey = c_custkey",
                "SELECT COUNT(*) FROM lo WHERE EXISTS (SELECT 1 FROM cu WHERE c_custkey = lo_custkey AND c_nation = 2)")) {
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), q, false);
        }
        long[] after = cluster.coordinator().runner().buildBlocks();
        assertTrue(after[1] > before[1], "co-partitioning spared build blocks: " + (after[1] - before[1])
                + " spared of " + (after[0] - before[0] + after[1] - before[1]));
    }

    @Test
    void otherJoinsReadTheWholeBuildTable() throws SQLException {
        long[] before = cluster.coordinator().runner().buildBlocks();
        for (String q : List.of(
                "SELECT COUNT(*) FROM lo WHERE NOT EXISTS (SELECT 1 FROM cu WHERE c_custkey = lo_custkey)",
                "SELECT c_nation, COUNT(*) FROM lo JOIN cu2 ON lo_custkey = c_custkey GROUP BY c_nation",
                "SELECT COUNT(*) FROM lo JOIN cu ON lo_orderkey = c_custkey")) {
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), q, false);
        }
        long[] after = cluster.coordinator().runner().buildBlocks();
        assertEquals(before[1], after[1], "nothing was spared where partitions do not line up");
    }

    /**
     * The shuffle join (DPE Fig. 7a's baseline) splits both inputs of every join by key over the workers, whatever
     * their partitioning: co-partitioned or not, inner, outer, semi and anti joins answer as DuckDB.
     */
    @Test
    void aShuffleJoinAnswersAsDuckDbWhateverThePartitioning() throws SQLException {
        try (Statement s = cluster.ferry().createStatement()) {
            s.execute("SET execution = 'shuffle'");
            for (String q : List.of(
                    "SELECT c_nation, COUNT(*), SUM(lo_quantity) FROM lo JOIN cu ON lo_custkey = c_custkey GROUP BY c_nation",
                    "SELECT c_nation, COUNT(*), SUM(lo_quantity) FROM lo JOIN cu2 ON lo_custkey = c_custkey GROUP BY c_nation",
                    "SELECT COUNT(*), COUNT(c_name) FROM lo LEFT JOIN cu ON lo_custkey = c_custkey",
                    "SELECT COUNT(*) FROM lo WHERE NOT EXISTS (SELECT 1 FROM cu WHERE c_custkey = lo_custkey)",
                    "SELECT COUNT(*) FROM lo WHERE lo_custkey IN (SELECT c_custkey FROM cu2 WHERE c_nation = 3)",
                    "SELECT a.c_nation, COUNT(*) FROM lo JOIN cu a ON lo_custkey = a.c_custkey "
                            + "JOIN cu2 b ON a.c_custkey = b.c_custkey AND b.c_nation < 3 GROUP BY a.c_nation",
                    "SELECT lo_orderkey, c_name FROM lo JOIN cu ON lo_custkey = c_custkey WHERE lo_quantity = 7",
                    "SELECT COUNT(*) FROM lo")) {
                ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), q, false);
            }
            String plan = ResultComparison.plan(cluster.ferry(), "SELECT COUNT(*) FROM lo JOIN cu ON lo_custkey = "
                    + "c_custkey");
            assertTrue(plan.contains("as a shuffle join in 3 stages on 2 nodes"), plan);
            assertTrue(plan.contains("split by column"), plan);
            String anti = ResultComparison.plan(cluster.ferry(), "SELECT COUNT(*) FROM lo WHERE NOT EXISTS "
                    + "(SELECT 1 FROM cu WHERE c_custkey = lo_custkey)");
            assertTrue(anti.contains("gathered"), "an anti join against an aggregate has nothing to split: " + anti);
        } finally {
            try (Statement s = cluster.ferry().createStatement()) {
                s.execute("RESET execution");
            }
        }
    }

    /**
     * {@code execution = 'auto'} takes the way that moves the fewest bytes, and EXPLAIN says so: pipelined for the
     * co-partitioned join, gather for a small dimension that is not, shuffle for a self-join of wide rows on a narrow
     * key (gathering would send the whole table to each worker; the shuffle moves only the keys).
     */
    @Test
    void autoTakesTheWayThatMovesTheFewestBytes() throws SQLException {
        try (Statement duck = cluster.duck().createStatement(); Statement ferry = cluster.ferry().createStatement()) {
            duck.execute("CREATE TABLE wide AS SELECT i AS k, repeat('x', 300) || i AS pad FROM range(4000) r(i)");
            ferry.execute("CREATE TABLE wide (k BIGINT, pad VARCHAR)");
            StringBuilder rows = new StringBuilder();
            String pad = "x".repeat(300);
            for (int i = 0; i < 4000; i++) {
                rows.append(i == 0 ? "" : ", ").append('(').append(i).append(", '").append(pad).append(i).append("')");
            }
            ferry.execute("INSERT INTO wide VALUES " + rows);
        }
        String aligned = "SELECT c_nation, COUNT(*) FROM lo JOIN cu ON lo_custkey = c_custkey GROUP BY c_nation";
        String small = "SELECT c_nation, COUNT(*) FROM lo JOIN cu2 ON lo_custkey = c_custkey GROUP BY c_nation";
        // both sides read their wide column, so gathering would send the build's to every unit
        String wide = "SELECT COUNT(*), SUM(LENGTH(a.pad) + LENGTH(b.pad)) FROM wide a JOIN wide b ON a.k = b.k";
        for (String[] q : new String[][] {{aligned, "pipelined"}, {small, "gather"}, {wide, "shuffle"}}) {
            String plan = ResultComparison.plan(cluster.ferry(), q[0]);
            assertTrue(plan.contains("execution=auto chose " + q[1]), q[0] + "\n" + plan);
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), q[0], false);
        }
    }

    @Test
    void executionSaysWhetherJoinsMayBeRestricted() throws SQLException {
        String aligned = "SELECT c_nation, COUNT(*) FROM lo JOIN cu ON lo_custkey = c_custkey GROUP BY c_nation";
        try (Statement s = cluster.ferry().createStatement()) {
            s.execute("SET execution = 'gather'");
            long[] before = cluster.coordinator().runner().buildBlocks();
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), aligned, false);
            assertEquals(before[1], cluster.coordinator().runner().buildBlocks()[1], "gather reads builds whole");
            assertTrue(ResultComparison.plan(cluster.ferry(), aligned).contains("execution=gather"));
            s.execute("SET execution = 'pipelined'");
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), aligned, false);
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), "SELECT COUNT(*) FROM lo", false);
            // a join that is not co-partitioned runs gathered, and EXPLAIN says so
            String notAligned = "SELECT COUNT(*) FROM lo JOIN cu2 ON lo_custkey = c_custkey";
            ResultComparison.assertSameResult(cluster.ferry(), cluster.duck(), notAligned, false);
            String plan = ResultComparison.plan(cluster.ferry(), notAligned);
            assertTrue(plan.contains("no join here is co-partitioned with lo (same domain, as many parts): gathered"),
                    plan);
            s.execute("RESET execution");
        }
    }
}
