package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.bench.NodeProcess;
import io.ferry.server.jdbc.JdbcServer;

/**
 * The network-attached-memory layout of the I-Store papers on this machine: a coordinator, memory servers that hold
 * SSB (partitioned for its star joins) and compute servers that run the fragments, each node its own JVM from the
 * server jar. With a link rate, every memory and compute server sits in a network namespace of its own behind a
 * {@link ShapedLink} of that rate, and the host routes between them, so bytes from a memory server to a compute
 * server cross two shaped links, as through a switch. Compute servers are pinned one per CPU, round-robin; memory
 * servers and the coordinator may run on every CPU (the tcp fabric's serving threads are the memory servers' only
 * work).
 *
 * @see ../shared/notes/network-shaping.md
 */
final class NamExperimentCluster implements AutoCloseable {
    /**
     * @param memory      memory servers
     * @param compute     compute servers, one thread each
     * @param megabits    every node's link, Mbit/s; 0: loopback, unshaped
     * @param scale       SSB scale factor
     * @param partitionBy how the demo partitions SSB ({@code --demo-partition-by})
     * @param blockSize   the coordinator's {@code --block-size}, e.g. 1m
     * @param latencyMicros latency the memory servers add to every block read they serve (the tcp fabric's
     *                    {@code FERRY_FABRIC_READ_DELAY_US}: this kernel cannot add it to a link); 0 for none
     */
    record Layout(int memory, int compute, int megabits, double scale, String partitionBy, String blockSize,
            int latencyMicros) {
    }

    private final Teardown teardown = new Teardown();
    private String host = "127.0.0.1";
    private int jdbcPort;

    static NamExperimentCluster start(Settings s, Layout layout, Path logs) throws Exception {
        NamExperimentCluster cluster = new NamExperimentCluster();
        try {
            int nodes = layout.memory() + layout.compute();
            List<ShapedLink> links = new ArrayList<>();
            if (layout.megabits() > 0) {
                cluster.teardown.last(ShapedLink.forwarding());
                for (int i = 0; i < nodes; i++) {
                    ShapedLink link = ShapedLink.create(layout.megabits(), i + 1);
                    cluster.teardown.first(link);
                    links.add(link);
                }
                cluster.host = links.get(0).hostAddress();
            }
            int cores = Runtime.getRuntime().availableProcessors();
            String all = "0-" + (cores - 1);
            cluster.jdbcPort = NodeProcess.freePort();
            int control = NodeProcess.freePort();
            List<String> args = new ArrayList<>(List.of("coordinator", "--host", cluster.host, "--port",
                    Integer.toString(cluster.jdbcPort), "--control-port", Integer.toString(control),
                    "--threads", Integer.toString(cores), "--fabric", s.fabric(), "--demo", "--expect-nodes",
                    Integer.toString(nodes), "--rows", "1000", "--distinct", "10", "--scale",
                    Double.toString(layout.scale()), "--demo-partition-by", layout.partitionBy(), "--block-size",
                    layout.blockSize()));
            if (layout.megabits() > 0) {
                // every link is a veth pair into a namespace of this machine: nobody else reaches it
                args.add("--insecure");
            }
            NodeProcess coordinator = NodeProcess.start("coordinator", s.java(all, List.of(), s.coordinatorHeap(),
                    args), logs);
            cluster.teardown.first(coordinator);
            coordinator.await("Ferry coordinator is ready", Duration.ofMinutes(2));
            for (int i = 0; i < nodes; i++) {
                boolean memory = i < layout.memory();
                String name = memory ? "m" + (i + 1) : "c" + (i - layout.memory() + 1);
                List<String> node = new ArrayList<>(List.of(memory ? "memory" : "compute", "--name", name,
                        "--host", links.isEmpty() ? "127.0.0.1" : links.get(i).nodeAddress(), "--coordinator",
                        cluster.host + ":" + control, "--fabric", s.fabric()));
                node.addAll(memory ? List.of("--memory", s.workerMemory()) : List.of("--threads", "1"));
                String cpus = memory ? all : Integer.toString((i - layout.memory()) % cores);
                List<String> prefix = new ArrayList<>(links.isEmpty() ? List.of() : links.get(i).enter());
                if (memory && layout.latencyMicros() > 0) {
                    prefix.addAll(List.of("env", "FERRY_FABRIC_READ_DELAY_US=" + layout.latencyMicros()));
                }
                NodeProcess p = NodeProcess.start(name, s.java(cpus, prefix, s.workerHeap(), node), logs);
                cluster.teardown.first(p);
            }
            coordinator.await("Demo data loaded", Duration.ofMinutes(20));
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(JdbcServer.avaticaUrl(host, jdbcPort));
    }

    /** Stops the nodes, then the coordinator, then removes the links and puts forwarding back. */
    @Override
    public void close() {
        teardown.close();
    }
}
