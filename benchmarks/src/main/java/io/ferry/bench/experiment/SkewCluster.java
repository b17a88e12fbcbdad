package io.ferry.bench.experiment;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
 * period. For the same reason the fabric threads of workers and compute servers leave their node's quota for
 * one of their own, their node's NIC ({@link #emulateNics}). Over loopback: the paper's FDR network is far faster
 * than a node's cores, as loopback is here.
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
    /**
     * The share of the machine the emulated nodes' NICs get in all: each node's fabric threads on its worker or
     * compute server run under a quota of their own ({@link #emulateNics}).
     */
    static final double NIC_SHARE = 0.4;

    private final Teardown teardown = new Teardown();
    /**
     * An emulated node's groups, its worker's or compute server's and its NIC's, and the threads of that process
     * already placed in one of them (thread ids are not reused while a process lives long).
     */
    private record Groups(CpuQuota node, CpuQuota nic, Set<String> placed) {
        Groups(CpuQuota node, CpuQuota nic) {
            this(node, nic, new HashSet<>());
        }
    }

    /** The processes under quotas, the workers or the compute servers, with their node's groups. */
    private final Map<NodeProcess, Groups> quotaed = new LinkedHashMap<>();
    /** Keeps each process's fabric threads in its NIC's group and the others in its node's, once started. */
    private ScheduledExecutorService sorter;
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
                CpuQuota nic = CpuQuota.create("ferry-skew-nic" + (i + 1), NIC_SHARE * cores / nodes);
                List<String> enter = List.of();
                String cpu = all;
                if (quota == null || nic == null) {
                    cluster.quotas = false;
                    cpu = Integer.toString(i % cores);
                } else {
                    cluster.teardown.last(quota);
                    cluster.teardown.last(nic);
                    enter = quota.enter();
                }
                if (shape == Shape.WORKERS) {
                    cluster.quotaed.put(cluster.node(s, logs, "w" + (i + 1), cpu, enter, List.of("worker",
                            "--threads", "1", "--memory", s.workerMemory()), control), new Groups(quota, nic));
                    started++;
                } else {
                    cluster.node(s, logs, "m" + (i + 1), all, List.of(), List.of("memory", "--memory",
                            s.workerMemory()), control);
                    cluster.quotaed.put(cluster.node(s, logs, "c" + (i + 1), cpu, enter, List.of("compute",
                            "--threads", "1"), control), new Groups(quota, nic));
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

    private NodeProcess node(Settings s, Path logs, String name, String cpus, List<String> enter, List<String> role,
            int control) {
        List<String> args = new ArrayList<>(role);
        args.addAll(List.of("--name", name, "--host", "127.0.0.1", "--coordinator", "127.0.0.1:" + control,
                "--fabric", s.fabric()));
        NodeProcess node = NodeProcess.start(name, s.java(cpus, enter, s.workerHeap(), args), logs);
        teardown.first(node);
        return node;
    }

    /**
     * Moves the fabric's threads of the workers and compute servers from their node's quota into their NIC's, from
     * now on: over tcp a node spends CPU in them on every block it receives (the socket's copies) and serves, which
     * an RDMA NIC would take from none of the node's cores, landing the block in memory itself. A NIC is still a
     * resource of its node, with a bandwidth of its own: in one group for all nodes, the node that received the most
     * would have taken the others' share. Every 10 ms each new thread of those processes is put in its place: a
     * thread starts in its creator's group, and Ferry's pools make threads when work arrives, sometimes from a fabric
     * thread.
     */
    void emulateNics() {
        if (quotas && sorter == null) {
            sorter = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cgroup-sorter");
                t.setDaemon(true);
                return t;
            });
            sorter.scheduleWithFixedDelay(this::sortThreads, 0, 10, TimeUnit.MILLISECONDS);
        }
    }

    private void sortThreads() {
        for (Map.Entry<NodeProcess, Groups> node : quotaed.entrySet()) {
            try {
                Groups g = node.getValue();
                g.node().sort(node.getKey().pid(), "ferry-fabric", g.nic(), g.placed());
            } catch (IOException e) {
                // the process is gone: teardown, or a failure the run reports
            }
        }
    }

    /** How the emulated nodes share the machine, for the report. */
    String sharing() {
        int cores = Runtime.getRuntime().availableProcessors();
        return quotas ? String.format(java.util.Locale.ROOT, "each node's worker or compute server limited to %.2f of "
                + "a CPU by a cgroup quota (%.0f%% of the machine for the four), its fabric threads, standing in for "
                + "its RDMA NIC, to %.2f by another; memory servers and the coordinator outside the quotas",
                NODE_SHARE * cores / 4, NODE_SHARE * 100, NIC_SHARE * cores / 4)
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
        if (sorter != null) {
            sorter.shutdownNow();
        }
        teardown.close();
    }
}
