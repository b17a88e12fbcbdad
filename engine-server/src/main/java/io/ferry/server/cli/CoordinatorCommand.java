package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.ferry.server.StartupException;
import io.ferry.server.cluster.Coordinator;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.metrics.MetricsEndpoint;
import io.ferry.server.ui.WebConsole;
import io.ferry.sql.EngineConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry coordinator}: JDBC, planning and the control plane nodes join. */
@Command(name = "coordinator", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start a cluster's coordinator: serves JDBC and waits for memory servers, compute servers and "
                + "workers to join (bin/ferry memory|compute|worker --coordinator HOST:PORT).")
final class CoordinatorCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerAddress address;

    @Option(names = "--control-port", paramLabel = "PORT", defaultValue = "" + Coordinator.DEFAULT_CONTROL_PORT,
            description = "Port nodes join on (default: ${DEFAULT-VALUE}; 0: any free port).")
    private int controlPort;

    @Mixin
    private EngineOptions engine;

    @Mixin
    private FabricOptions fabric;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long any wait on a node may take (default: ${DEFAULT-VALUE}).")
    private int timeoutSeconds;

    @Option(names = "--demo", description = "Once --expect-nodes nodes have joined, load the demo data (r and SSB).")
    private boolean demo;

    @Option(names = "--expect-nodes", paramLabel = "N", defaultValue = "1",
            description = "Nodes to wait for before loading --demo data (default: ${DEFAULT-VALUE}).")
    private int expectNodes;

    @Mixin
    private DemoOptions demoSize;

    @Option(names = "--load-root", paramLabel = "DIR", description = "A directory `ferry load` may read (repeatable).")
    private List<Path> loadRoots = new ArrayList<>();

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Keep the cluster's tables across restarts: their rows in DIR, their blocks where they are "
                    + "(default: $FERRY_DATA_DIR if set, else in memory only). A restarted coordinator adopts the "
                    + "blocks its memory servers still hold. See docs/storage.md.")
    private Path dataDir;

    @Option(names = "--in-memory", description = "Keep tables in memory only, even with $FERRY_DATA_DIR set.")
    private boolean inMemory;

    @Option(names = "--rejoin-wait", paramLabel = "SECONDS", defaultValue = "30",
            description = "At start with a data directory, how long to wait for the nodes that held the tables' "
                    + "blocks to rejoin before reading their rows from disk (default: ${DEFAULT-VALUE}).")
    private int rejoinWaitSeconds;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "1",
            description = "Keep each table block on N memory servers (or workers), so queries go on when one is down "
                    + "(default: ${DEFAULT-VALUE}). See docs/cluster.md.")
    private int replicas;

    @Option(names = "--replace-after", paramLabel = "SECONDS", defaultValue = "30",
            description = "With --replicas, how long a memory server may be down before its blocks are copied to the "
                    + "others that lack them (default: ${DEFAULT-VALUE}).")
    private int replaceAfterSeconds;

    @Mixin
    private SecurityOptions security;

    @Mixin
    private FlightOptions flight;

    @Option(names = "--control-tls",
            description = "Speak TLS on the control port too, with the key of --tls-keystore; nodes then join with "
                    + "--coordinator-truststore (the truststore bin/ferry cert made).")
    private boolean controlTls;

    @Override
    public Integer call() throws InterruptedException {
        EngineConfig config = engine.config(spec.commandLine());
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        if (inMemory && dataDir != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--data-dir and --in-memory "
                    + "contradict each other: choose one");
        }
        Coordinator coordinator = Coordinator.start(new Coordinator.Options(config, address.host, address.port,
                controlPort, fabric.port, fabric.advertise, fabric.kind(), timeout, loadRoots, security.security(),
                fabric.secret(), controlTls, inMemory ? null : dataDirectory(),
                Duration.ofSeconds(rejoinWaitSeconds), replicas, Duration.ofSeconds(replaceAfterSeconds)));
        if (flight.port != null) {
            try {
                coordinator.serveFlight(flight.port);
            } catch (RuntimeException e) {
                coordinator.close();
                throw e;
            }
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(ShutdownDeadline.hook(() -> {
            coordinator.close();
            stopped.countDown();
        }));
        PrintWriter out = spec.commandLine().getOut();
        var control = coordinator.cluster().address();
        String joinAt = (fabric.advertise != null ? fabric.advertise : control.getHostString()) + ":"
                + control.getPort();
        out.println("Ferry coordinator is ready: JDBC " + coordinator.jdbc().ferryUrl()
                + (coordinator.flight() != null ? ", Arrow Flight SQL " + coordinator.flight().uri() : "")
                + ", nodes join at " + joinAt + ", web console at " + coordinator.jdbc().endpoint() + WebConsole.PATH
                + ", metrics at " + coordinator.jdbc().endpoint() + MetricsEndpoint.PATH);
        out.println("Start nodes with:   bin/ferry worker --coordinator " + joinAt + "   (or memory / compute)");
        var kept = coordinator.engine().dataDirectory();
        out.println(kept == null ? "Tables are kept in memory only (--data-dir DIR keeps them across restarts)."
                : "Tables are kept in " + kept.root() + (coordinator.restoredFiles() == 0 ? "" : ": "
                        + coordinator.engine().catalog().tables().size() + " restored, " + coordinator.adoptedFiles()
                        + " of " + coordinator.restoredFiles() + " data files adopted where the nodes kept them"));
        out.flush();
        if (demo) {
            out.println("Waiting for " + expectNodes + " node(s) to join before loading the demo data...");
            out.flush();
            if (!coordinator.cluster().awaitNodes(expectNodes, Duration.ofMinutes(10))) {
                throw new StartupException("fewer than " + expectNodes + " nodes joined within 10 minutes", null);
            }
            ProgressListener progress = ProgressListener.console(true);
            demoSize.demo().load(coordinator.engine().catalog(), progress);
            out.println("Demo data loaded. Next:   bin/ferry sql" + (address.port == 8765 ? "" : " --port "
                    + coordinator.jdbc().port()) + "   then SELECT * FROM sys.nodes;");
            out.flush();
        }
        stopped.await();
        return 0;
    }

    /** --data-dir, else $FERRY_DATA_DIR, else none (tables in memory only). */
    private Path dataDirectory() {
        if (dataDir != null) {
            return dataDir;
        }
        String env = System.getenv("FERRY_DATA_DIR");
        return env == null || env.isBlank() ? null : Path.of(env);
    }
}
