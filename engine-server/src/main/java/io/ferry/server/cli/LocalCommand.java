package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.ferry.core.ByteSizes;
import io.ferry.core.storage.Table;
import io.ferry.server.FerryVersion;
import io.ferry.server.LocalNode;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.server.metrics.MetricsEndpoint;
import io.ferry.server.ui.WebConsole;
import io.ferry.sql.EngineConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry local}: every role in this JVM, serving JDBC until Ctrl-C. */
@Command(name = "local", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start Ferry in local mode (engine and JDBC server in this process) and serve until Ctrl-C.")
final class LocalCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerAddress address;

    @Mixin
    private EngineOptions engine;

    @Option(names = "--memory", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Off-heap memory all tables may take together, e.g. 8g (default: 16g).")
    private Long memory;

    @Option(names = "--demo", description = "Load the demo data: the paper table r and the Star Schema Benchmark.")
    private boolean demo;

    @Mixin
    private DemoOptions demoSize;

    @Option(names = "--load-root", paramLabel = "DIR",
            description = "A directory `ferry load` may read CSV files from (repeatable). Without it, loads read "
                    + "under the working directory and the temporary directory while the server listens on a "
                    + "loopback address, and nothing otherwise.")
    private List<Path> loadRoots = new ArrayList<>();

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Where tables are kept across restarts (default: $FERRY_DATA_DIR, else "
                    + "$XDG_DATA_HOME/ferry/local, else ~/.local/share/ferry/local). See docs/storage.md.")
    private Path dataDir;

    @Option(names = "--in-memory", description = "Keep tables in memory only: they are lost when Ferry stops.")
    private boolean inMemory;

    @Mixin
    private SecurityOptions security;

    @Mixin
    private FlightOptions flight;

    @Override
    public Integer call() throws InterruptedException {
        EngineConfig config = engine.config(spec.commandLine());
        if (memory != null) {
            config = config.withMemoryLimit(memory);
        }
        if (inMemory && dataDir != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--data-dir and --in-memory "
                    + "contradict each other: choose one");
        }
        LocalNode.Demo demoData = demo ? demoSize.demo() : null;
        LocalNode node = LocalNode.start(new LocalNode.Options(config, address.host, address.port, demoData,
                loadRoots, security.security(), inMemory ? null : dataDirectory()), ProgressListener.console(true));
        if (flight.port != null) {
            try {
                node.serveFlight(flight.port);
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        }

        // Ctrl-C (or SIGTERM) runs shutdown hooks; the node is closed in one, and this thread waits until then.
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(ShutdownDeadline.hook(() -> stop(node, stopped)));
        printBanner(spec.commandLine().getOut(), node);
        stopped.await();
        return 0;
    }

    /** The data directory: --data-dir, else $FERRY_DATA_DIR, else the XDG data directory's ferry/local. */
    private Path dataDirectory() {
        if (dataDir != null) {
            return dataDir;
        }
        String env = System.getenv("FERRY_DATA_DIR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        String xdg = System.getenv("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("ferry").resolve("local");
    }

    private void stop(LocalNode node, CountDownLatch stopped) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Stopping Ferry...");
        out.flush();
        try {
            node.close();
            out.println("Ferry stopped.");
        } catch (RuntimeException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("error while stopping: " + e.getMessage());
            err.flush();
        } finally {
            out.flush();
            stopped.countDown();
        }
    }

    private void printBanner(PrintWriter out, LocalNode node) {
        JdbcServer server = node.server();
        EngineConfig c = node.engine().config();
        out.println();
        out.println("Ferry " + FerryVersion.VERSION + " is ready (local mode).");
        out.println();
        List<Table> tables = node.engine().catalog().tables();
        if (tables.isEmpty()) {
            out.println("  tables   none yet: CREATE TABLE over JDBC, or bin/ferry load --create (or start with --demo)");
        } else {
            StringBuilder line = new StringBuilder();
            for (Table t : tables) {
                line.append(line.length() == 0 ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%s (%,d rows)", t.name(), t.rowCount()));
            }
            out.println("  tables   " + line);
        }
        if (node.engine().dataDirectory() != null) {
            out.println("  data     kept in " + node.engine().dataDirectory().root() + "   (--in-memory: keep nothing)");
        } else {
            out.println("  data     in memory only: tables are lost when Ferry stops (without --in-memory they are "
                    + "kept)");
        }
        out.println("  JDBC     " + server.ferryUrl() + "   (driver: ferry-jdbc/target/ferry-jdbc-*.jar)");
        out.println("           " + server.avaticaUrl() + "   (Avatica's remote driver)");
        if (node.flight() != null) {
            out.println("  Flight   " + node.flight().uri() + "   (Arrow Flight SQL: ADBC, pyarrow.flight, "
                    + "jdbc:arrow-flight-sql://" + server.host() + ":" + node.flight().port()
                    + (node.flight().tls() ? "" : "?useEncryption=false") + ")");
        }
        out.println("  console  " + server.endpoint() + WebConsole.PATH + "   (statements, nodes, tables; in a browser)");
        out.println("  metrics  " + server.endpoint() + MetricsEndpoint.PATH + "   (Prometheus; docs/deploy.md)");
        if (node.engine().access().required()) {
            out.println("  users    clients log in as a user of " + security.usersFile + " (CREATE USER, GRANT: see "
                    + "docs/security.md)");
        }
        out.println(String.format(Locale.ROOT, "  engine   %d threads, %s blocks, %s of table memory, %s per query "
                + "(%s)", c.threads(), ByteSizes.format(c.blockSize()), ByteSizes.format(c.memoryLimit()),
                ByteSizes.format(c.queryMemoryLimit()), c.spillDirectory() == null ? "no spilling"
                        : "spilling to " + c.spillDirectory() + " beyond half of it"));
        out.println();
        String where = (JdbcServer.DEFAULT_HOST.equals(address.host) ? "" : " --host " + server.host())
                + (address.port == JdbcServer.DEFAULT_PORT ? "" : " --port " + server.port())
                + (server.tls() ? " --truststore ferry-truststore.p12" : "")
                + (node.engine().access().required() ? " --user NAME" : "");
        out.println("Next, in another terminal:   bin/ferry sql" + where);
        out.println("Stop with Ctrl-C.");
        out.flush();
    }
}
