package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import me.tongfei.progressbar.ProgressBar;

/**
 * I-Store DPE Fig. 7b (section 5.2, Exp. 2a): blocks per second a compute server's scan pipeline gets through while
 * it streams them from memory servers, with 1 to 10 reads in flight ({@code SET prefetch}). The paper: 2 KB blocks
 * of one 8-byte integer column summed, up to 3× from depth 1 to 10, nearly all of it by depth 5. Here a one-column
 * BIGINT table (SSB's lo_revenue, eight times over) cut into 8 KiB blocks (the smallest block size is 4 KiB) is summed
 * on the compute servers.
 */
final class PrefetchExperiment implements Experiment {
    private static final String QUERY = "SELECT COUNT(*), SUM(v) FROM narrow";

    private final NamExperimentCluster.Layout layout;
    private final int[] depths;

    PrefetchExperiment(NamExperimentCluster.Layout layout, int[] depths) {
        this.layout = layout;
        this.depths = depths.clone();
    }

    @Override
    public String name() {
        return "prefetch";
    }

    @Override
    public int points() {
        return 1;
    }

    @Override
    public long runs(Settings s) {
        return (long) depths.length * Probe.runsPerSeries(s);
    }

    @Override
    public List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception {
        progress.setExtraMessage("starting the cluster and loading SSB");
        try (NamExperimentCluster cluster = NamExperimentCluster.start(s, layout, logs);
                Connection c = cluster.connect()) {
            Probe probe = new Probe(c, s, progress);
            probe.execute("CREATE TABLE narrow AS SELECT lo_revenue AS v FROM lineorder");
            // eight times the blocks, so that a query's fixed costs (planning, dispatch, the result) are a small part
            // of its time and the rate is the stream's
            for (int i = 0; i < 3; i++) {
                probe.execute("INSERT INTO narrow SELECT v FROM narrow");
            }
            probe.execute("SET shipping = 'function'");
            List<Probe.Series> series = new ArrayList<>();
            for (int d : depths) {
                series.add(new Probe.Series(Integer.toString(d), "SET prefetch = " + d, QUERY));
            }
            progress.setExtraMessage("scanning");
            List<Measurement> m = probe.interleaved(series);
            return List.of(new Point(name(), "narrow", blocks(c), m));
        }
    }

    private static long blocks(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM sys.blocks WHERE table_name = 'narrow'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public String report(List<Point> points, Settings s, Path dir) throws Exception {
        Point p = points.get(0);
        double blocks = p.x();
        List<String> labels = new ArrayList<>();
        List<Double> rates = new ArrayList<>();
        for (int d : depths) {
            labels.add(Integer.toString(d));
            rates.add(blocks / (p.get(Integer.toString(d)).median() / 1e3));
        }
        Map<String, List<Double>> bars = new LinkedHashMap<>();
        bars.put("blocks per second", rates);
        Report.bars(dir.resolve(name() + ".png"), "Prefetching: blocks/s by reads in flight (DPE Fig. 7b)",
                "blocks per second (median)", labels, bars);
        StringBuilder md = new StringBuilder("### Prefetching (I-Store DPE Fig. 7b)\n\n");
        md.append(String.format(Locale.ROOT, "`%s` on %d compute servers streaming %,.0f blocks of 8 KiB from %d "
                + "memory servers, %s, %s, `SET prefetch = d`. %s.%n%n", QUERY, layout.compute(), blocks,
                layout.memory(), layout.megabits() > 0 ? "every node behind its own " + layout.megabits()
                        + " Mbit/s link" : "over loopback", layout.latencyMicros() > 0 ? layout.latencyMicros()
                                + " µs added to every read by the memory servers (emulated latency)"
                                : "no latency added", Report.machine(s, "")));
        md.append("![Prefetch](").append(name()).append(".png)\n\n");
        md.append("| reads in flight | ms | blocks/s | vs depth 1 |\n|---:|---:|---:|---:|\n");
        for (int i = 0; i < depths.length; i++) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %,.0f | %.2f× |%n", depths[i],
                    Report.ms(p.get(labels.get(i)).median()), rates.get(i), rates.get(i) / rates.get(0)));
        }
        md.append("\nThe paper (FDR InfiniBand, 2 KB blocks): about 3× from depth 1 to 10, nearly all of it by depth "
                + "5.\n");
        return md.toString();
    }
}
