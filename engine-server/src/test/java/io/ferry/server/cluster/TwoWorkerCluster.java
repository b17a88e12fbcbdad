package io.ferry.server.cluster;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.fabric.Fabrics;
import io.ferry.sql.EngineConfig;

/**
 * A coordinator and two workers in this JVM over the tcp fabric, a connection to the coordinator and an embedded
 * DuckDB: what the cluster tests compare answers with. Closing it closes the connections and every node.
 */
public final class TwoWorkerCluster implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Coordinator coordinator;
    private final List<DataNode> nodes;
    private Connection ferry;
    private Connection duck;

    private TwoWorkerCluster(Coordinator coordinator, List<DataNode> nodes) {
        this.coordinator = coordinator;
        this.nodes = nodes;
    }

    public static TwoWorkerCluster start() throws Exception {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(8 * 1024)
                .withMemoryLimit(256L << 20);
        TwoWorkerCluster cluster = new TwoWorkerCluster(Coordinator.start(new Coordinator.Options(config,
                "127.0.0.1", 0, 0, 0, null, Fabrics.Kind.TCP, TIMEOUT, List.of())), new ArrayList<>());
        try {
            InetSocketAddress control = cluster.coordinator.cluster().address();
            for (int i = 1; i <= 2; i++) {
                cluster.nodes.add(DataNode.start(new DataNode.Options(Role.WORKER, "w" + i, "127.0.0.1", 0, null,
                        control, 1, 64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT)));
            }
            if (!cluster.coordinator.cluster().awaitNodes(2, Duration.ofSeconds(30))) {
                throw new IllegalStateException("the workers did not join");
            }
            cluster.ferry = cluster.coordinator.engine().connect();
            cluster.duck = DriverManager.getConnection("jdbc:duckdb:");
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    public Coordinator coordinator() {
        return coordinator;
    }

    public Connection ferry() {
        return ferry;
    }

    public Connection duck() {
        return duck;
    }

    /** The Ferry connection's shipping mode from now on: 'function', 'data' or 'auto'. */
    void shipping(String mode) throws SQLException {
        try (Statement s = ferry.createStatement()) {
            s.execute("SET shipping = '" + mode + "'");
        }
    }

    @Override
    public void close() throws SQLException {
        if (ferry != null) {
            ferry.close();
        }
        if (duck != null) {
            duck.close();
        }
        coordinator.close();
        for (DataNode n : nodes) {
            n.close();
        }
    }
}
