package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ferry.core.gen.SkewWorkload;
import me.tongfei.progressbar.ProgressBar;

/**
 * The I-Store skew paper's experiment (section 4, Fig. 3): A ⋈ σB ⋈ σC ⋈ σD over four nodes, on data whose partition
 * key is uniform or Zipf-distributed (z = 1.25: one partition holds half of A), run as
 * <ul>
 *   <li>SN: shared-nothing — four workers, each joining the A partition it stores (partition placement, local
 *       reads only), no stealing;</li>
 *   <li>plain: I-Store without its optimizations — four memory and four compute servers, compute server i running
 *       partition i ({@code assignment = 'partition'}), no stealing;</li>
 *   <li>WS: the same with work stealing ({@code steal = 'on'});</li>
 *   <li>WS+NAM: and NAM-partitioning — every partition spread over all memory servers ({@code placement = nam}),
 *       still run by its compute server unless stolen;</li>
 *   <li>+LocOpt: and the local-access optimization — the four workers again, over NAM-partitioned tables, with
 *       stealing: a worker runs the blocks it holds in place and reads the others' over the fabric.</li>
 * </ul>
 * Every series joins in gather mode (B, C and D read whole by every node after their selections) under
 * {@code assignment = 'partition'}: partition i is node i's unit, with its own work queue, so that the units may
 * run each other's blocks. The LDM series is not measured: LDM assigns the partition combinations of
 * pipelined joins, whose units read only the build parts of their own partitions and so do not steal.
 */
final class SkewExperiment implements Experiment {
    static final List<String> SERIES = List.of("SN", "plain", "WS", "WS+NAM", "+LocOpt");
    private static final List<String> DATASETS = List.of("uniform", "zipf");
    private static final int NODES = 4;
    /**
     * b, c and d hold a hundredth of a's rows. The paper's are as large as a, but there the scans of every table are
     * work that stealing shares; here each compute server reads the (filtered) inner tables whole to build its hash
     * tables, and with larger ones that replicated read, not a's skewed probe, is most of the work (measured: with a
     * tenth, every unit took as long, whatever its share of a).
     */
    private static final int INNER_SHARE = 100;

    private final long rows;
    private String sharing = "";

    SkewExperiment(long rows) {
        this.rows = rows;
    }

    @Override
    public String name() {
        return "skew";
    }

    @Override
    public int points() {
        return DATASETS.size();
    }

    @Override
    public long runs(Settings s) {
        return (long) points() * SERIES.size() * (Math.max(2, s.warmups()) + s.repeat());
    }

    private String spec(String dataset, String placement, String prefix) {
        return String.format(Locale.ROOT, "rows=%d,inner=%d,distribution=%s,z=1.25,partitions=%d,placement=%s,seed=7,"
                + "prefix=%s", rows, rows / INNER_SHARE, dataset, NODES, placement, prefix);
    }

    @Override
    public List<Point> run(Settings all, Path logs, ProgressBar progress) throws Exception {
        Settings s = nodes(all);
        Map<String, List<Measurement>> byDataset = new LinkedHashMap<>();
        DATASETS.forEach(d -> byDataset.put(d, new ArrayList<>()));
        progress.setExtraMessage("shared-nothing: four workers");
        try (SkewCluster cluster = SkewCluster.start(s, SkewCluster.Shape.WORKERS, NODES, logs.resolve("sn"));
                Connection c = cluster.connect()) {
            Probe probe = prepare(c, s, progress);
            List<String> queries = generateAll(cluster, progress, "workers");
            cluster.emulateNics();
            warmUp(probe, progress, queries, List.of("SET steal = 'off'", "SET steal = 'on'"));
            for (String d : DATASETS) {
                progress.setExtraMessage("SN and LocOpt on " + d);
                byDataset.get(d).addAll(probe.interleaved(List.of(
                        new Probe.Series("SN", "SET steal = 'off'", SkewWorkload.query(d.charAt(0) + "_")),
                        new Probe.Series("+LocOpt", "SET steal = 'on'", SkewWorkload.query(d.charAt(0) + "n_")))));
            }
        }
        progress.setExtraMessage("I-Store: four memory and four compute servers");
        try (SkewCluster cluster = SkewCluster.start(s, SkewCluster.Shape.NAM, NODES, logs.resolve("nam"));
                Connection c = cluster.connect()) {
            sharing = cluster.sharing();
            Probe probe = prepare(c, s, progress);
            List<String> queries = generateAll(cluster, progress, "I-Store");
            cluster.emulateNics();
            warmUp(probe, progress, queries, List.of("SET steal = 'off'", "SET steal = 'on'"));
            for (String d : DATASETS) {
                String partitioned = d.charAt(0) + "_";
                String nam = d.charAt(0) + "n_";
                progress.setExtraMessage("I-Store on " + d);
                byDataset.get(d).addAll(probe.interleaved(List.of(
                        new Probe.Series("plain", "SET steal = 'off'", SkewWorkload.query(partitioned)),
                        new Probe.Series("WS", "SET steal = 'on'", SkewWorkload.query(partitioned)),
                        new Probe.Series("WS+NAM", "SET steal = 'on'", SkewWorkload.query(nam)))));
            }
        }
        List<Point> points = new ArrayList<>();
        int x = 1;
        for (String d : DATASETS) {
            points.add(new Point(name(), d, x++, byDataset.get(d)));
        }
        return points;
    }

    /**
     * Eight nodes on this machine: 2 GiB of heap and 2 GiB of block memory each (at 32 M rows the memory server of
     * a's Zipf partition holds 1 GB), not the two-node default; two warm-ups, as eight JVMs compile the join's code
     * paths under their quotas.
     */
    private static Settings nodes(Settings all) {
        return new Settings(all.serverJar(), all.harnessJar(), all.fabric(), all.rows(), Math.max(2, all.warmups()),
                all.repeat(), "2g", "2g", "2g");
    }

    /** Function shipping, gathered, partition i on node i: what every series shares. */
    private static Probe prepare(Connection c, Settings s, ProgressBar progress) throws java.sql.SQLException {
        Probe probe = new Probe(c, s, progress);
        probe.execute("SET shipping = 'function'");
        probe.execute("SET execution = 'gather'");
        probe.execute("SET assignment = 'partition'");
        return probe;
    }

    /**
     * Both datasets under both placements: {@code u_}/{@code z_} partition i on node i, {@code un_}/{@code zn_}
     * NAM-partitioned. The queries over all four.
     */
    private List<String> generateAll(SkewCluster cluster, ProgressBar progress, String shape)
            throws InterruptedException {
        List<String> queries = new ArrayList<>();
        for (String d : DATASETS) {
            progress.setExtraMessage(shape + ": generating " + d);
            cluster.generate(spec(d, "partition", d.charAt(0) + "_"));
            cluster.generate(spec(d, "nam", d.charAt(0) + "n_"));
            queries.add(SkewWorkload.query(d.charAt(0) + "_"));
            queries.add(SkewWorkload.query(d.charAt(0) + "n_"));
        }
        return queries;
    }

    /**
     * Every query under every setting twice, untimed, before any is timed: eight JVMs compile the join's code paths
     * under their CPU quotas, and the dataset measured first must not pay for it.
     */
    private static void warmUp(Probe probe, ProgressBar progress, List<String> queries, List<String> settings)
            throws java.sql.SQLException {
        progress.setExtraMessage("warming up");
        for (String set : settings) {
            if (!set.isEmpty()) {
                probe.execute(set);
            }
            for (int i = 0; i < 2; i++) {
                for (String q : queries) {
                    probe.execute(q);
                }
            }
        }
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        List<String> labels = points.stream().map(Point::label).toList();
        Map<String, List<Double>> bars = new LinkedHashMap<>();
        for (String series : SERIES) {
            bars.put(series, points.stream().map(p -> p.get(series).median()).toList());
        }
        Report.bars(dir.resolve(name() + ".png"), "Skew: shared-nothing vs I-Store (WS paper Fig. 3)", "ms (median)",
                labels, bars);
        StringBuilder md = new StringBuilder("### Skew-resilient execution (I-Store skew paper, Fig. 3)\n\n");
        md.append(String.format(Locale.ROOT, "Table a of %,d rows, b, c, d of a hundredth of that (24-byte rows), a "
                + "and b partitioned 4 ways, a's partition key uniform or Zipf (z = 1.25); over loopback, gathered, "
                + "partition i the unit of node i (`assignment = 'partition'`). SN and +LocOpt: four workers; plain, "
                + "WS, WS+NAM: four memory and four compute servers (a pair per emulated node); one thread per worker "
                + "or compute server, %s. %s.%n%n", rows, sharing, Report.machine(nodes(s), "")));
        md.append("![Skew](").append(name()).append(".png)\n\n");
        md.append("| data | SN ms | plain ms | WS ms | WS+NAM ms | +LocOpt ms | plain / WS+NAM | SN / WS+NAM | paper "
                + "(ms: SN, plain, WS, WS+NAM) |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Point p : points) {
            double sn = p.get("SN").median();
            double plain = p.get("plain").median();
            double nam = p.get("WS+NAM").median();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %.2f× | %.2f× | %s |%n", p.label(),
                    Report.ms(sn), Report.ms(plain), Report.ms(p.get("WS").median()), Report.ms(nam),
                    Report.ms(p.get("+LocOpt").median()), plain / nam, sn / nam, p.label().equals("zipf")
                            ? "1917, 2699, ≈ SN, 35% below WS" : "1220, —, —, 1251 (all on)"));
        }
        if (points.size() == 2) {
            md.append(String.format(Locale.ROOT, "%nWS+NAM on Zipf data against uniform: %.2f×.%n",
                    points.get(1).get("WS+NAM").median() / points.get(0).get("WS+NAM").median()));
        }
        md.append("\nThe query is `").append(SkewWorkload.QUERY).append("`.\n");
        return md.toString();
    }
}
