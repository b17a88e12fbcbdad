package io.ferry.server;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;

import io.ferry.core.durable.DataDirectory;
import io.ferry.core.storage.Catalog;
import io.ferry.server.cluster.SystemTables;
import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.server.flight.FlightSqlServer;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.server.load.LoadEndpoint;
import io.ferry.server.load.LoadPolicy;
import io.ferry.server.load.ServerCopies;
import io.ferry.server.load.ServerLoad;
import io.ferry.server.metrics.FerryMetrics;
import io.ferry.server.metrics.MetricsEndpoint;
import io.ferry.server.ui.WebConsole;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.AccessControl;

/**
 * Local mode: every role in one JVM — an embedded engine, optionally filled with the demo data, served over JDBC
 * with the CSV load endpoint beside it.
 */
public final class LocalNode implements AutoCloseable {
    /** The paper table's name in the demo data. */
    public static final String PAPER_TABLE = "r";
    /** The node's name in {@code sys.nodes} and {@code sys.blocks}. */
    public static final String LOCAL_NODE = "local";

    private final FerryEngine engine;
    private final JdbcServer server;
    private final Options options;
    private FlightSqlServer flight;

    private LocalNode(FerryEngine engine, JdbcServer server, Options options) {
        this.engine = engine;
        this.server = server;
        this.options = options;
    }

    /**
     * How to start.
     *
     * @param engine    the engine's sizing
     * @param host      address to serve JDBC on
     * @param port      port to serve JDBC on (0: any free port)
     * @param demo      the demo data to load first, or null for none
     * @param loadRoots directories CSV loads may read (see {@link LoadPolicy})
     * @param security  who may use the JDBC port
     * @param dataDirectory where tables are kept across restarts (docs/storage.md), or null to keep them in memory
     */
    public record Options(EngineConfig engine, String host, int port, Demo demo, List<Path> loadRoots,
            ServerSecurity security, Path dataDirectory) {
        public Options {
            requireNonNull(engine, "engine is null");
            requireNonNull(host, "host is null");
            requireNonNull(security, "security is null");
            loadRoots = List.copyOf(loadRoots);
        }

        /** Tables in memory only. */
        public Options(EngineConfig engine, String host, int port, Demo demo, List<Path> loadRoots,
                ServerSecurity security) {
            this(engine, host, port, demo, loadRoots, security, null);
        }

        /** Without users: for a loopback address. */
        public Options(EngineConfig engine, String host, int port, Demo demo, List<Path> loadRoots) {
            this(engine, host, port, demo, loadRoots, ServerSecurity.DEFAULT);
        }
    }

    /**
     * The demo data: the ship-or-not paper's table {@code r} with {@code rows} rows and {@code distinct} values of
     * b, and the Star Schema Benchmark at scale factor {@code scale}, its tables partitioned for their star joins by
     * {@code partitionBy} ({@code custkey:4,partkey:2}; null for none).
     */
    public record Demo(long rows, long distinct, double scale, String partitionBy) {
        public Demo(long rows, long distinct, double scale) {
            this(rows, distinct, scale, null);
        }

        /**
         * Loads the paper table and the SSB tables (partitioned by {@code partitionBy}, if any) into {@code catalog},
         * those it does not have yet: a data directory keeps them from the first start on.
         */
        public void load(Catalog catalog, ProgressListener progress) {
            if (catalog.get(PAPER_TABLE) == null) {
                PaperTable.load(catalog, PAPER_TABLE, rows, distinct, progress);
            }
            new SsbGenerator(scale).loadMissing(catalog, partitionBy, progress);
        }
    }

    /** Starts the engine, loads the demo data if asked, and serves JDBC; nothing is left running on failure. */
    public static LocalNode start(Options options, ProgressListener progress) {
        LoadPolicy policy = LoadPolicy.of(options.loadRoots(), ServerSecurity.isLoopback(options.host()));
        AccessControl access = options.security().access(options.host());
        FerryEngine engine = FerryEngine.start(options.engine(), null, options.dataDirectory());
        engine.setAccess(access);
        engine.setCopies(new ServerCopies(engine, policy));
        SystemTables.installLocal(engine, LOCAL_NODE);
        try {
            restore(engine, progress);
            if (options.demo() != null) {
                options.demo().load(engine.catalog(), progress);
            }
            JdbcServer server = JdbcServer.start(engine, options.host(), options.port(),
                    List.of(new LoadEndpoint(new ServerLoad(engine, policy)),
                            new MetricsEndpoint(new FerryMetrics(engine, null)), new WebConsole(engine)),
                    options.security().tls());
            return new LocalNode(engine, server, options);
        } catch (RuntimeException | Error e) {
            try {
                engine.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** Reads the tables of the engine's data directory back into memory, with a progress bar over their bytes. */
    private static void restore(FerryEngine engine, ProgressListener progress) {
        DataDirectory data = engine.dataDirectory();
        if (data == null || data.manifest().tables().isEmpty() && data.manifest().views().isEmpty()) {
            return;
        }
        progress.start("restoring tables from " + data.root(), data.manifest().bytes(), ProgressListener.Unit.BYTES);
        long[] done = {0};
        try {
            engine.restore(f -> progress.update(done[0] += f.bytes()));
        } finally {
            progress.finish();
        }
    }

    public FerryEngine engine() {
        return engine;
    }

    public JdbcServer server() {
        return server;
    }

    /**
     * Serves Arrow Flight SQL on {@code port} (0: any free port) beside JDBC: the same host, users and TLS keystore;
     * stopped with the node.
     */
    public synchronized FlightSqlServer serveFlight(int port) {
        if (flight == null) {
            flight = FlightSqlServer.start(engine, options.host(), port, options.security().tls(),
                    engine.config().clientTimeout());
        }
        return flight;
    }

    /** The Flight SQL endpoint, or null when the node serves none. */
    public synchronized FlightSqlServer flight() {
        return flight;
    }

    /** Stops serving, closes what clients left open, then frees all engine memory (failing if any leaked). */
    @Override
    public void close() {
        try {
            synchronized (this) {
                if (flight != null) {
                    flight.close();
                }
            }
        } finally {
            try {
                server.close();
            } finally {
                engine.close();
            }
        }
    }
}
