package io.ferry.bench.experiment;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.bench.NodeProcess;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.server.load.LoadClient;
import io.ferry.server.load.LoadRequest;

/**
 * The skew paper's four-node cluster on this machine (section 4), in one of two shapes: four workers, each holding
 * its partitions and running the fragments over them (the shared-nothing baseline), or four memory and four compute
 * servers, a pair per emulated physical node (I-Store's network-attached memory). Compute servers and workers run
 * one thread each. Every emulated node gets an equal share of the machine: a {@link CpuQuota} for its worker or
 * compute server (as root), or else its compute thread pinned round-robin to the CPUs. The memory servers and the
 * coordinator run outside the quotas: a memory server stands in for an RDMA NIC, which serves one-sided reads and
 * atomics without the node's CPU, while over the tcp fabric it spends CPU on every read and claim — under its node's
 * quota that CPU would be taken from the node's compute server, and every claim's reply would wait for the next
 * period. Over loopback: the paper's FDR network is far faster than a node's cores, as loopback is here.
 */
final class SkewCluster implements AutoCloseable {
    /** The nodes of one emulated physical node: a worker, or a memory and a compute server. */
    enum Shape {
        WORKERS, NAM
    }

    /**
     * The share of the machine the emulated nodes' workers or compute servers get in all: the rest is the memory
     * servers', the coordinator's and the harness's, so that four nodes busy at once get their quotas rather than
     * less (at 100% the uniform runs were short of CPU and as slow as the skewed ones).
     */
    static final double NODE_SHARE = 0.6;

    private final Teardown teardown = new Teardown();
    private int jdbcPort;
    /** Whether the nodes have CPU quotas (else they share by taskset). */
    private boolean quotas = true;

    static SkewCluster start(Settings s, Shape shape, int nodes, Path logs) throws Exception {
        SkewCluster cluster = new SkewCluster();
        try {
            int cores = Runtime.getRuntime().availableProcessors();
            String all = "0-" + (cores - 1);
            cluster.jdbcPort = NodeProcess.freePort();
            int control = NodeProcess.freePort();
            List<String> args = List.of("coordinator", "--host", "127.0.0.1", "--port",
                    Integer.toString(cluster.jdbcPort), "--control-port", Integer.toString(control), "--threads",
                    Integer.toString(cores), "--fabric", s.fabric(), "--block-size", "1m");
            NodeProcess coordinator = NodeProcess.start("coordinator", s.java(all, List.of(), s.coordinatorHeap(),
                    args), logs);
            cluster.teardown.first(coordinator);
            coordinator.await("Ferry coordinator is ready", Duration.ofMinutes(2));
            int started = 0;
            for (int i = 0; i < nodes; i++) {
                CpuQuota quota = CpuQuota.create("ferry-skew-node" + (i + 1), NODE_SHARE * cores / nodes);
                List<String> enter = List.of();
                String cpu = all;
                if (quota == null) {
                    cluster.quotas = false;
                    cpu = Integer.toString(i % cores);
                } else {
                    cluster.teardown.last(quota);
                    enter = quota.enter();
                }
                if (shape == Shape.WORKERS) {
                    cluster.node(s, logs, "w" + (i + 1), cpu, enter, List.of("worker", "--threads", "1", "--memory",
                            s.workerMemory()), control);
                    started++;
                } else {
                    cluster.node(s, logs, "m" + (i + 1), all, List.of(), List.of("memory", "--memory",
                            s.workerMemory()), control);
                    cluster.node(s, logs, "c" + (i + 1), cpu, enter, List.of("compute", "--threads", "1"), control);
                    started += 2;
                }
            }
            cluster.awaitNodes(started, Duration.ofMinutes(2));
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    private void node(Settings s, Path logs, String name, String cpus, List<String> enter, List<String> role,
            int control) {
        List<String> args = new ArrayList<>(role);
        args.addAll(List.of("--name", name, "--host", "127.0.0.1", "--coordinator", "127.0.0.1:" + control,
                "--fabric", s.fabric()));
        teardown.first(NodeProcess.start(name, s.java(cpus, enter, s.workerHeap(), args), logs));
    }

    /** How the emulated nodes share the machine, for the report. */
    String sharing() {
        int cores = Runtime.getRuntime().availableProcessors();
        return quotas ? String.format(java.util.Locale.ROOT, "each node's worker or compute server limited to %.2f of "
                + "a CPU by a cgroup quota (%.0f%% of the machine for the four; memory servers, standing in for RDMA "
                + "NICs, and the coordinator outside the quotas)", NODE_SHARE * cores / 4, NODE_SHARE * 100)
                : "compute threads pinned round-robin to the CPUs (no cgroup quota: not root)";
    }

    /** Nodes join in the order they start; the memory servers' order is the partitions' placement order. */
    private void awaitNodes(int n, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Connection c = connect(); Statement st = c.createStatement()) {
            while (true) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM sys.nodes WHERE state = 'up' AND role <> "
                        + "'coordinator'")) {
                    rs.next();
                    if (rs.getInt(1) >= n) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("fewer than " + n + " nodes joined within " + timeout);
                }
                Thread.sleep(200);
            }
        }
    }

    /** Generates a dataset of the skew workload on the server ({@code bin/ferry load --generate skew:spec}). */
    void generate(String spec) throws InterruptedException {
        LoadClient.load(URI.create("http://127.0.0.1:" + jdbcPort), LoadRequest.generating("skew:" + spec),
                ProgressListener.NONE);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(JdbcServer.avaticaUrl("127.0.0.1", jdbcPort));
    }

    @Override
    public void close() {
        teardown.close();
    }
}
