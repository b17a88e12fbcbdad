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
                "  auto       all three, and auto's choices against the better forced setting", "",
                "Results and how to read them: docs/experiments.md"})
public final class ExperimentCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "crossover, load, lz4 or auto.")
    private String name;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/experiments",
            description = "Where results go (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--quick", description = "Small table, few points, one timed run: checks the harness in seconds.")
    private boolean quick;

    @Option(names = "--rows", paramLabel = "N", description = "Rows of r (default 16000000; --quick 400000).")
    private Long rows;

    @Option(names = "--repeat", paramLabel = "N", description = "Timed runs per point and series; the median is "
            + "reported (default 5; --quick 1).")
    private Integer repeat;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "1",
            description = "Untimed runs before them (default: ${DEFAULT-VALUE}).")
    private int warmups;

    @Option(names = "--distinct", split = ",", paramLabel = "D", description = "crossover's distinct counts of b.")
    private long[] distinct;

    @Option(names = "--links", split = ",", paramLabel = "MBIT", description = "lz4's link rates, Mbit/s.")
    private int[] links;

    @Option(names = "--loads", split = ",", paramLabel = "CORES",
            description = "load's other work on the worker's core, in cores, non-decreasing.")
    private double[] loads;

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
        ExperimentCluster.Layout fig2 = new ExperimentCluster.Layout(cores == 2 ? "0" : "0-" + (cores - 2), cores - 1, last,
                1, 0);
        List<Experiment> experiments = new ArrayList<>();
        Experiment crossover = new CrossoverExperiment(distinct != null ? distinct : quick
                ? new long[] {1_000, 100_000, 400_000}
                : new long[] {1_000, 10_000, 100_000, 250_000, 500_000, 1_000_000, 2_000_000, 4_000_000}, fig1);
        Experiment load = new LoadExperiment(quick ? 1_000 : 10_000, loads != null ? loads : quick
                ? new double[] {0, 1} : new double[] {0, 0.5, 1, 1.5, 2, 3}, fig2);
        Experiment lz4 = new Lz4Experiment(quick ? 100_000 : 1_000_000, links != null ? links : quick
                ? new int[] {100} : new int[] {100, 300, 1000, 3000}, fig1);
        switch (name) {
            case "crossover" -> experiments.add(crossover);
            case "load" -> experiments.add(load);
            case "lz4" -> experiments.add(lz4);
            case "auto" -> experiments.addAll(List.of(crossover, load, lz4));
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "unknown experiment '" + name
                    + "'; choose crossover, load, lz4 or auto");
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

    private static Path harnessJar() throws URISyntaxException {
        return Path.of(ExperimentCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
