package io.ferry.bench.fuzz;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.ferry.bench.InProcessCluster;
import io.ferry.server.cluster.Role;
import io.ferry.sql.EngineConfig;
import io.ferry.bench.BenchSql;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;

/**
 * A Ferry the fuzzer queries: local mode, or a coordinator and two workers in this JVM over the tcp fabric. Both use
 * 8 KiB blocks, so that each table spans many blocks (and, in the cluster, both workers), and the parallel
 * partial/final paths run on small data.
 */
public final class FerryTarget implements AutoCloseable {
    static final int BLOCK_SIZE = 8192;
    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * The cluster's settings, one per query in turn: a shipping mode, or "shuffle" for the shuffle join (function
     * shipping, {@code SET execution = 'shuffle'}).
     */
    static final List<String> SHIPPING = List.of("function", "data", "auto", "shuffle");

    private final String name;
    private final FerryEngine engine;
    private final InProcessCluster cluster;
    private final Connection connection;
    private final AtomicReference<QueryLog.Entry> lastEnded = new AtomicReference<>();
    private String shipping;

    private FerryTarget(String name, FerryEngine engine, InProcessCluster cluster) throws SQLException {
        this.name = name;
        this.engine = engine;
        this.cluster = cluster;
        FerryEngine coordinator = engine != null ? engine : cluster.engine();
        coordinator.queries().onEnded(lastEnded::set);
        this.connection = coordinator.connect();
    }

    /**
     * The operators of Calcite's row engine that the statement {@code sql}, if it ended last, ran
     * (sys.queries.row_engine); null if none, or if another statement ended last.
     */
    public String rowEngine(String sql) {
        QueryLog.Entry e = lastEnded.get();
        return e != null && e.statement().equals(sql) ? e.rowEngine() : null;
    }

    /** Local mode, its tables in memory only. */
    public static FerryTarget local() throws SQLException {
        return local(null);
    }

    /** Local mode keeping its tables in the data directory {@code data} (restoring what it holds), or in memory. */
    public static FerryTarget local(Path data) throws SQLException {
        FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(BLOCK_SIZE), null,
                data);
        try {
            engine.restore(f -> { });
            return new FerryTarget("local", engine, null);
        } catch (SQLException | RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /**
     * This local target stopped and started again on its data directory: a new target whose tables are what the
     * directory gave back.
     */
    public FerryTarget restarted() throws SQLException {
        Path data = engine.dataDirectory().root();
        close();
        return local(data);
    }

    public static FerryTarget cluster() throws SQLException {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(BLOCK_SIZE)
                .withMemoryLimit(512L << 20);
        InProcessCluster cluster = InProcessCluster.start(config, List.of(
                new InProcessCluster.Node(Role.WORKER, "w1", 1, 256L << 20, 256L << 20),
                new InProcessCluster.Node(Role.WORKER, "w2", 1, 256L << 20, 256L << 20)), NODE_TIMEOUT);
        try {
            return new FerryTarget("cluster", null, cluster);
        } catch (SQLException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    public boolean clustered() {
        return cluster != null;
    }

    public Connection connection() {
        return connection;
    }

    /** Ferry's plan of {@code sql} (EXPLAIN PLAN FOR), or why there is none. */
    public String explain(String sql) {
        try {
            return BenchSql.plan(connection, sql).strip();
        } catch (SQLException e) {
            return "(no plan: " + e.getSQLState() + " " + e.getMessage() + ")";
        }
    }

    /** SET shipping (and execution: 'shuffle', or 'auto'), in a cluster only, and only when it changes. */
    public void shipping(String mode) throws SQLException {
        if (clustered() && !mode.equals(shipping)) {
            boolean shuffle = mode.equals("shuffle");
            try (Statement s = connection.createStatement()) {
                s.execute("SET shipping = '" + (shuffle ? "function" : mode) + "'");
                s.execute("SET execution = '" + (shuffle ? "shuffle" : "auto") + "'");
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
        cluster.close();
    }
}
