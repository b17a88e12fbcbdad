package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

import io.ferry.core.gen.SkewWorkload;
import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SkewLoad;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * The skew paper's workload on the cluster shapes of its experiment ({@code bin/ferry experiment skew}), under
 * {@code SET assignment = 'partition'}: partition p is a unit of compute server (or worker) p mod n, with a work
 * queue of its own, wherever its blocks are — all nodes hold a piece of it under NAM-partitioning. On workers with
 * {@code steal = 'on'} (I-Store's local-access optimization) a worker runs the blocks it holds in place and steals
 * the others' over the fabric.
 * Answers equal DuckDB's on the same tables; every block runs exactly once.
 */
class AssignedSkewOnClusterTest {
    /** a Zipf-skewed (z = 1.25) over 4 partitions, each spread over every node. */
    private static final String SPEC = "rows=40000,inner=4000,distribution=zipf,partitions=4,placement=nam,seed=5";

    @Test
    void workersStealUnderPartitionAssignmentAndRunTheirOwnBlocksInPlace() throws Exception {
        try (TwoWorkerCluster cluster = TwoWorkerCluster.start()) {
            Connection ferry = cluster.ferry();
            try (Statement s = ferry.createStatement();
                    FerryEngine local = FerryEngine.start(EngineConfig.defaults());
                    DuckDbMirror duck = mirror(local)) {
                prepare(cluster.coordinator(), s);
                s.execute("SET steal = 'on'");
                String plan = ResultComparison.plan(ferry, SkewWorkload.QUERY);
                int blocks = WorkStealingOnClusterTest.blocks(ferry, "a");
                assertTrue(plan.contains("4 units on workers share " + blocks + " blocks through work queues on w1, "
                        + "w2"), plan);
                int stolen = 0;
                for (int run = 0; run < 3; run++) {
                    ResultComparison.assertSameResult(ferry, duck.connection(), SkewWorkload.QUERY, false);
                    int[] ran = WorkStealingOnClusterTest.ranAndStolen(ferry);
                    assertEquals(blocks, ran[0], "the workers ran every block of a exactly once");
                    stolen += ran[1];
                }
                // worker 1 runs partitions 0 and 2 (68% of a), worker 2 partitions 1 and 3
                assertTrue(stolen > 0, "the worker with the smaller partitions stole");
                s.execute("SET steal = 'off'");
                ResultComparison.assertSameResult(ferry, duck.connection(), SkewWorkload.QUERY, false);
                assertEquals(4, unitsOfLastQuery(ferry), "one unit per partition");
            }
        }
    }

    @Test
    void computeServersRunTheirPartitionsFromEveryMemoryServer() throws Exception {
        try (MemoryComputeCluster cluster = MemoryComputeCluster.start(2, 2, 1, 64L << 20);
                Connection ferry = cluster.coordinator().engine().connect()) {
            try (Statement s = ferry.createStatement();
                    FerryEngine local = FerryEngine.start(EngineConfig.defaults());
                    DuckDbMirror duck = mirror(local)) {
                prepare(cluster.coordinator(), s);
                for (String steal : new String[] {"off", "on"}) {
                    s.execute("SET steal = '" + steal + "'");
                    ResultComparison.assertSameResult(ferry, duck.connection(), SkewWorkload.QUERY, false);
                    // by partition, not by memory server: four units (two per compute server), not two
                    assertEquals(4, unitsOfLastQuery(ferry), "steal=" + steal);
                }
                assertEquals(WorkStealingOnClusterTest.blocks(ferry, "a"),
                        WorkStealingOnClusterTest.ranAndStolen(ferry)[0], "every block ran exactly once");
            }
        }
    }

    /** Loads the workload onto the cluster; function shipping, gathered, by partition: what both shapes share. */
    private static void prepare(Coordinator coordinator, Statement s) throws SQLException {
        SkewLoad.load(SkewWorkload.Spec.parse(SPEC), coordinator.engine().catalog(), ProgressListener.NONE);
        s.execute("SET shipping = 'function'");
        s.execute("SET execution = 'gather'");
        s.execute("SET assignment = 'partition'");
    }

    /**
     * DuckDB with the same tables: the generator is seeded, so a local engine's copy has the cluster's rows (a
     * cluster's blocks cannot be exported from the coordinator).
     */
    private static DuckDbMirror mirror(FerryEngine local) throws Exception {
        SkewLoad.load(SkewWorkload.Spec.parse(SPEC), local.catalog(), ProgressListener.NONE);
        return DuckDbMirror.of(local.catalog());
    }

    /** The number of units of a's scan in the last query that ran one (sys.fragments). */
    private static int unitsOfLastQuery(Connection ferry) throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.fragments "
                + "WHERE table_name = 'a' AND query_id = (SELECT MAX(query_id) FROM sys.fragments WHERE table_name = "
                + "'a')")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
