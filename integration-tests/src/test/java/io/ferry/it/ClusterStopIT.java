package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.ferry.bench.NodeProcess;

/**
 * SIGTERM stops a cluster's processes within their 5 s shutdown deadline whatever they run (issue 15): a worker
 * running a fragment of a long query, and a coordinator running a query on its worker. Each test starts a
 * coordinator and one worker of its own, since stopping a node loses the blocks it held. The test allows 10 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterStopIT {
    private static final Duration BOUND = Duration.ofSeconds(10);

    private Driver driver;

    @BeforeAll
    void loadDriver() throws Exception {
        driver = FerryDriverLoader.load();
    }

    /** A coordinator and one worker holding the demo's blocks, and the port clients connect to. */
    private record Cluster(NodeProcess coordinator, NodeProcess worker, int port) implements AutoCloseable {
        @Override
        public void close() {
            worker.close();
            coordinator.close();
        }
    }

    private Cluster startCluster(String name) throws Exception {
        int port = NodeProcess.freePort();
        int controlPort = NodeProcess.freePort();
        NodeProcess coordinator = ServerJar.start(name + "-coordinator", "1g", "coordinator", "--port",
                String.valueOf(port), "--control-port", String.valueOf(controlPort), "--threads", "1", "--demo",
                "--expect-nodes", "1", "--rows", "200000", "--distinct", "1000", "--scale", "0.01");
        coordinator.await("nodes join at", Duration.ofSeconds(60));
        NodeProcess worker = ServerJar.start(name + "-worker", "512m", "worker", "--threads", "1", "--memory", "512m",
                "--name", "w1", "--coordinator", "127.0.0.1:" + controlPort, "--fabric", "tcp");
        Cluster cluster = new Cluster(coordinator, worker, port);
        worker.await("is running", Duration.ofSeconds(60));
        coordinator.await("Demo data loaded", Duration.ofSeconds(180));
        try (Connection c = connect(cluster); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE heavy AS SELECT a, MOD(b, 50) AS k FROM r");
        }
        return cluster;
    }

    private Connection connect(Cluster cluster) throws SQLException {
        return driver.connect("jdbc:ferry://127.0.0.1:" + cluster.port(), new Properties());
    }

    @Test
    void aStoppedWorkerExitsWhileItRunsAFragment() throws Exception {
        try (Cluster cluster = startCluster("stop-worker"); Connection c = connect(cluster);
                Statement s = c.createStatement()) {
            s.execute("SET shipping = 'function'");
            var failure = QueryInBackground.start(() -> s.executeQuery(ClusterIT.SLOW));
            awaitFragmentRunning(cluster);
            long start = System.nanoTime();
            assertTrue(cluster.worker().terminate(BOUND), "the worker still runs " + BOUND.toSeconds()
                    + " s after SIGTERM:\n" + cluster.worker().output());
            report("a worker running a fragment", start);
            assertTrue(failure.get(30, TimeUnit.SECONDS) != null, "the query finished without its worker");
        }
    }

    @Test
    void aStoppedCoordinatorExitsWhileAQueryRuns() throws Exception {
        try (Cluster cluster = startCluster("stop-coordinator")) {
            // not closed: the server is gone, and with it the connection
            Statement s = connect(cluster).createStatement();
            s.execute("SET shipping = 'function'");
            var failure = QueryInBackground.start(() -> s.executeQuery(ClusterIT.SLOW));
            awaitFragmentRunning(cluster);
            long start = System.nanoTime();
            assertTrue(cluster.coordinator().terminate(BOUND), "the coordinator still runs " + BOUND.toSeconds()
                    + " s after SIGTERM:\n" + cluster.coordinator().output());
            report("a coordinator running a query", start);
            assertTrue(failure.get(30, TimeUnit.SECONDS) != null, "the query finished without its coordinator");
        }
    }

    private static void report(String what, long sinceNanos) {
        System.out.printf("ClusterStopIT: %s exited %d ms after SIGTERM%n", what,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos));
    }

    private void awaitFragmentRunning(Cluster cluster) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection c = connect(cluster); Statement s = c.createStatement()) {
            while (true) {
                try (ResultSet rs = s.executeQuery("SELECT SUM(fragments_running) FROM sys.nodes WHERE state = 'up'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the worker never started the slow query");
                Thread.sleep(100);
            }
        }
    }
}
