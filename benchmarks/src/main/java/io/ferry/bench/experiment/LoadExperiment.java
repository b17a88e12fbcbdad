package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import me.tongfei.progressbar.ProgressBar;

/**
 * Ship-or-not Fig. 2 (§III-B) on this machine: the worker's core gets busier with other work ({@link Burner}s pinned
 * to it), the result stays small (distinct b fixed). Function shipping slows with the worker; data shipping does not
 * use the worker's CPU — with RDMA. Over the tcp fabric the worker's process still serves the reads, so data
 * shipping slows too, less. The paper: data shipping up to 6.5× faster when the worker has few cores.
 */
final class LoadExperiment implements Experiment {
    private final long distinct;
    private final double[] otherCores;
    private final ExperimentCluster.Layout layout;

    /** @param otherCores load to put on the worker's core at each point, in cores, non-decreasing */
    LoadExperiment(long distinct, double[] otherCores, ExperimentCluster.Layout layout) {
        this.distinct = distinct;
        this.otherCores = otherCores;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "load";
    }

    @Override
    public int points() {
        return otherCores.length;
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        List<Point> points = new ArrayList<>();
        progress.setExtraMessage("starting the cluster");
        try (ExperimentCluster cluster = ExperimentCluster.start(s, layout, 1_000, logs);
                Connection c = cluster.connect()) {
            Probe probe = new Probe(c, s, progress);
            String table = Experiment.create(probe, Math.min(distinct, s.rows()));
            probe.execute("SET compression = 'auto'");
            String q = String.format(Locale.ROOT, GROUP_BY, table);
            WorkerLoad other = new WorkerLoad(cluster, s, layout.workerCpus(), logs);
            for (double load : otherCores) {
                progress.setExtraMessage(String.format(Locale.ROOT, "%.1f other cores", load));
                other.raiseTo(load);
                List<Measurement> m = probe.shippingModes(q);
                points.add(new Point(name(), String.format(Locale.ROOT, "%.1f", load), load, m));
            }
        }
        return points;
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Report.chart(dir.resolve(name() + ".png"), "Ship-or-not Fig. 2: load on the worker's core vs shipping mode",
                "other work on the worker's core, cores", false, points, List.of("function", "data", "auto"));
        StringBuilder md = new StringBuilder();
        md.append("### Fig. 2 analogue: a busy worker\n\n");
        md.append(String.format(Locale.ROOT, "`%s` over r with %,d distinct b (a %s result). Coordinator on CPUs %s "
                + "with %d thread(s), worker on CPU %s with %d thread(s); busy-loop processes pinned to the worker's "
                + "CPU add the load. %s.%n%n", String.format(GROUP_BY, "r"), distinct,
                Report.bytes(distinct * (double) CrossoverExperiment.ROW_BYTES), layout.coordinatorCpus(),
                layout.coordinatorThreads(), layout.workerCpus(), layout.workerThreads(), Report.machine(s)));
        md.append("![Fig. 2](").append(name()).append(".png)\n\n");
        md.append("| other load on the worker's core | FS ms | DS ms | faster | FS / DS | auto chose | auto ms "
                + "| model FS ms | model DS ms |\n");
        md.append("|---:|---:|---:|---|---:|---|---:|---:|---:|\n");
        for (Point p : points) {
            Measurement fs = p.get("function");
            Measurement ds = p.get("data");
            Measurement auto = p.get("auto");
            md.append(String.format(Locale.ROOT, "| %s cores | %s | %s | %s | %.2f | %s | %s | %s | %s |%n",
                    p.label(), Report.ms(fs.median()), Report.ms(ds.median()),
                    fs.median() <= ds.median() ? "FS" : "DS", fs.median() / ds.median(), auto.shipped(),
                    Report.ms(auto.median()), Report.ms(auto.fsCostMs()), Report.ms(auto.dsCostMs())));
        }
        md.append("\nThe paper (28-core coordinator, worker cores 1–28): data shipping's time does not depend on "
                + "the worker's cores, function shipping's falls as they grow, and with few worker cores data "
                + "shipping is up to 6.5× faster.\n");
        return md.toString();
    }
}
