package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import me.tongfei.progressbar.ProgressBar;

/**
 * The LZ4 poster: a worker ships its result over a bandwidth-limited link, with compression off, on, and as the
 * coordinator's auto setting picks it (on when the node compresses faster than the link carries). Forced function
 * shipping at every point. The worker runs in a network namespace behind a tbf-shaped veth ({@link ShapedLink}); a
 * new cluster per link rate, because the coordinator measures the link when a node joins. The poster: 31–41% lower
 * latency with compression.
 */
final class Lz4Experiment implements Experiment {
    /** Rows of r here: enough for a result of {@code distinct} groups; the result's size is what matters. */
    private static final long ROWS = 2_000_000;

    private final long distinct;
    private final int[] megabits;
    private final ExperimentCluster.Layout layout;

    Lz4Experiment(long distinct, int[] megabits, ExperimentCluster.Layout layout) {
        this.distinct = distinct;
        this.megabits = megabits;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "lz4";
    }

    @Override
    public int points() {
        return megabits.length;
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        List<Point> points = new ArrayList<>();
        // r itself has the distinct b, so nothing but its load crosses the slow link before the timed queries
        Settings small = small(s);
        for (int rate : megabits) {
            progress.setExtraMessage("starting a cluster behind a " + rate + " Mbit/s link");
            ExperimentCluster.Layout shaped = new ExperimentCluster.Layout(layout.coordinatorCpus(),
                    layout.coordinatorThreads(), layout.workerCpus(), layout.workerThreads(), rate);
            try (ExperimentCluster cluster = ExperimentCluster.start(small, shaped, distinct,
                    logs.resolve(rate + "mbit")); Connection c = cluster.connect()) {
                Probe probe = new Probe(c, s, progress);
                probe.execute("SET shipping = 'function'");
                progress.setExtraMessage(rate + " Mbit/s");
                String q = String.format(Locale.ROOT, GROUP_BY, "r");
                List<Measurement> m = probe.interleaved(List.of(
                        new Probe.Series("off", "SET compression = 'off'", q),
                        new Probe.Series("on", "SET compression = 'on'", q),
                        new Probe.Series("auto", "SET compression = 'auto'", q)));
                points.add(new Point(name(), rate + " Mbit/s", rate, m));
            }
        }
        return points;
    }

    private Settings small(Settings s) {
        return s.withRows(Math.max(distinct, Math.min(s.rows(), ROWS)));
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Report.chart(dir.resolve(name() + ".png"), "LZ4 poster: result shipping over a limited link",
                "link, Mbit/s (log scale)", true, points, List.of("off", "on", "auto"));
        StringBuilder md = new StringBuilder();
        md.append("### LZ4 result compression over a shaped link\n\n");
        md.append(String.format(Locale.ROOT, "`%s` over r (%,d rows) with %,d distinct b (a %s partial aggregate), forced "
                + "function shipping. The worker runs in its own network namespace; both ends of its veth are shaped "
                + "with tbf (no added latency: this kernel has no netem). Coordinator on CPUs %s with %d thread(s), "
                + "worker on CPU %s with %d thread(s). %s.%n%n", String.format(GROUP_BY, "r"),
                small(s).rows(), distinct,
                Report.bytes(distinct * (double) CrossoverExperiment.ROW_BYTES), layout.coordinatorCpus(),
                layout.coordinatorThreads(), layout.workerCpus(), layout.workerThreads(), Report.machine(small(s))));
        md.append("![LZ4](").append(name()).append(".png)\n\n");
        md.append("| link | shipped, off | shipped, lz4 | off ms | lz4 ms | lower latency with lz4 | paper | "
                + "auto chose | auto ms |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---|---|---:|\n");
        for (Point p : points) {
            Measurement off = p.get("off");
            Measurement on = p.get("on");
            Measurement auto = p.get("auto");
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.0f%% | 31–41%% | %s | %s |%n",
                    p.label(), Report.bytes(off.resultBytes()), Report.bytes(on.resultBytes()),
                    Report.ms(off.median()), Report.ms(on.median()), 100 * (1 - on.median() / off.median()),
                    auto.compressed() ? "on" : "off", Report.ms(auto.median())));
        }
        return md.toString();
    }
}
