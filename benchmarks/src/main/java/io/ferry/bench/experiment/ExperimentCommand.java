package io.ferry.bench.experiment;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/ferry experiment NAME}: reproduces a paper's figure with real processes — a coordinator and a worker
 * started from the server jar, pinned to CPUs, the worker behind a shaped link where the figure needs one — and
 * writes NAME.csv (every run), NAME.png (XChart) and NAME.md (our numbers beside the paper's).
 */
@Command(name = "ferry experiment", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reproduce a figure with a real cluster on this machine and write CSV, a PNG chart and "
                + "markdown.", "",
                "  crossover  ship-or-not Fig. 1: result size vs function/data shipping",
                "  load       ship-or-not Fig. 2 analogue: a busy worker core vs function/data shipping",
                "  lz4        LZ4 poster: result shipping over a shaped link, compression off/on/auto (root)",
                "  sampling   ship-or-not Fig. 2, 10%% sample: BERNOULLI/SYSTEM, busy worker",
                "  concurrency  ship-or-not Fig. 3: 1-5 sampled queries at once",
                "  scanrate   the cost of sampling: rows/s of full, BERNOULLI, SYSTEM scans",
                "  auto       crossover, load, lz4, sampling; auto vs the better forced setting",
                "  sampling-all  sampling, concurrency and scanrate",
                "  pipeline   I-Store DPE Fig. 7a: SSB joins of 2-4 tables, gather vs shuffle vs pipelined (root)",
                "  prefetch   I-Store DPE Fig. 7b: blocks/s by reads in flight on compute servers (root)",
                "  skew       I-Store WS Fig. 3: uniform vs Zipf data, shared-nothing vs I-Store with work stealing",
                "",
                "Results and how to read them: docs/experiments.md"})
public final class ExperimentCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "crossover, load, lz4, sampling, concurrency, "
            + "scanrate, auto, sampling-all, pipeline, prefetch or skew.")
    private String name;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/experiments",
            description = "Where results go (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--quick", description = "Small table, few points, one timed run: checks the harness in seconds.")
    private boolean quick;

    @Option(names = "--rows", paramLabel = "N", description = "Rows of r (default 16000000; --quick 400000); skew's "
            + "rows of a (default 32000000; --quick 400000).")
    private Long rows;

    @Option(names = "--repeat", paramLabel = "N", description = "Timed runs per point and series; the median is "
            + "reported (default 5; --quick 1).")
    private Integer repeat;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "1",
            description = "Untimed runs before them (default: ${DEFAULT-VALUE}).")
    private int warmups;

    @Option(names = "--distinct", split = ",", paramLabel = "D", description = "crossover's distinct counts of b.")
    private long[] distinct;

    @Option(names = "--links", split = ",", paramLabel = "MBIT", description = "lz4's link rates, Mbit/s; pipeline "
            + "and prefetch put every node behind a link of the first (default 1000; 0: loopback, no root needed).")
    private int[] links;

    @Option(names = "--loads", split = ",", paramLabel = "CORES",
            description = "load's and sampling's other work on the worker's core, in cores, non-decreasing.")
    private double[] loads;

    @Option(names = "--queries", split = ",", paramLabel = "N",
            description = "concurrency's numbers of queries started together (default 1,2,3,4,5; --quick 1,2).")
    private int[] queries;

    @Option(names = "--percents", split = ",", paramLabel = "P",
            description = "scanrate's sampling rates, percent (default 1,10,50; --quick 10).")
    private double[] percents;

    @Option(names = "--scale", paramLabel = "SF", description = "pipeline's SSB scale factor (default 1; --quick "
            + "0.02); prefetch uses a fifth of it.")
    private Double scale;

    @Option(names = "--nodes", paramLabel = "M,C", split = ",", description = "pipeline's and prefetch's memory and "
            + "compute servers (default 2,2).")
    private int[] nam;

    @Option(names = "--latency-us", paramLabel = "US", description = "prefetch's latency added to every block read "
            + "the memory servers serve (default 200; 0: none). The kernel here cannot add latency to a link.")
    private Integer latency;

    @Option(names = "--depths", split = ",", paramLabel = "D",
            description = "prefetch's reads in flight (default 1,2,3,5,8,10; --quick 1,10).")
    private int[] depths;

    @Option(names = "--fabric", paramLabel = "tcp|rdma", defaultValue = "tcp",
            description = "The nodes' fabric (default: ${DEFAULT-VALUE}).")
    private String fabric;

    @Option(names = "--server-jar", paramLabel = "JAR",
            description = "The server jar nodes run (default: engine-server/target/ferry-server.jar).")
    private Path serverJar;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ExperimentCommand()).setExecutionExceptionHandler((e, cl, parsed) -> {
            // a sentence, not a stack trace: what failed is in it, and the nodes' logs are under --out
            cl.getErr().println("experiment failed: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores < 2) {
            throw new CommandLine.ParameterException(new CommandLine(this), "experiments need at least 2 cores, "
                    + "so that the worker can be given fewer than the coordinator");
        }
        Path harness = harnessJar();
        Path server = serverJar != null ? serverJar : harness.getParent().resolve("../../engine-server/target/"
                + "ferry-server.jar").normalize();
        if (!Files.isRegularFile(server)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "no server jar at " + server
                    + "; build it (mvn -DskipTests package) or pass --server-jar");
        }
        long n = rows != null ? rows : quick ? 400_000 : 16_000_000;
        Settings s = new Settings(server, harness, fabric, n, warmups, repeat != null ? repeat : quick ? 1 : 5,
                "4g", "3g", "3g");
        String all = "0-" + (cores - 1);
        String last = Integer.toString(cores - 1);
        // Fig. 1: the coordinator has every core, the worker one (the paper: 28 and 14); over loopback
        ExperimentCluster.Layout fig1 = new ExperimentCluster.Layout(all, cores, last, Math.max(1, cores / 4), 0);
        // Fig. 2: the worker's core is the one loaded, and the coordinator keeps off it
        ExperimentCluster.Layout fig2 = new ExperimentCluster.Layout(cpus(0, cores - 2), cores - 1, last, 1, 0);
        // Fig. 3 and the scan rate: the paper gives both nodes all their cores; here each gets half the machine
        ExperimentCluster.Layout even = new ExperimentCluster.Layout(cpus(0, cores / 2 - 1), cores / 2,
                cpus(cores / 2, cores - 1), cores - cores / 2, 0);
        List<Experiment> experiments = new ArrayList<>();
        double sf = scale != null ? scale : quick ? 0.02 : 1;
        int megabits = links != null ? links[0] : 1000;
        Experiment crossover = new CrossoverExperiment(distinct != null ? distinct : quick
                ? new long[] {1_000, 100_000, 400_000}
                : new long[] {1_000, 10_000, 100_000, 250_000, 500_000, 1_000_000, 2_000_000, 4_000_000}, fig1);
        double[] sweep = loads != null ? loads : quick ? new double[] {0, 1} : new double[] {0, 0.5, 1, 1.5, 2, 3};
        Experiment load = new LoadExperiment(quick ? 1_000 : 10_000, sweep, fig2);
        Experiment lz4 = new Lz4Experiment(quick ? 100_000 : 1_000_000, links != null ? links : quick
                ? new int[] {100} : new int[] {100, 300, 1000, 3000}, fig1);
        // ship-or-not §III-B and §III-C: a 10% sample; Fig. 2 with two distinct b
        Experiment sampling = new SamplingExperiment(10, 2, sweep, fig2);
        Experiment concurrency = new ConcurrencyExperiment(10, queries != null ? queries : quick
                ? new int[] {1, 2} : new int[] {1, 2, 3, 4, 5}, even);
        Experiment scanrate = new ScanRateExperiment(percents != null ? percents : quick ? new double[] {10}
                : new double[] {1, 10, 50}, even);
        switch (name) {
            case "crossover" -> experiments.add(crossover);
            case "load" -> experiments.add(load);
            case "lz4" -> experiments.add(lz4);
            case "sampling" -> experiments.add(sampling);
            case "concurrency" -> experiments.add(concurrency);
            case "scanrate" -> experiments.add(scanrate);
            case "auto" -> experiments.addAll(List.of(crossover, load, lz4, sampling));
            case "sampling-all" -> experiments.addAll(List.of(sampling, concurrency, scanrate));
            case "pipeline" -> experiments.add(new PipelineExperiment(namLayout(sf, "1m", megabits, 0)));
            case "prefetch" -> experiments.add(new PrefetchExperiment(namLayout(sf / 5, "8k", megabits,
                    latency != null ? latency : 200),
                    depths != null ? depths : quick ? new int[] {1, 10} : new int[] {1, 2, 3, 5, 8, 10}));
            case "skew" -> experiments.add(new SkewExperiment(rows != null ? rows : quick ? 400_000 : 32_000_000));
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "unknown experiment '" + name
                    + "'; choose crossover, load, lz4, sampling, concurrency, scanrate, auto, sampling-all, pipeline, "
                    + "prefetch or skew");
        }
        Files.createDirectories(out);
        long total = experiments.stream().mapToLong(e -> e.runs(s)).sum();
        List<Point> points = new ArrayList<>();
        StringBuilder md = new StringBuilder("## Experiment " + name + " (" + LocalDate.now() + ")\n\n");
        try (ProgressBar progress = new ProgressBarBuilder().setTaskName("experiment " + name).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setUnit(" queries", 1).setUpdateIntervalMillis(500).build()) {
            for (Experiment e : experiments) {
                List<Point> p = e.run(s, out.resolve("logs").resolve(e.name()), progress);
                Report.csv(out.resolve(e.name() + ".csv"), p);
                String section = e.report(p, s, out);
                Files.writeString(out.resolve(e.name() + ".md"), section + "\n" + AutoChoices.markdown(p));
                md.append(section).append('\n');
                points.addAll(p);
            }
        }
        md.append(AutoChoices.markdown(points));
        if (experiments.size() > 1) {
            Report.csv(out.resolve(name + ".csv"), points);
            Files.writeString(out.resolve(name + ".md"), md);
        }
        System.out.println(md);
        System.out.println("Results in " + out.toAbsolutePath() + " (" + name + ".md, .csv, .png; node logs in "
                + out.resolve("logs") + ")");
        return 0;
    }

    /**
     * The memory/compute layout of pipeline and prefetch: SSB partitioned for its three star joins into as many
     * parts per key as there are compute servers (DPE section 5.1 splits every dimension into 8 for 8 nodes).
     */
    private NamExperimentCluster.Layout namLayout(double sf, String blockSize, int megabits, int latencyMicros) {
        int m = nam != null && nam.length > 0 ? nam[0] : 2;
        int c = nam != null && nam.length > 1 ? nam[1] : 2;
        if (m < 1 || c < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--nodes needs at least one memory and "
                    + "one compute server, e.g. 2,2");
        }
        return new NamExperimentCluster.Layout(m, c, megabits, sf, "custkey:" + c + ",partkey:" + c + ",suppkey:"
                + c, blockSize, latencyMicros);
    }

    /** A taskset CPU list from {@code first} to {@code last}. */
    private static String cpus(int first, int last) {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }

    private static Path harnessJar() throws URISyntaxException {
        return Path.of(ExperimentCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
