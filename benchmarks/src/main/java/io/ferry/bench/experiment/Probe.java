package io.ferry.bench.experiment;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import me.tongfei.progressbar.ProgressBar;

/** Runs a query under session settings, times it, and reads back how the coordinator shipped it. */
final class Probe {
    private final Connection connection;
    private final Settings settings;
    private final ProgressBar progress;

    Probe(Connection connection, Settings settings, ProgressBar progress) {
        this.connection = connection;
        this.settings = settings;
        this.progress = progress;
    }

    /** Runs of each series at each point, for the progress bar's total. */
    static int runsPerSeries(Settings s) {
        return s.warmups() + s.repeat();
    }

    void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /** A series: its name and the SET statement that selects it. */
    record Series(String name, String set) {
    }

    /** Auto, forced function and forced data shipping of {@code sql}. */
    List<Measurement> shippingModes(String sql) throws SQLException {
        return interleaved(sql, List.of(new Series("function", "SET shipping = 'function'"),
                new Series("data", "SET shipping = 'data'"), new Series("auto", "SET shipping = 'auto'")));
    }

    /**
     * Measures the series side by side: each series' warm-up runs, then the timed runs in rounds, one run of each
     * series per round in an order that rotates from round to round, so that a slow spell of the machine (a
     * collection, the JIT, a neighbour) or the wake of the run before falls on every series alike instead of on
     * whichever happened to run then or after a particular other.
     */
    List<Measurement> interleaved(String sql, List<Series> series) throws SQLException {
        for (Series s : series) {
            select(s);
            for (int i = 0; i < settings.warmups(); i++) {
                drain(sql);
                progress.step();
            }
        }
        double[][] millis = new double[series.size()][settings.repeat()];
        List<List<Shipped>> shipped = new ArrayList<>();
        series.forEach(s -> shipped.add(new ArrayList<>()));
        for (int round = 0; round < settings.repeat(); round++) {
            for (int i = 0; i < series.size(); i++) {
                int k = (round + i) % series.size(); // rotated, so no series always follows the same one
                select(series.get(k));
                long start = System.nanoTime();
                drain(sql);
                millis[k][round] = (System.nanoTime() - start) / 1e6;
                shipped.get(k).add(lastQuery());
                progress.step();
            }
        }
        List<Measurement> out = new ArrayList<>();
        for (int k = 0; k < series.size(); k++) {
            out.add(Shipped.summarize(series.get(k).name(), millis[k], shipped.get(k)));
        }
        return out;
    }

    private void select(Series s) throws SQLException {
        execute(s.set());
    }

    private void drain(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int c = 1; c <= columns; c++) {
                    rs.getObject(c);
                }
            }
        }
    }

    /** How the last query's units (one per worker here) were shipped, as sys.fragments recorded them. */
    private Shipped lastQuery() throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT MIN(mode), MAX(mode), MIN(CASE WHEN compressed THEN 1 ELSE 0 END), SUM(result_bytes), "
                        + "SUM(fs_cost_ms), SUM(ds_cost_ms), SUM(node_cpu_ms) FROM sys.fragments "
                        + "WHERE query_id = (SELECT MAX(query_id) FROM sys.fragments)")) {
            rs.next();
            String mode = rs.getString(1) == null ? "none" : rs.getString(1).equals(rs.getString(2))
                    ? rs.getString(1) : "mixed";
            return new Shipped(mode, rs.getInt(3) == 1, rs.getLong(4), rs.getDouble(5), rs.getDouble(6),
                    rs.getDouble(7));
        }
    }

    /** One run's record in sys.fragments. */
    record Shipped(String mode, boolean compressed, long resultBytes, double fsCostMs, double dsCostMs,
            double nodeCpuMs) {
        /**
         * The series over its runs: the mode and compression most runs used (auto may decide differently from run
         * to run), and the medians of the rest.
         */
        static Measurement summarize(String series, double[] millis, List<Shipped> runs) {
            Map<String, Integer> modes = new HashMap<>();
            int compressed = 0;
            for (Shipped r : runs) {
                modes.merge(r.mode(), 1, Integer::sum);
                compressed += r.compressed() ? 1 : 0;
            }
            String mode = modes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            return new Measurement(series, millis, mode, 2 * compressed > runs.size(),
                    (long) median(runs.stream().mapToDouble(Shipped::resultBytes).toArray()),
                    median(runs.stream().mapToDouble(Shipped::fsCostMs).toArray()),
                    median(runs.stream().mapToDouble(Shipped::dsCostMs).toArray()),
                    median(runs.stream().mapToDouble(Shipped::nodeCpuMs).toArray()),
                    modes.size() == 1 ? "" : modes.toString());
        }
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
