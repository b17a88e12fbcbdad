package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import me.tongfei.progressbar.ProgressBar;

/**
 * Ship-or-not Fig. 1 (§III-A): the distinct count of r.b grows, so the partial aggregate a worker ships grows from
 * KBs to tens of MB, with the worker given fewer cores than the coordinator (the paper: 14 of 28). Forced function
 * shipping, forced data shipping and auto at every point. The paper: FS wins while the result is ≤ 4 MB, DS from
 * 8 MB.
 */
final class CrossoverExperiment implements Experiment {
    /** Bytes per result row: b and COUNT(*), two BIGINTs. */
    static final int ROW_BYTES = 16;

    private final long[] distinct;
    private final ExperimentCluster.Layout layout;

    CrossoverExperiment(long[] distinct, ExperimentCluster.Layout layout) {
        this.distinct = distinct;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "crossover";
    }

    @Override
    public int points() {
        return distinct.length;
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        List<Point> points = new ArrayList<>();
        progress.setExtraMessage("starting the cluster");
        try (ExperimentCluster cluster = ExperimentCluster.start(s, layout, 1_000, logs);
                Connection c = cluster.connect()) {
            Probe probe = new Probe(c, s, progress);
            probe.execute("SET compression = 'auto'");
            for (long d : distinct) {
                if (d > s.rows()) {
                    continue;
                }
                String table = "r_" + d;
                progress.setExtraMessage(String.format(Locale.ROOT, "%,d groups", d));
                probe.execute(Experiment.derive(table, d));
                String q = String.format(Locale.ROOT, GROUP_BY, table);
                List<Measurement> m = probe.shippingModes(q);
                probe.execute("DROP TABLE " + table);
                points.add(new Point(name(), Long.toString(d), d * (double) ROW_BYTES / 1e6, m));
            }
        }
        return points;
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Report.chart(dir.resolve(name() + ".png"), "Ship-or-not Fig. 1: result size vs shipping mode",
                "partial-aggregate result, MB (uncompressed, log scale)", true, points,
                List.of("function", "data", "auto"));
        StringBuilder md = new StringBuilder();
        md.append("### Fig. 1 cross-over: result size\n\n");
        md.append(String.format(Locale.ROOT, "`%s` over r with the given distinct b. Coordinator on CPUs %s with %d "
                + "threads, worker on CPU %s with %d thread(s)%s. %s.%n%n", String.format(GROUP_BY, "r"),
                layout.coordinatorCpus(), layout.coordinatorThreads(), layout.workerCpus(), layout.workerThreads(),
                layout.megabits() > 0 ? ", link " + layout.megabits() + " Mbit/s" : ", loopback link",
                Report.machine(s)));
        md.append("![Fig. 1](").append(name()).append(".png)\n\n");
        md.append("| distinct b | result | FS shipped | FS ms | DS ms | faster | paper | auto chose | auto ms "
                + "| model FS ms | model DS ms |\n");
        md.append("|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|\n");
        for (Point p : points) {
            Measurement fs = p.get("function");
            Measurement ds = p.get("data");
            Measurement auto = p.get("auto");
            double mb = p.x();
            String paper = mb <= 4 ? "FS" : mb >= 8 ? "DS" : "–";
            md.append(String.format(Locale.ROOT, "| %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    Long.parseLong(p.label()), Report.bytes(mb * 1e6), Report.bytes(fs.resultBytes()) + (fs.compressed() ? " lz4" : ""),
                    Report.ms(fs.median()), Report.ms(ds.median()), fs.median() <= ds.median() ? "FS" : "DS", paper,
                    auto.shipped(), Report.ms(auto.median()), Report.ms(auto.fsCostMs()), Report.ms(auto.dsCostMs())));
        }
        md.append('\n').append(Crossing.describe(points, "", p -> "a " + Report.bytes(p.x() * 1e6) + " result",
                "FS ≤ 4 MB, DS ≥ 8 MB")).append('\n');
        return md.toString();
    }
}
