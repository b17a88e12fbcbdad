package io.ferry.server.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.fabric.Fabrics;
import io.ferry.server.ServerSecurity;
import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * A distributed three-way join over real RDMA verbs, run inside the soft-RoCE VM by
 * {@code integration-tests/soft-roce/rdma-tests.sh} (plain java, no Maven): a coordinator, a memory server and two
 * compute servers in this JVM, each with its own rdma fabric on the VM's rxe device, SSB partitioned for its star
 * joins; LINEORDER ⋈ CUSTOMER ⋈ PART gathered, pipelined and shuffled, each answer checked against DuckDB over the
 * same rows, and every node must report the rdma provider; then the coordinator, which keeps a data directory, is
 * restarted while the nodes run on, and must adopt every block where the memory server kept it and answer the join
 * by data shipping as before. Prints {@code N passed, N failed}; exits non-zero unless all passed.
 */
public final class RdmaClusterCheck {
    private static final String QUERY = "SELECT c_nation, p_mfgr, COUNT(*), SUM(lo_revenue) FROM lineorder "
            + "JOIN customer ON lo_custkey = c_custkey JOIN part ON lo_partkey = p_partkey "
            + "WHERE c_region = 'AMERICA' GROUP BY c_nation, p_mfgr";
    private static final double SCALE = 0.005;

    private RdmaClusterCheck() {
    }

    public static void main(String[] args) throws Exception {
        String host = System.getProperty("ferry.rdma.host", "192.168.77.1");
        Duration timeout = Duration.ofSeconds(30);
        int passed = 0;
        List<String> failed = new ArrayList<>();
        EngineConfig config = EngineConfig.defaults().withThreads(1).withBlockSize(64 * 1024)
                .withMemoryLimit(256L << 20);
        // the VM's rxe address is not loopback; nothing but this JVM reaches it
        Path data = Files.createTempDirectory("ferry-rdma-data");
        Coordinator.Options options = new Coordinator.Options(config, host, 0, 0, 0, null, Fabrics.Kind.RDMA, timeout,
                List.of(), new ServerSecurity(null, true), null, false).withDataDirectory(data);
        Coordinator coordinator = Coordinator.start(options);
        List<DataNode> nodes = new ArrayList<>();
        try (FerryEngine local = FerryEngine.start(EngineConfig.defaults().withThreads(1))) {
            java.net.InetSocketAddress control = coordinator.cluster().address();
            nodes.add(DataNode.start(new DataNode.Options(Role.MEMORY, "m1", host, 0, null, control, 1, 256L << 20,
                    64L << 20, Fabrics.Kind.RDMA, timeout)));
            for (int i = 1; i <= 2; i++) {
                nodes.add(DataNode.start(new DataNode.Options(Role.COMPUTE, "c" + i, host, 0, null, control, 1, 0,
                        64L << 20, Fabrics.Kind.RDMA, timeout)));
            }
            if (!coordinator.cluster().awaitNodes(3, Duration.ofSeconds(120))) {
                throw new IllegalStateException("the nodes did not join within 120 s");
            }
            new SsbGenerator(SCALE).loadPartitioned(coordinator.engine().catalog(), "custkey:2,partkey:2",
                    ProgressListener.NONE);
            new SsbGenerator(SCALE).load(local.catalog(), ProgressListener.NONE);
            try (DuckDbMirror duck = DuckDbMirror.of(local.catalog());
                    Connection ferry = coordinator.engine().connect(); Statement s = ferry.createStatement()) {
                // the three nodes and the coordinator (sys.nodes lists it first)
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.nodes WHERE provider = 'rdma'")) {
                    rs.next();
                    if (rs.getLong(1) == 4) {
                        passed++;
                    } else {
                        failed.add("providers: " + rs.getLong(1) + " of the coordinator and 3 nodes on rdma");
                    }
                }
                s.execute("SET shipping = 'function'");
                for (String mode : List.of("gather", "pipelined", "shuffle")) {
                    s.execute("SET execution = '" + mode + "'");
                    try {
                        ResultComparison.assertSameResult(ferry, duck.connection(), QUERY, false);
                        passed++;
                        System.out.println("three-way join, execution = '" + mode + "': matches DuckDB");
                    } catch (AssertionError | Exception e) {
                        failed.add("execution = '" + mode + "': " + e.getMessage());
                    }
                }
            }
            // the coordinator restarted over the memory server that kept its blocks: it adopts them where they are,
            // read with the rkeys the memory server registered them under, from the new process's queue pairs
            int controlPort = coordinator.cluster().address().getPort();
            coordinator.close();
            coordinator = Coordinator.start(new Coordinator.Options(config, host, 0, controlPort, 0, null,
                    Fabrics.Kind.RDMA, timeout, List.of(), new ServerSecurity(null, true), null, false)
                    .withDataDirectory(data));
            try (DuckDbMirror duck = DuckDbMirror.of(local.catalog());
                    Connection ferry = coordinator.engine().connect(); Statement s = ferry.createStatement()) {
                if (coordinator.restoredFiles() == 0 || coordinator.adoptedFiles() != coordinator.restoredFiles()) {
                    failed.add("restart: " + coordinator.adoptedFiles() + " of " + coordinator.restoredFiles()
                            + " data files adopted");
                } else {
                    coordinator.cluster().awaitNodes(3, Duration.ofSeconds(120));
                    s.execute("SET shipping = 'data'");
                    try {
                        ResultComparison.assertSameResult(ferry, duck.connection(), QUERY, false);
                        passed++;
                        System.out.println("coordinator restarted: " + coordinator.adoptedFiles()
                                + " data files adopted over rdma, the join matches DuckDB");
                    } catch (AssertionError | Exception e) {
                        failed.add("after the coordinator's restart: " + e.getMessage());
                    }
                }
            }
        } catch (Exception | AssertionError e) {
            failed.add("the cluster: " + e);
        } finally {
            // the nodes first: closed after their coordinator, they would keep trying to rejoin it
            for (DataNode n : nodes) {
                n.close();
            }
            coordinator.close();
        }
        failed.forEach(f -> System.out.println("FAILED " + f));
        System.out.printf("%d passed, %d failed%n", passed, failed.size());
        System.exit(failed.isEmpty() && passed == 5 ? 0 : 1);
    }
}
