package io.ferry.bench.fuzz;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.fabric.Fabrics;
import io.ferry.server.cluster.Coordinator;
import io.ferry.server.cluster.DataNode;
import io.ferry.server.cluster.Role;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * A Ferry the fuzzer queries: local mode, or a coordinator and two workers in this JVM over the tcp fabric. Both use
 * 8 KiB blocks, so that each table spans many blocks (and, in the cluster, both workers), and the parallel
 * partial/final paths run on small data.
 */
public final class FerryTarget implements AutoCloseable {
    static final int BLOCK_SIZE = 8192;
    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(10);
    /** The cluster's shipping settings, one per query in turn. */
    static final List<String> SHIPPING = List.of("function", "data", "auto");

    private final String name;
    private final FerryEngine engine;
    private final Coordinator coordinator;
    private final List<DataNode> workers;
    private final Connection connection;
    private String shipping;

    private FerryTarget(String name, FerryEngine engine, Coordinator coordinator, List<DataNode> workers)
            throws SQLException {
        this.name = name;
        this.engine = engine;
        this.coordinator = coordinator;
        this.workers = workers;
        this.connection = (engine != null ? engine : coordinator.engine()).connect();
    }

    public static FerryTarget local() throws SQLException {
        return new FerryTarget("local", FerryEngine.start(EngineConfig.defaults().withThreads(2)
                .withBlockSize(BLOCK_SIZE)), null, List.of());
    }

    public static FerryTarget cluster() throws SQLException {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(BLOCK_SIZE)
                .withMemoryLimit(512L << 20);
        Coordinator coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null,
                Fabrics.Kind.TCP, NODE_TIMEOUT, List.of()));
        List<DataNode> workers = new ArrayList<>();
        try {
            InetSocketAddress control = coordinator.cluster().address();
            for (int i = 1; i <= 2; i++) {
                workers.add(DataNode.start(new DataNode.Options(Role.WORKER, "w" + i, "127.0.0.1", 0, null, control, 1,
                        256L << 20, 256L << 20, Fabrics.Kind.TCP, NODE_TIMEOUT)));
            }
            if (!coordinator.cluster().awaitNodes(2, Duration.ofSeconds(30))) {
                throw new IllegalStateException("the two workers did not join the coordinator within 30 s");
            }
            return new FerryTarget("cluster", null, coordinator, workers);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            workers.forEach(DataNode::close);
            coordinator.close();
            throw new IllegalStateException("interrupted while the workers joined", e);
        } catch (RuntimeException | SQLException e) {
            workers.forEach(DataNode::close);
            coordinator.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    public boolean clustered() {
        return coordinator != null;
    }

    public Connection connection() {
        return connection;
    }

    /** SET shipping, in a cluster only, and only when it changes. */
    public void shipping(String mode) throws SQLException {
        if (clustered() && !mode.equals(shipping)) {
            try (Statement s = connection.createStatement()) {
                s.execute("SET shipping = '" + mode + "'");
            }
            shipping = mode;
        }
    }

    /** Closes the connection and every node; an engine that leaked Arrow memory fails here. */
    @Override
    public void close() throws SQLException {
        connection.close();
        if (engine != null) {
            engine.close();
            return;
        }
        RuntimeException first = null;
        try {
            coordinator.close();
        } catch (RuntimeException e) {
            first = e;
        }
        for (DataNode w : workers) {
            try {
                w.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
