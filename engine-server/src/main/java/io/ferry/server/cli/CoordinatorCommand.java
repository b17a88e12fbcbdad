package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.ferry.fabric.Fabrics;
import io.ferry.server.LocalNode;
import io.ferry.server.StartupException;
import io.ferry.server.cluster.Coordinator;
import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
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

    @Option(names = "--threads", paramLabel = "N", description = "Cores the coordinator may use (default: all).")
    private Integer threads;

    @Option(names = "--block-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Storage block size, e.g. 64k or 1m (default: 1m).")
    private Long blockSize;

    @Option(names = "--query-memory", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Memory one query's operators may take (default: half the heap).")
    private Long queryMemory;

    @Option(names = "--fabric", paramLabel = "auto|local|tcp|rdma", defaultValue = "auto",
            description = "Fabric provider (default: ${DEFAULT-VALUE}: rdma when usable, else tcp).")
    private String fabric;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long any wait on a node may take (default: ${DEFAULT-VALUE}).")
    private int timeoutSeconds;

    @Option(names = "--demo", description = "Once --expect-nodes nodes have joined, load the demo data (r and SSB).")
    private boolean demo;

    @Option(names = "--expect-nodes", paramLabel = "N", defaultValue = "1",
            description = "Nodes to wait for before loading --demo data (default: ${DEFAULT-VALUE}).")
    private int expectNodes;

    @Option(names = "--scale", paramLabel = "SF", defaultValue = "0.1", description = "SSB scale factor for --demo.")
    private double scale;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000", description = "Rows of r for --demo.")
    private long rows;

    @Option(names = "--distinct", paramLabel = "N", defaultValue = "1000", description = "Distinct r.b for --demo.")
    private long distinct;

    @Option(names = "--load-root", paramLabel = "DIR", description = "A directory `ferry load` may read (repeatable).")
    private List<Path> loadRoots = new ArrayList<>();

    @Override
    public Integer call() throws InterruptedException {
        EngineConfig config = EngineConfig.defaults();
        if (threads != null) {
            config = config.withThreads(threads);
        }
        if (blockSize != null) {
            config = config.withBlockSize((int) Math.min(Integer.MAX_VALUE, blockSize));
        }
        if (queryMemory != null) {
            config = config.withQueryMemoryLimit(queryMemory);
        }
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        Coordinator coordinator = Coordinator.start(new Coordinator.Options(config, address.host, address.port,
                controlPort, Fabrics.Kind.parse(fabric), timeout, loadRoots));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            coordinator.close();
            stopped.countDown();
        }, "ferry-shutdown"));
        PrintWriter out = spec.commandLine().getOut();
        var control = coordinator.cluster().address();
        out.println("Ferry coordinator is ready: JDBC " + coordinator.jdbc().ferryUrl() + ", nodes join at "
                + control.getHostString() + ":" + control.getPort());
        out.println("Start nodes with:   bin/ferry worker --coordinator " + control.getHostString() + ":"
                + control.getPort() + "   (or memory / compute)");
        out.flush();
        if (demo) {
            out.println("Waiting for " + expectNodes + " node(s) to join before loading the demo data...");
            out.flush();
            if (!coordinator.cluster().awaitNodes(expectNodes, Duration.ofMinutes(10))) {
                throw new StartupException("fewer than " + expectNodes + " nodes joined within 10 minutes", null);
            }
            ProgressListener progress = ProgressListener.console(true);
            PaperTable.load(coordinator.engine().catalog(), LocalNode.PAPER_TABLE, rows, distinct, progress);
            new SsbGenerator(scale).load(coordinator.engine().catalog(), progress);
            out.println("Demo data loaded. Next:   bin/ferry sql" + (address.port == 8765 ? "" : " --port "
                    + coordinator.jdbc().port()) + "   then SELECT * FROM sys.nodes;");
            out.flush();
        }
        stopped.await();
        return 0;
    }
}
