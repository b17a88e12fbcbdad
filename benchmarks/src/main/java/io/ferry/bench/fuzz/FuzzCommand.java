package io.ferry.bench.fuzz;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/ferry fuzz}: the differential query fuzzer. Exit code 1 when any query gave a wrong answer or an
 * internal error, 0 otherwise; report.md and one regression test per failure go to --out.
 */
@Command(name = "ferry fuzz", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run random queries on Ferry and on DuckDB over the same random tables and compare the "
                + "answers; shrink each failure to a minimal query and a JUnit regression test.", "",
                "How to read the report: docs/fuzzing.md"})
public final class FuzzCommand implements Callable<Integer> {
    @Option(names = "--queries", paramLabel = "N", defaultValue = "1000",
            description = "Queries to generate (default: ${DEFAULT-VALUE}).")
    private int queries;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the data and the queries (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--cluster", description = "Also run every query on a coordinator with two workers in this "
            + "JVM (tcp fabric), rotating SET shipping = 'function', 'data', 'auto' and execution = 'shuffle'.")
    private boolean cluster;

    @Option(names = "--constructs", paramLabel = "a,b,c", defaultValue = "all",
            completionCandidates = Construct.CliNames.class,
            description = "Construct families to generate: all, or some of ${COMPLETION-CANDIDATES}.")
    private String constructs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/fuzz",
            description = "Where report.md and the regression tests go (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "20",
            description = "Per-query timeout (default: ${DEFAULT-VALUE}).")
    private int timeout;

    @Option(names = "--scale", paramLabel = "X", defaultValue = "1",
            description = "Row counts relative to the default of about 850 rows in all (default: ${DEFAULT-VALUE}).")
    private double scale;

    @Option(names = "--max-shrinks", paramLabel = "N", defaultValue = "25",
            description = "Distinct failures to shrink (default: ${DEFAULT-VALUE}).")
    private int maxShrinks;

    @Option(names = "--shrink-tries", paramLabel = "N", defaultValue = "250",
            description = "Candidates tried per shrink, for the query and for its rows (default: ${DEFAULT-VALUE}).")
    private int shrinkTries;

    @Option(names = "--only", paramLabel = "N,M", split = ",",
            description = "Run only these query numbers of the seed (as numbered in a full run's report).")
    private List<Integer> only;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FuzzCommand()).setExecutionExceptionHandler((e, cl, parsed) -> {
            cl.getErr().println("fuzz failed: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        }).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Constructs families;
        try {
            families = Constructs.parse(constructs);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        Fuzzer.Options options = Fuzzer.Options.defaults(seed, queries).withCluster(cluster, false).withConstructs(families)
                .withTimeout(Duration.ofSeconds(timeout)).withScale(scale).withShrinking(maxShrinks, shrinkTries);
        FuzzReport report;
        try (Fuzzer fuzzer = Fuzzer.start(options);
                ProgressBar progress = new ProgressBarBuilder().setTaskName("fuzz --seed " + seed)
                        .setInitialMax(only == null ? queries : only.size()).setStyle(ProgressBarStyle.ASCII)
                        .setUnit(" queries", 1)
                        .setUpdateIntervalMillis(500).build()) {
            report = only == null ? fuzzer.run(progress::stepTo) : fuzzer.run(only, progress::stepTo);
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("report.md"), report.markdown());
        for (int i = 0; i < report.findings().size(); i++) {
            Files.writeString(out.resolve("repro-" + (i + 1) + ".java"), report.findings().get(i).repro());
        }
        System.out.println(report.summary());
        System.out.println("Report: " + out.resolve("report.md").toAbsolutePath());
        return report.failed() ? 1 : 0;
    }
}
