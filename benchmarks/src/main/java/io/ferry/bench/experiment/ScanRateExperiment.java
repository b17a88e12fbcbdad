package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import me.tongfei.progressbar.ProgressBar;

/**
 * What sampling itself costs (ship-or-not §II-B, the C_sample of equations 1 and 2): the rate at which a scan gets
 * through r, in rows of r per second, with no sample, with BERNOULLI (every row read and tested) and with SYSTEM
 * (only the chosen blocks read) at a few rates. Function shipping measures the worker's scan, data shipping the
 * coordinator's scan of blocks it reads over the fabric. Every sample and mode in one interleaved run, so the ratios
 * against the full scan compare runs made side by side.
 */
final class ScanRateExperiment implements Experiment {
    private static final Scan FULL = new Scan(null, 100);
    private static final List<String> MODES = List.of("function", "data");

    private final double[] percents;
    private final ExperimentCluster.Layout layout;

    ScanRateExperiment(double[] percents, ExperimentCluster.Layout layout) {
        this.percents = percents;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "scanrate";
    }

    @Override
    public int points() {
        return 1;
    }

    @Override
    public long runs(Settings s) {
        return (long) scans().size() * MODES.size() * Probe.runsPerSeries(s);
    }

    /** A scan of r: the full scan (no method), or a sample. Its label names its series' group, e.g. "SYSTEM 10%". */
    private record Scan(String method, double percent) {
        String label() {
            return method == null ? "full" : method + " " + Report.fmt(percent) + "%";
        }

        String query() {
            return "SELECT COUNT(*), SUM(b) FROM " + (method == null ? "r" : Experiment.sampled("r", method, percent));
        }
    }

    /** The full scan, then each method at each rate. */
    private List<Scan> scans() {
        List<Scan> out = new ArrayList<>(List.of(FULL));
        for (String method : METHODS) {
            for (double p : percents) {
                out.add(new Scan(method, p));
            }
        }
        return out;
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        progress.setExtraMessage("starting the cluster");
        try (ExperimentCluster cluster = ExperimentCluster.start(s, layout, 1_000, logs);
                Connection c = cluster.connect()) {
            List<Probe.Series> series = new ArrayList<>();
            for (Scan scan : scans()) {
                series.addAll(Probe.Series.shipping(scan.label(), scan.query(), MODES));
            }
            progress.setExtraMessage("scanning");
            return List.of(new Point(name(), "scan", 0, new Probe(c, s, progress).interleaved(series)));
        }
    }

    /** Millions of r's rows per second: r's size over the series' median time, whatever part of r it read. */
    private static double rate(Settings s, Measurement m) {
        return s.rows() / (m.median() * 1e3);
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Point p = points.get(0);
        List<String> labels = scans().stream().map(Scan::label).toList();
        Map<String, List<Double>> bars = new LinkedHashMap<>();
        for (String mode : MODES) {
            bars.put(mode + " shipping", labels.stream().map(x -> rate(s, p.get(x + " " + mode))).toList());
        }
        Report.bars(dir.resolve(name() + ".png"), "The cost of sampling: scan rate of r", "rows of r per second, "
                + "millions (median)", labels, bars);
        StringBuilder md = new StringBuilder();
        md.append("### Scan rate: what sampling costs\n\n");
        md.append(String.format(Locale.ROOT, "`%s`, with `%s` as the sample, forced function shipping (the worker "
                + "scans) and forced data shipping (the coordinator reads the blocks over the fabric and scans). The "
                + "rate is r's rows over the median time, whatever part of r the sample read; \"vs full\" is that "
                + "rate over the full scan's in the same mode. Coordinator on CPUs %s with %d thread(s), worker on "
                + "CPU %s with %d thread(s). %s.%n%n", FULL.query(), Experiment.sampled("r", "METHOD", 10),
                layout.coordinatorCpus(), layout.coordinatorThreads(), layout.workerCpus(), layout.workerThreads(),
                Report.machine(s)));
        md.append("![Scan rate](").append(name()).append(".png)\n\n");
        md.append("| sample | blocks read | rows in them | share of r | FS ms | FS M rows/s | FS vs full | DS ms "
                + "| DS M rows/s | DS vs full |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String sample : labels) {
            Measurement fs = p.get(sample + " function");
            Measurement ds = p.get(sample + " data");
            md.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.1f%% | %s | %.0f | %.2f× | %s | %.0f "
                    + "| %.2f× |%n",
                    sample, Report.bytes(ds.blockBytes()), ds.blockRows(), 100.0 * ds.blockRows() / s.rows(),
                    Report.ms(fs.median()), rate(s, fs),
                    rate(s, fs) / rate(s, p.get(FULL.label() + " function")), Report.ms(ds.median()), rate(s, ds),
                    rate(s, ds) / rate(s, p.get(FULL.label() + " data"))));
        }
        String empty = labels.stream().filter(x -> p.get(x + " data").blockRows() == 0)
                .collect(Collectors.joining(", "));
        if (!empty.isEmpty()) {
            md.append("\n").append(empty).append(" chose no block of r at all (SYSTEM keeps each block with the "
                    + "sample's probability, and r has too few blocks here): its time is what a query costs that "
                    + "reads nothing.\n");
        }
        md.append("\nSYSTEM keeps whole blocks, so the share of r it reads is the sample's rate only on average over "
                + "seeds; REPEATABLE(7) fixes which blocks.");
        md.append(" BERNOULLI still reads every row and draws for each (the paper: simple random sampling accesses "
                + "the whole data set), so it saves at most the aggregation of the rows it drops; SYSTEM reads only "
                + "the chosen blocks, so at p% it can go up to 100/p times as fast, less what every query pays "
                + "whatever it reads.\n");
        return md.toString();
    }
}
