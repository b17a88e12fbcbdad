package io.ferry.bench.tpcds;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import io.ferry.server.cli.ByteSizeConverter;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/ferry tpcds}: the 99 TPC-DS queries on Ferry (local mode) and DuckDB over the same generated data,
 * results compared, planning and run times reported (docs/tpcds.md).
 */
@Command(name = "ferry tpcds", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run TPC-DS on Ferry and DuckDB in this JVM, compare the results and write a report "
                + "(CSV and markdown). Exit code 0 when every query matched.", "",
                "How to read the report: docs/tpcds.md"})
public final class TpcdsCommand implements Callable<Integer> {
    @Option(names = "--scale", paramLabel = "SF", defaultValue = "1",
            description = "TPC-DS scale factor (default: ${DEFAULT-VALUE}; CI runs 0.1).")
    private double scale;

    @Option(names = "--queries", split = ",", paramLabel = "N",
            description = "Query numbers to run, e.g. 1,14,99 (parts a and b both run); default all 99.")
    private List<Integer> queries = List.of();

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/tpcds",
            description = "Where the report goes; generated data is kept in DIR/data-sfSF and reused "
                    + "(default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--threads", paramLabel = "N", description = "Threads per engine (default: all cores).")
    private Integer threads;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Per-statement query timeout (default: ${DEFAULT-VALUE}).")
    private int timeout;

    @Option(names = "--planning-passes", paramLabel = "N", defaultValue = "2",
            description = "After the run, plan every statement again N times, each under a new text (default: "
                    + "${DEFAULT-VALUE}); reports first-execution planning on a warmed-up planner.")
    private int planningPasses;

    @Option(names = "--cluster", paramLabel = "M,C", split = ",", description = "Run Ferry as M memory and C "
            + "compute servers in this JVM over the tcp fabric instead of local mode, e.g. 2,2.")
    private int[] cluster;

    @Option(names = "--execution", paramLabel = "MODE", defaultValue = "auto", description = "With --cluster: SET "
            + "execution for every statement: auto, gather, pipelined or shuffle (default: ${DEFAULT-VALUE}).")
    private String execution;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0", description = "With --cluster: partition "
            + "the sales and returns tables, inventory, ITEM and CUSTOMER N ways by item and customer, for their "
            + "star joins (default: ${DEFAULT-VALUE}, not partitioned).")
    private int partitions;

    @Option(names = "--query-memory", paramLabel = "BYTES", converter = ByteSizeConverter.class, description = "Ferry's memory per query, e.g. 256m: "
            + "its hash tables and sorts spill to disk beyond half of it (default: half the heap).")
    private Long queryMemory;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TpcdsCommand()).setExecutionExceptionHandler((e, cl, parsed) -> {
            cl.getErr().println("tpcds failed: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        }).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        BarListener bars = new BarListener();
        TpcdsBenchmark.Result result;
        TpcdsRun.Cluster shape = null;
        if (cluster != null) {
            if (cluster.length != 2 || cluster[0] < 1 || cluster[1] < 1) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--cluster takes memory and compute "
                        + "servers, at least one each, e.g. 2,2");
            }
            shape = new TpcdsRun.Cluster(cluster[0], cluster[1], execution, partitions);
        } else if (partitions != 0 || !execution.equals("auto")) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--execution and --partitions need "
                    + "--cluster");
        }
        try {
            result = TpcdsBenchmark.run(new TpcdsBenchmark.Settings(scale, queries, out, n, timeout, planningPasses,
                    shape, queryMemory == null ? 0 : queryMemory), bars);
        } finally {
            bars.close();
        }
        System.out.println(result.report());
        System.out.println("report: " + result.markdown() + " (and .csv)");
        System.out.println(result.summary().line());
        return result.summary().matched() == result.summary().queries() ? 0 : 1;
    }

    /** One progress bar per phase, on stderr, so that the report on stdout stays clean. */
    private static final class BarListener implements TpcdsBenchmark.Listener, AutoCloseable {
        private ProgressBar bar;

        @Override
        public void phase(String name, int steps) {
            close();
            bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(steps).setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(500).build();
        }

        @Override
        public void step(String what) {
            bar.setExtraMessage(what);
            bar.step();
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.close();
                bar = null;
            }
        }
    }
}
