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
 * {@code integration-tests/soft-roce/rdma-tests.sh} (plain java, no Maven): a coordinator keeping two copies of
 * every block ({@code --replicas 2}), two memory servers and two compute servers in this JVM, each with its own rdma
 * fabric on the VM's rxe device, SSB partitioned for its star joins; LINEORDER ⋈ CUSTOMER ⋈ PART gathered, pipelined
 * and shuffled, each answer checked against DuckDB over the same rows, and every node must report the rdma provider;
 * then the coordinator, which keeps a data directory, is restarted while the nodes run on, and must adopt every copy of
 * every block where the memory servers kept it and answer the join by data shipping as before; then memory server m1
 * stops, and the join must answer from m2's copies; m1 started again must catch up on every block (copied by one-sided
 * READs and WRITEs), and with m2 stopped the join must answer from m1's copies. Prints {@code N passed, N failed};
 * exits non-zero unless all passed.
 */
public final class RdmaClusterCheck {
    private static final String QUERY = "SELECT c_nation, p_mfgr, COUNT(*), SUM(lo_revenue) FROM lineorder "
            + "JOIN customer ON lo_custkey = c_custkey JOIN part ON lo_partkey = p_partkey "
            + "WHERE c_region = 'AMERICA' GROUP BY c_nation, p_mfgr";
    private static final double SCALE = 0.005;

    private RdmaClusterCheck() {
    }

    private static final int CHECKS = 7;

    public static void main(String[] args) throws Exception {
        String host = System.getProperty("ferry.rdma.host", "192.168.77.1");
        Duration timeout = Duration.ofSeconds(30);
        int passed = 0;
        List<String> failed = new ArrayList<>();
        // no planner warm-up: under QEMU's emulation it took the VM's CPU for minutes while the nodes started
        EngineConfig config = EngineConfig.defaults().withThreads(1).withBlockSize(64 * 1024)
                .withMemoryLimit(256L << 20).withPlannerWarmup(false);
        // the VM's rxe address is not loopback; nothing but this JVM reaches it
        Path data = Files.createTempDirectory("ferry-rdma-data");
        Coordinator.Options options = new Coordinator.Options(config, host, 0, 0, 0, null, Fabrics.Kind.RDMA, timeout,
                List.of(), new ServerSecurity(null, true), null, false).withDataDirectory(data).withReplicas(2);
        Coordinator coordinator = Coordinator.start(options);
        List<DataNode> nodes = new ArrayList<>();
        java.util.Map<String, DataNode> memory = new java.util.HashMap<>();
        try (FerryEngine local = FerryEngine.start(EngineConfig.defaults().withThreads(1))) {
            java.net.InetSocketAddress control = coordinator.cluster().address();
            for (String m : List.of("m1", "m2")) {
                memory.put(m, memoryServer(m, host, control, timeout));
                nodes.add(memory.get(m));
            }
            for (int i = 1; i <= 2; i++) {
                nodes.add(DataNode.start(new DataNode.Options(Role.COMPUTE, "c" + i, host, 0, null, control, 1, 0,
                        64L << 20, Fabrics.Kind.RDMA, timeout)));
            }
            if (!coordinator.cluster().awaitNodes(4, Duration.ofSeconds(120))) {
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
                    if (rs.getLong(1) == 5) {
                        passed++;
                    } else {
                        failed.add("providers: " + rs.getLong(1) + " of the coordinator and 4 nodes on rdma");
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
                    .withDataDirectory(data).withReplicas(2));
            try (DuckDbMirror duck = DuckDbMirror.of(local.catalog());
                    Connection ferry = coordinator.engine().connect(); Statement s = ferry.createStatement()) {
                if (coordinator.restoredFiles() == 0 || coordinator.adoptedFiles() != coordinator.restoredFiles()) {
                    failed.add("restart: " + coordinator.adoptedFiles() + " of " + coordinator.restoredFiles()
                            + " data files adopted");
                } else {
                    coordinator.cluster().awaitNodes(4, Duration.ofSeconds(120));
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
                // replicas: m1 stops, the join reads m2's copies; m1 comes back empty and catches up over rdma; m2
                // stops, the join reads m1's copies
                s.execute("SET shipping = 'auto'");
                for (String gone : List.of("m1", "m2")) {
                    DataNode n = memory.remove(gone);
                    nodes.remove(n);
                    n.close();
                    awaitDown(coordinator, gone);
                    try {
                        ResultComparison.assertSameResult(ferry, duck.connection(), QUERY, false);
                        passed++;
                        System.out.println(gone + " stopped: the join matches DuckDB from the other's copies");
                    } catch (AssertionError | Exception e) {
                        failed.add("with " + gone + " stopped: " + e.getMessage());
                    }
                    if (gone.equals("m1")) {
                        memory.put("m1", memoryServer("m1", host, coordinator.cluster().address(), timeout));
                        nodes.add(memory.get("m1"));
                        awaitCopies(s);
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
        System.exit(failed.isEmpty() && passed == CHECKS ? 0 : 1);
    }

    private static DataNode memoryServer(String name, String host, java.net.InetSocketAddress control,
            Duration timeout) {
        return DataNode.start(new DataNode.Options(Role.MEMORY, name, host, 0, null, control, 1, 256L << 20,
                64L << 20, Fabrics.Kind.RDMA, timeout));
    }

    private static void awaitDown(Coordinator c, String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!c.cluster().up(m -> m.name().equals(name)).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Waits (at most two minutes) until every block has two copies on memory servers that are up. */
    private static void awaitCopies(Statement s) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.blocks WHERE copies < 2")) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    System.out.println("m1 started again: every block has two copies again");
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("m1 did not catch up within 120 s");
    }
}
