package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.server.data.SsbQueries;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * The thirteen SSB queries over SSB partitioned for its star joins (custkey:4, partkey:2, suppkey:2), on clusters of
 * (memory, compute) servers = (1,1), (2,2), (2,4) and (4,2), in forced function shipping (the fact table's
 * partitions assigned to the compute servers, each reading only the dimension parts they meet) and auto: every answer
 * equals DuckDB's over the same rows, and with more than one compute server, dimension blocks are spared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PartitionedSsbOnClusterTest {
    private static final double SCALE = 0.005;
    private static final String PARTITION_BY = "custkey:4,partkey:2,suppkey:2";

    private FerryEngine local;
    private DuckDbMirror mirror;

    @BeforeAll
    void mirror() throws Exception {
        local = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(256L << 20));
        new SsbGenerator(SCALE).load(local.catalog(), ProgressListener.NONE);
        mirror = DuckDbMirror.of(local.catalog());
    }

    @AfterAll
    void close() throws Exception {
        mirror.close();
        local.close();
    }

    /**
     * Nothing of the shuffles stays registered: every compute server is back to its one idle region (the link probe)
     * within the 500 ms heartbeats' few seconds.
     */
    private static void awaitIdleRegions(Statement s, int compute) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (true) {
            try (java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(regions) FROM sys.nodes "
                    + "WHERE role = 'compute' AND state = 'up'")) {
                rs.next();
                if (rs.getLong(1) == compute && rs.getLong(2) == compute) {
                    return;
                }
                assertTrue(System.nanoTime() < deadline, "compute servers still hold " + rs.getLong(2)
                        + " regions, idle " + compute);
            }
            Thread.sleep(100);
        }
    }

    @ParameterizedTest(name = "{0} memory, {1} compute")
    @CsvSource({"1, 1", "2, 2", "2, 4", "4, 2"})
    void ssbAnswersAsDuckDb(int memory, int compute) throws Exception {
        try (MemoryComputeCluster cluster = MemoryComputeCluster.start(memory, compute, 1, 128L << 20)) {
            Coordinator coordinator = cluster.coordinator();
            new SsbGenerator(SCALE).loadPartitioned(coordinator.engine().catalog(), PARTITION_BY,
                    ProgressListener.NONE);
            long[] before = coordinator.runner().buildBlocks();
            try (Connection ferry = coordinator.engine().connect(); Statement s = ferry.createStatement()) {
                for (String shipping : List.of("function", "auto")) {
                    s.execute("SET shipping = '" + shipping + "'");
                    for (Map.Entry<String, String> q : SsbQueries.all().entrySet()) {
                        ResultComparison.assertSameResult(ferry, mirror.connection(), q.getValue(), false);
                    }
                }
                // the shuffle join, DPE Fig. 7a's baseline: every join's inputs split by key over the compute servers
                s.execute("SET execution = 'shuffle'");
                for (Map.Entry<String, String> q : SsbQueries.all().entrySet()) {
                    ResultComparison.assertSameResult(ferry, mirror.connection(), q.getValue(), false);
                }
                assertTrue(ResultComparison.plan(ferry, SsbQueries.get("Q4.1")).contains("as a shuffle join"));
                awaitIdleRegions(s, compute);
            }
            if (compute > 1) {
                long[] after = coordinator.runner().buildBlocks();
                assertTrue(after[1] > before[1], "dimension blocks were spared");
            }
        }
    }
}
