package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import me.tongfei.progressbar.ProgressBar;

/**
 * Ship-or-not Fig. 2 (§III-B) as the paper ran it: a 10% sample of r with two distinct b, by simple random
 * (BERNOULLI) and by cluster (SYSTEM) sampling, with the worker's core ever busier ({@link WorkerLoad}). §II-B says
 * what to expect: function shipping's worker scans every row under BERNOULLI but only the chosen blocks under SYSTEM;
 * data shipping moves every block to the coordinator under BERNOULLI (the worker is too busy to sample) but only the
 * chosen ones under SYSTEM. With RDMA data shipping does not depend on the worker's cores; over the tcp fabric the
 * worker's process serves the reads, so it slows too, less. The paper: with few worker cores data shipping is up to
 * 6.5× faster, and random sampling crosses over to data shipping at more worker cores (a lighter load) than cluster
 * sampling.
 */
final class SamplingExperiment implements Experiment {
    private final SampledSeries sample;
    private final long distinct;
    private final double[] otherCores;
    private final ExperimentCluster.Layout layout;

    /** @param otherCores load to put on the worker's core at each point, in cores, non-decreasing */
    SamplingExperiment(double percent, long distinct, double[] otherCores, ExperimentCluster.Layout layout) {
        this.sample = new SampledSeries(percent, List.of("function", "data", "auto"));
        this.distinct = distinct;
        this.otherCores = otherCores;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "sampling";
    }

    @Override
    public int points() {
        return otherCores.length;
    }

    @Override
    public long runs(Settings s) {
        return sample.runs(points(), s);
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        List<Point> points = new ArrayList<>();
        progress.setExtraMessage("starting the cluster");
        try (ExperimentCluster cluster = ExperimentCluster.start(s, layout, 1_000, logs);
                Connection c = cluster.connect()) {
            Probe probe = new Probe(c, s, progress);
            String table = Experiment.create(probe, Math.min(distinct, s.rows()));
            List<Probe.Series> series = sample.over(table);
            WorkerLoad other = new WorkerLoad(cluster, s, layout.workerCpus(), logs);
            for (double load : otherCores) {
                progress.setExtraMessage(String.format(Locale.ROOT, "%.1f other cores", load));
                other.raiseTo(load);
                points.add(new Point(name(), String.format(Locale.ROOT, "%.1f", load), load,
                        probe.interleaved(series)));
            }
        }
        return points;
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Report.chart(dir.resolve(name() + ".png"), String.format(Locale.ROOT, "Ship-or-not Fig. 2: a %s%% sample, "
                + "load on the worker's core vs shipping mode", Report.fmt(sample.percent())),
                "other work on the worker's core, cores", false, points, sample.names());
        StringBuilder md = new StringBuilder();
        md.append("### Fig. 2 with sampling: a busy worker, BERNOULLI and SYSTEM\n\n");
        md.append(String.format(Locale.ROOT, "`%s` over r with %,d distinct b, METHOD being BERNOULLI or SYSTEM "
                + "(REPEATABLE: the same sample in every run and mode). %s. %s.%n%n", sample.query("r", "METHOD"),
                distinct, WorkerLoad.describe(layout), Report.machine(s)));
        md.append(shipped(points.get(0))).append("\n\n");
        md.append("![Fig. 2 with sampling](").append(name()).append(".png)\n\n");
        md.append("| other load on the worker's core | method | FS ms | DS ms | faster | FS / DS | auto chose "
                + "| auto ms | model FS ms | model DS ms |\n");
        md.append("|---:|---|---:|---:|---|---:|---|---:|---:|---:|\n");
        for (Point p : points) {
            for (String method : METHODS) {
                Measurement fs = p.get(method + " function");
                Measurement ds = p.get(method + " data");
                Measurement auto = p.get(method + " auto");
                md.append(String.format(Locale.ROOT, "| %s cores | %s | %s | %s | %s | %.2f | %s | %s | %s | %s |%n",
                        p.label(), method, Report.ms(fs.median()), Report.ms(ds.median()),
                        fs.median() <= ds.median() ? "FS" : "DS", fs.median() / ds.median(),
                        auto.shipped() + (auto.mixed().isEmpty() ? "" : " (runs: " + auto.mixed() + ")"),
                        Report.ms(auto.median()), Report.ms(auto.fsCostMs()), Report.ms(auto.dsCostMs())));
            }
        }
        md.append('\n');
        for (String method : METHODS) {
            md.append(String.format(Locale.ROOT, "- **%s.** Over the loads, data shipping took %s and function "
                    + "shipping %s. %s%n", method, spread(points, method + " data"),
                    spread(points, method + " function"), Crossing.describe(points, method + " ",
                            p -> p.label() + " cores of other load", "")));
        }
        md.append(String.format(Locale.ROOT, "- **Largest speed-up of data shipping over function shipping:** %s "
                + "(paper: 6.5×).%n", largestSpeedUp(points)));
        md.append("\nThe paper (28-core coordinator, worker cores 1–28, 10 billion rows over InfiniBand): data "
                + "shipping's time does not depend on the worker's cores; function shipping's falls as they grow; at 8 "
                + "and 9 worker cores data shipping wins under random sampling and loses under cluster sampling, so "
                + "random sampling crosses over at a lighter load.\n");
        return md.toString();
    }

    /** What each method moves: the blocks data shipping reads, the result function shipping sends back. */
    private static String shipped(Point p) {
        StringBuilder out = new StringBuilder("Per query, data shipping read ");
        List<String> parts = new ArrayList<>();
        for (String method : METHODS) {
            Measurement ds = p.get(method + " data");
            parts.add(String.format(Locale.ROOT, "%s of blocks (%,d rows) under %s", Report.bytes(ds.blockBytes()),
                    ds.blockRows(), method));
        }
        out.append(String.join(" and ", parts)).append("; function shipping sent back ");
        parts.clear();
        for (String method : METHODS) {
            parts.add(Report.bytes(p.get(method + " function").resultBytes()));
        }
        return out.append(String.join(" and ", parts)).append(" of partial aggregate.").toString();
    }

    /** A series' medians over the sweep: their range and how far apart its ends are. */
    private static String spread(List<Point> points, String series) {
        double[] m = points.stream().mapToDouble(p -> p.get(series).median()).toArray();
        double lo = Arrays.stream(m).min().orElseThrow();
        double hi = Arrays.stream(m).max().orElseThrow();
        return String.format(Locale.ROOT, "%s–%s ms (%.1f× from fastest to slowest)", Report.ms(lo), Report.ms(hi),
                hi / lo);
    }

    private static String largestSpeedUp(List<Point> points) {
        double best = 0;
        String where = "";
        for (Point p : points) {
            for (String method : METHODS) {
                double r = p.get(method + " function").median() / p.get(method + " data").median();
                if (r > best) {
                    best = r;
                    where = method + " at " + p.label() + " cores of other load";
                }
            }
        }
        return best > 1 ? String.format(Locale.ROOT, "%.1f× (%s)", best, where)
                : String.format(Locale.ROOT, "none: function shipping was faster at every point (closest: DS took "
                        + "%.1f× FS's time, %s)", 1 / best, where);
    }
}
