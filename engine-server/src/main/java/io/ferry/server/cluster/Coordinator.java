package io.ferry.server.cluster;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.durable.DataDirectory;
import io.ferry.core.storage.Manifest;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.Fabrics;
import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.server.ServerSecurity;
import io.ferry.server.StartupException;
import io.ferry.server.flight.FlightSqlServer;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.server.load.LoadEndpoint;
import io.ferry.server.load.LoadPolicy;
import io.ferry.server.load.ServerCopies;
import io.ferry.server.load.ServerLoad;
import io.ferry.server.metrics.FerryMetrics;
import io.ferry.server.metrics.MeteredFabric;
import io.ferry.server.metrics.MetricsEndpoint;
import io.ferry.server.runtime.ClusterRunner;
import io.ferry.server.ui.WebConsole;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.AccessControl;

/**
 * The coordinator process: catalog, JDBC, planning, the control plane nodes join, shipping decisions, data-shipping
 * execution and final aggregation. Its tables' blocks live on the memory servers and workers that joined.
 */
public final class Coordinator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    /** The control plane's default port. */
    public static final int DEFAULT_CONTROL_PORT = 7070;

    /**
     * @param host        the address JDBC, the control plane and the fabric listen on
     * @param port        JDBC port (0: any free port)
     * @param controlPort the control plane's port (0: any free port)
     * @param fabricPort  the fabric endpoint's port (0: any free port)
     * @param advertise   the host nodes reach the coordinator's fabric at (null: {@code host})
     */
    public record Options(EngineConfig engine, String host, int port, int controlPort, int fabricPort,
            String advertise, Fabrics.Kind fabric, Duration timeout, List<Path> loadRoots, ServerSecurity security,
            ClusterSecret secret, boolean controlTls, Path dataDirectory, Duration rejoinWait, int replicas,
            Duration replaceAfter) {
        /** How long a restarted coordinator waits for the nodes that held its tables' blocks, by default. */
        public static final Duration REJOIN_WAIT = Duration.ofSeconds(30);

        public Options {
            requireNonNull(engine, "engine is null");
            requireNonNull(host, "host is null");
            requireNonNull(security, "security is null");
            requireNonNull(rejoinWait, "rejoinWait is null");
            requireNonNull(replaceAfter, "replaceAfter is null");
            if (replaceAfter.isNegative()) {
                throw new StartupException("--replace-after must be 0 or more seconds, not " + replaceAfter
                        .toSeconds(), null);
            }
            if (replicas < 1) {
                throw new StartupException("--replicas must be at least 1 (each block on one node), not " + replicas,
                        null);
            }
            loadRoots = List.copyOf(loadRoots);
            if (controlTls && security.tls() == null) {
                throw new StartupException("--control-tls serves the control port with the JDBC port's key: give "
                        + "--tls-keystore too (bin/ferry cert makes one)", null);
            }
        }

        /** Keeping tables in memory only. */
        public Options(EngineConfig engine, String host, int port, int controlPort, int fabricPort, String advertise,
                Fabrics.Kind fabric, Duration timeout, List<Path> loadRoots, ServerSecurity security,
                ClusterSecret secret, boolean controlTls) {
            this(engine, host, port, controlPort, fabricPort, advertise, fabric, timeout, loadRoots, security, secret,
                    controlTls, null, REJOIN_WAIT, 1, ClusterStorage.REPLACE_AFTER);
        }

        /** As these options, with tables kept in {@code dir} (docs/storage.md). */
        public Options withDataDirectory(Path dir) {
            return new Options(engine, host, port, controlPort, fabricPort, advertise, fabric, timeout, loadRoots,
                    security, secret, controlTls, dir, rejoinWait, replicas, replaceAfter);
        }

        /** As these options, with each block kept on {@code copies} holders (docs/cluster.md, "Replicas"). */
        public Options withReplicas(int copies) {
            return withReplicas(copies, replaceAfter);
        }

        /** As these options, with a holder's blocks copied to the others once it has been down {@code after}. */
        public Options withReplicas(int copies, Duration after) {
            return new Options(engine, host, port, controlPort, fabricPort, advertise, fabric, timeout, loadRoots,
                    security, secret, controlTls, dataDirectory, rejoinWait, copies, after);
        }

        /** With plain TCP on the control port. */
        public Options(EngineConfig engine, String host, int port, int controlPort, int fabricPort, String advertise,
                Fabrics.Kind fabric, Duration timeout, List<Path> loadRoots, ServerSecurity security,
                ClusterSecret secret) {
            this(engine, host, port, controlPort, fabricPort, advertise, fabric, timeout, loadRoots, security, secret,
                    false);
        }

        /** Without users: for a loopback address. */
        public Options(EngineConfig engine, String host, int port, int controlPort, int fabricPort, String advertise,
                Fabrics.Kind fabric, Duration timeout, List<Path> loadRoots) {
            this(engine, host, port, controlPort, fabricPort, advertise, fabric, timeout, loadRoots,
                    ServerSecurity.DEFAULT, null);
        }
    }

    private final List<AutoCloseable> closing = new ArrayList<>();
    private FerryEngine engine;
    private Cluster cluster;
    private JdbcServer jdbc;
    private FlightSqlServer flight;
    private Options options;
    private Fabric fabric;
    private ClusterRunner runner;
    private int adoptedFiles;
    private int restoredFiles;

    private Coordinator() {
    }

    /** Starts every part; if one fails, what started is stopped again. */
    public static Coordinator start(Options options) {
        Coordinator c = new Coordinator();
        c.options = options;
        AccessControl access = options.security().access(options.host());
        try {
            BufferAllocator io = new RootAllocator(Math.max(256L << 20, options.engine().memoryLimit() / 4));
            c.closing.add(io);
            MeteredFabric fabric = new MeteredFabric(Fabrics.open(options.fabric(), options.host(),
                    options.fabricPort(), options.advertise() == null ? options.host() : options.advertise(), 2,
                    options.secret()));
            c.fabric = fabric;
            c.closing.add(0, c.fabric);
            Peers peers = new Peers(c.fabric, options.timeout());
            c.closing.add(0, peers);
            JdbcServer.Tls tls = options.security().tls();
            c.cluster = new Cluster(options.host(), options.controlPort(), peers, io, options.timeout(),
                    options.secret(), options.controlTls() ? ControlTls.server(tls.keystore(), tls.password()) : null);
            c.closing.add(0, c.cluster);
            ClusterStorage storage = new ClusterStorage(c.cluster, peers, io, options.engine().blockSize(),
                    options.timeout(), options.replicas(), options.replaceAfter());
            c.closing.add(0, storage);
            c.engine = FerryEngine.start(options.engine(), storage, options.dataDirectory());
            c.closing.add(0, c.engine);
            if (options.dataDirectory() != null) {
                c.closing.add(0, storage::keepBlocksOnNodes); // stopping drops the tables: their blocks stay
            }
            Calibration rates = Calibrator.measure(io);
            c.runner = new ClusterRunner(c.engine, c.cluster, storage, peers, io, rates, options.timeout());
            c.engine.setRunner(c.runner);
            c.engine.setAccess(access);
            SystemTables.install(c.engine, c.cluster, storage, c.runner, fabric);
            LoadPolicy policy = LoadPolicy.of(options.loadRoots(), ServerSecurity.isLoopback(options.host()));
            c.engine.setCopies(new ServerCopies(c.engine, policy));
            c.restore(storage);
            c.jdbc = JdbcServer.start(c.engine, options.host(), options.port(),
                    List.of(new LoadEndpoint(new ServerLoad(c.engine, policy)),
                            new MetricsEndpoint(new FerryMetrics(c.engine, fabric)
                                    .withReplication(options.replicas(), storage::shortOfCopies)), new WebConsole(c.engine)),
                    options.security().tls());
            c.closing.add(0, c.jdbc);
            return c;
        } catch (RuntimeException | Error e) {
            try {
                c.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * Brings back the tables of the data directory, if there is one. A coordinator that restarted finds most of its
     * tables' blocks still in the memory servers' memory: it waits for the nodes that held them to rejoin (at most
     * {@link Options#rejoinWait}) and adopts every block that is still there and still the one written, checked by
     * its CRC32C; what a node that restarted lost is read from the directory and placed anew. Then every holder is
     * told which of its regions are kept, so what an earlier process left there and nobody adopted is freed.
     */
    private void restore(ClusterStorage storage) {
        DataDirectory data = engine.dataDirectory();
        if (data != null && !data.manifest().tables().isEmpty()) {
            List<String> locations = new ArrayList<>();
            for (Manifest.TableEntry t : data.manifest().tables().values()) {
                t.files().forEach(f -> locations.addAll(f.locations()));
            }
            try {
                Set<String> missing = storage.awaitHolders(locations, options.rejoinWait());
                if (!missing.isEmpty()) {
                    LOG.warn("{} did not rejoin within {} s: the rows of its blocks are read from {}", missing,
                            options.rejoinWait().toSeconds(), data.root());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartupException("interrupted while waiting for nodes to rejoin", e);
            }
            int files = data.manifest().fileNames().size();
            if (files > 0 && cluster.up(m -> m.role().holdsBlocks()).isEmpty()) {
                throw new StartupException("the data directory " + data.root() + " holds " + data.manifest().tables()
                        .size() + " tables and no memory server or worker joined within " + options.rejoinWait()
                        .toSeconds() + " s to hold them: start them (bin/ferry memory --coordinator HOST:"
                        + cluster.address().getPort() + "), or give the coordinator a longer --rejoin-wait", null);
            }
            long t0 = System.nanoTime();
            adoptedFiles = engine.restore(f -> { });
            restoredFiles = files;
            LOG.info("restored {} tables from {} in {} ms: {} of {} data files adopted where their blocks were{}",
                    engine.catalog().tables().size(), data.root(), (System.nanoTime() - t0) / 1_000_000, adoptedFiles,
                    files, adoptedFiles < files ? ", the others read from disk" : "");
        }
        storage.settle();
        if (data != null) {
            storage.keepsFiles(true);
            LostBlockRecovery recovery = new LostBlockRecovery(cluster, storage, engine.catalog(), data);
            cluster.addListener(recovery);
            closing.add(0, recovery);
        }
    }

    /** Of the data files restored at start, how many were adopted where their blocks were (not read from disk). */
    public int adoptedFiles() {
        return adoptedFiles;
    }

    /** The data files restored at start (0 without a data directory or with an empty one). */
    public int restoredFiles() {
        return restoredFiles;
    }

    public FerryEngine engine() {
        return engine;
    }

    public Cluster cluster() {
        return cluster;
    }

    public JdbcServer jdbc() {
        return jdbc;
    }

    /** Serves Arrow Flight SQL on {@code port} (0: any free port) beside JDBC, stopped before it. */
    public synchronized FlightSqlServer serveFlight(int port) {
        if (flight == null) {
            flight = FlightSqlServer.start(engine, options.host(), port, options.security().tls(),
                    engine.config().clientTimeout());
            closing.add(0, flight);
        }
        return flight;
    }

    /** The Flight SQL endpoint, or null when none is served. */
    public synchronized FlightSqlServer flight() {
        return flight;
    }

    public ClusterRunner runner() {
        return runner;
    }

    public Fabric fabric() {
        return fabric;
    }

    /** Stops JDBC, drops the tables (freeing their remote slots), then the control plane and the fabric. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (AutoCloseable a : closing) {
            try {
                a.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                }
            }
        }
        closing.clear();
        if (first != null) {
            throw first;
        }
    }
}
