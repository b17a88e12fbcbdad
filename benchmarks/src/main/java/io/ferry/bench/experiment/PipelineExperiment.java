package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import me.tongfei.progressbar.ProgressBar;

/**
 * I-Store DPE Fig. 7a (section 5.1): SSB's fact table joined with one, two and three dimension tables (LO⋈C, ⋈P,
 * ⋈S) on memory servers and compute servers, each join run three ways — gathered (every compute server reads its
 * share of LINEORDER and every dimension whole), as a shuffle hash join (every join's inputs split by key and sent
 * between the compute servers, the paper's baseline) and pipelined (each compute server streams the fact partitions
 * it is assigned and only the dimension parts they meet, no shuffle). The paper, SF 100 on 8 nodes over FDR: the
 * binary join about even, up to 3× for pipelined over shuffle at three and four tables.
 */
final class PipelineExperiment implements Experiment {
    static final List<String> MODES = List.of("gather", "shuffle", "pipelined");
    private static final String SELECT = "SELECT c_nation, COUNT(*), SUM(lo_revenue) FROM lineorder JOIN customer "
            + "ON lo_custkey = c_custkey";
    /**
     * The joins, growing by one dimension each, without filters: every fact row meets its dimension rows, as in the
     * paper's runs of the radix join, where every join shuffles the whole fact table again.
     */
    static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("LO⋈C", SELECT + " GROUP BY c_nation");
        QUERIES.put("LO⋈C⋈P", SELECT + " JOIN part ON lo_partkey = p_partkey GROUP BY c_nation");
        QUERIES.put("LO⋈C⋈P⋈S", SELECT + " JOIN part ON lo_partkey = p_partkey JOIN supplier ON lo_suppkey = "
                + "s_suppkey GROUP BY c_nation");
    }

    private final NamExperimentCluster.Layout layout;

    PipelineExperiment(NamExperimentCluster.Layout layout) {
        this.layout = layout;
    }

    @Override
    public String name() {
        return "pipeline";
    }

    @Override
    public int points() {
        return QUERIES.size();
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        progress.setExtraMessage("starting the cluster and loading SSB");
        try (NamExperimentCluster cluster = NamExperimentCluster.start(s, layout, logs);
                Connection c = cluster.connect()) {
            Probe probe = new Probe(c, s, progress);
            // the compute servers run every fragment: the three series differ only in how they join
            probe.execute("SET shipping = 'function'");
            // every query in every mode first, untimed: the first point must not pay for the JIT compiling the
            // nodes' code paths, which the later points would then find compiled
            progress.setExtraMessage("warming up");
            for (String sql : QUERIES.values()) {
                for (String mode : MODES) {
                    probe.execute("SET execution = '" + mode + "'");
                    probe.execute(sql);
                    probe.execute(sql);
                }
            }
            List<Point> points = new ArrayList<>();
            int x = 2;
            for (Map.Entry<String, String> q : QUERIES.entrySet()) {
                progress.setExtraMessage(q.getKey());
                List<Probe.Series> series = new ArrayList<>();
                for (String mode : MODES) {
                    series.add(new Probe.Series(mode, "SET execution = '" + mode + "'", q.getValue()));
                }
                points.add(new Point(name(), q.getKey(), x++, probe.interleaved(series)));
            }
            return points;
        }
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        List<String> labels = points.stream().map(Point::label).toList();
        Map<String, List<Double>> bars = new LinkedHashMap<>();
        for (String mode : MODES) {
            bars.put(mode, points.stream().map(p -> p.get(mode).median()).toList());
        }
        Report.bars(dir.resolve(name() + ".png"), "Distributed joins: gather, shuffle, pipelined (DPE Fig. 7a)",
                "ms (median)", labels, bars);
        StringBuilder md = new StringBuilder("### Pipelined multi-joins (I-Store DPE Fig. 7a)\n\n");
        md.append(String.format(Locale.ROOT, "SSB SF %s partitioned `%s`, %d memory and %d compute servers (one "
                + "thread and one CPU each), %s; forced function shipping; `SET execution` picks the series. %s.%n%n",
                Report.fmt(layout.scale()), layout.partitionBy(), layout.memory(), layout.compute(),
                layout.megabits() > 0 ? "every node behind its own " + layout.megabits() + " Mbit/s link"
                        : "over loopback", Report.machine(s, "")));
        md.append("![Pipeline](").append(name()).append(".png)\n\n");
        md.append("| join | gather ms | shuffle ms | pipelined ms | shuffle / pipelined | gather / pipelined | paper "
                + "(shuffle / pipelined) |\n|---|---:|---:|---:|---:|---:|---|\n");
        for (Point p : points) {
            double g = p.get("gather").median();
            double sh = p.get("shuffle").median();
            double pi = p.get("pipelined").median();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f× | %.2f× | %s |%n", p.label(),
                    Report.ms(g), Report.ms(sh), Report.ms(pi), sh / pi, g / pi,
                    p.label().equals("LO⋈C") ? "≈ 1× (slightly better)" : "up to 3×"));
        }
        md.append("\nThe query is `").append(QUERIES.get("LO⋈C⋈P")).append("` and its two- and four-table "
                + "siblings. Shuffle splits each join's inputs (the fact rows once per join) into one part per "
                + "compute server, held as blocks on the sender and read by the owner; pipelined reads each fact "
                + "block once and only the dimension parts its partitions meet.\n");
        return md.toString();
    }
}
