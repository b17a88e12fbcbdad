package io.ferry.bench.experiment;

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
import io.ferry.server.jdbc.JdbcServer;

/**
 * A coordinator and one worker, each its own JVM from the server jar, pinned to CPUs with {@code taskset}; the worker
 * optionally behind a {@link ShapedLink}. The coordinator loads the paper's table r (its --demo) into the worker once
 * it has joined. This is the ship-or-not paper's setup (§III: one coordinator, one worker) scaled to this machine.
 */
final class ExperimentCluster implements AutoCloseable {
    /**
     * @param coordinatorCpus taskset CPU list for the coordinator, e.g. "0-1"
     * @param workerCpus      taskset CPU list for the worker, e.g. "1"
     * @param megabits        the worker's link, Mbit/s; 0: loopback, unshaped
     */
    record Layout(String coordinatorCpus, int coordinatorThreads, String workerCpus, int workerThreads,
            int megabits) {
    }

    private final Teardown teardown = new Teardown();
    private final String host;
    private final int jdbcPort;

    private ExperimentCluster(String host, int jdbcPort) {
        this.host = host;
        this.jdbcPort = jdbcPort;
    }

    /** Starts the cluster with r of {@code settings.rows()} rows and {@code distinct} values of b, and warms it up. */
    static ExperimentCluster start(Settings settings, Layout layout, long distinct, Path logs)
            throws InterruptedException, SQLException {
        ShapedLink link = layout.megabits() > 0 ? ShapedLink.create(layout.megabits()) : null;
        String host = link == null ? "127.0.0.1" : link.hostAddress();
        ExperimentCluster cluster = new ExperimentCluster(host, NodeProcess.freePort());
        try {
            if (link != null) {
                cluster.teardown.last(link);
            }
            int control = NodeProcess.freePort();
            List<String> args = new ArrayList<>(List.of("coordinator", "--host", host, "--port",
                    Integer.toString(cluster.jdbcPort), "--control-port", Integer.toString(control),
                    "--threads", Integer.toString(layout.coordinatorThreads()), "--fabric", settings.fabric(),
                    "--demo", "--expect-nodes", "1", "--rows", Long.toString(settings.rows()),
                    "--distinct", Long.toString(distinct), "--scale", "0.001"));
            if (link != null) {
                // the shaped link is a veth pair into a network namespace of this machine: nobody else reaches it
                args.add("--insecure");
            }
            NodeProcess coordinator = NodeProcess.start("coordinator", settings.java(layout.coordinatorCpus(),
                    List.of(), settings.coordinatorHeap(), args), logs);
            cluster.teardown.first(coordinator);
            coordinator.await("Ferry coordinator is ready", Duration.ofMinutes(2));
            String workerHost = link == null ? "127.0.0.1" : link.nodeAddress();
            NodeProcess worker = NodeProcess.start("worker", settings.java(layout.workerCpus(),
                    link == null ? List.of() : link.enter(), settings.workerHeap(), List.of("worker", "--name", "w1",
                            "--host", workerHost, "--coordinator", host + ":" + control, "--threads",
                            Integer.toString(layout.workerThreads()), "--memory", settings.workerMemory(),
                            "--fabric", settings.fabric())), logs);
            cluster.teardown.first(worker);
            coordinator.await("Demo data loaded", Duration.ofMinutes(10));
            cluster.warmUp();
            return cluster;
        } catch (RuntimeException | InterruptedException | SQLException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Runs the paper's query a few times in each mode, so that the first point does not pay for the JIT compiling
     * the coordinator's and the worker's code paths.
     */
    private void warmUp() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String mode : List.of("function", "data")) {
                s.execute("SET shipping = '" + mode + "'");
                for (int i = 0; i < 3; i++) {
                    try (ResultSet rs = s.executeQuery(String.format(Experiment.GROUP_BY, "r"))) {
                        rs.next();
                    }
                }
            }
            s.execute("SET shipping = 'auto'");
        }
    }

    /** Another process pinned to the worker's CPUs, stopped with the cluster. */
    void alsoRun(NodeProcess process) {
        teardown.first(process);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(JdbcServer.avaticaUrl(host, jdbcPort));
    }

    /** Stops the worker, then the coordinator, then removes the link. */
    @Override
    public void close() {
        teardown.close();
    }
}
