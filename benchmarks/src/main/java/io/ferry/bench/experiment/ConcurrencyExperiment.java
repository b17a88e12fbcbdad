package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import me.tongfei.progressbar.ProgressBar;

/**
 * Ship-or-not Fig. 3 (§III-C): 1 to 5 copies of the paper's query over a 10% sample, started together, each on a
 * JDBC connection of its own, with a large result (the paper: 512 million distinct b; here every row its own group,
 * so the sample's partial aggregate is a tenth of the table's rows). Both sampling methods, both shipping modes;
 * timed until the last query has finished, and each query's latency too. The paper: one query alone favours function
 * shipping, since its result is smaller than the data; above three queries data shipping wins, since the results
 * grow with the number of queries while the data shipped stays the same.
 */
final class ConcurrencyExperiment implements Experiment {
    private final SampledSeries sample;
    private final int[] queries;
    private final ExperimentCluster.Layout layout;

    /** @param queries how many queries run at once at each point */
    ConcurrencyExperiment(double percent, int[] queries, ExperimentCluster.Layout layout) {
        this.sample = new SampledSeries(percent, List.of("function", "data"));
        this.queries = queries;
        this.layout = layout;
    }

    @Override
    public String name() {
        return "concurrency";
    }

    @Override
    public int points() {
        return queries.length;
    }

    @Override
    public long runs(Settings s) {
        return sample.runs(points(), s);
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        List<Point> points = new ArrayList<>();
        progress.setExtraMessage("starting the cluster");
        List<Connection> connections = new ArrayList<>();
        try (ExperimentCluster cluster = ExperimentCluster.start(s, layout, 1_000, logs)) {
            for (int i = 0; i < Arrays.stream(queries).max().orElse(1); i++) {
                connections.add(cluster.connect());
            }
            Probe probe = new Probe(connections, s, progress);
            progress.setExtraMessage("deriving r with every row its own group");
            String table = Experiment.create(probe, s.rows());
            List<Probe.Series> series = sample.over(table);
            for (int n : queries) {
                progress.setExtraMessage(n + " queries at once");
                points.add(new Point(name(), Integer.toString(n), n, probe.interleaved(series, n)));
            }
        } finally {
            for (Connection c : connections) {
                try {
                    c.close();
                } catch (SQLException e) {
                    // the cluster is gone already; nothing is left to release
                }
            }
        }
        return points;
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Report.chart(dir.resolve(name() + ".png"), String.format(Locale.ROOT, "Ship-or-not Fig. 3: concurrent "
                + "queries over a %s%% sample, every row its own group", Report.fmt(sample.percent())),
                "queries started together", "time until all finished, ms (median)", false, points, sample.names());
        StringBuilder md = new StringBuilder();
        md.append("### Fig. 3: concurrent queries\n\n");
        md.append(String.format(Locale.ROOT, "`%s` over r with %,d distinct b (every row its own group), METHOD being "
                + "BERNOULLI or SYSTEM, N copies started together, each on its own JDBC connection. \"All done\" is "
                + "the time from the first query's start to the last one's end; \"per query\" the mean of the "
                + "queries' latencies. Shipped and read are summed over the N queries. Coordinator on CPUs %s with "
                + "%d thread(s), worker on CPU %s with %d thread(s) (the paper: 28 cores each). %s.%n%n",
                sample.query("r", "METHOD"), s.rows(), layout.coordinatorCpus(), layout.coordinatorThreads(),
                layout.workerCpus(), layout.workerThreads(), Report.machine(s)));
        md.append("![Fig. 3](").append(name()).append(".png)\n\n");
        md.append("| queries | method | FS all done ms | DS all done ms | faster | FS / DS | FS per query ms "
                + "| DS per query ms | FS shipped | DS read |\n");
        md.append("|---:|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
        for (Point p : points) {
            for (String method : METHODS) {
                Measurement fs = p.get(method + " function");
                Measurement ds = p.get(method + " data");
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s |%n",
                        p.label(), method, Report.ms(fs.median()), Report.ms(ds.median()),
                        Crossing.functionWins(p, method + " ") ? "FS" : "DS", fs.median() / ds.median(),
                        Report.ms(fs.queryMedian()), Report.ms(ds.queryMedian()),
                        Report.bytes(fs.resultBytes()) + (fs.compressed() ? " lz4" : ""),
                        Report.bytes(ds.blockBytes())));
            }
        }
        md.append('\n');
        for (String method : METHODS) {
            md.append(String.format(Locale.ROOT, "- **%s.** %s%n", method, Crossing.describe(points, method + " ",
                    p -> p.label() + (p.x() == 1 ? " query" : " queries at once"),
                    "data shipping faster above 3")));
        }
        md.append("\nEach data-shipped query reads the blocks itself (Ferry shares no scans between queries), so what "
                + "data shipping reads grows with the queries just as function shipping's results do; the paper "
                + "finds the data shipped constant.\n");
        return md.toString();
    }
}
