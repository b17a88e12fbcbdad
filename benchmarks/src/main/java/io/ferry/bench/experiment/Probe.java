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
import java.util.concurrent.CountDownLatch;

import me.tongfei.progressbar.ProgressBar;

/**
 * Runs a query under session settings, times it, and reads back how the coordinator shipped it. A run is one query,
 * or several copies started together, each on a connection of its own (ship-or-not Fig. 3, §III-C).
 */
final class Probe {
    private final List<Connection> connections;
    private final Settings settings;
    private final ProgressBar progress;

    Probe(Connection connection, Settings settings, ProgressBar progress) {
        this(List.of(connection), settings, progress);
    }

    /** @param connections one per query a run may start at once; the first also reads {@code sys.fragments} */
    Probe(List<Connection> connections, Settings settings, ProgressBar progress) {
        this.connections = List.copyOf(connections);
        this.settings = settings;
        this.progress = progress;
    }

    /** Runs of each series at each point, for the progress bar's total. */
    static int runsPerSeries(Settings s) {
        return s.warmups() + s.repeat();
    }

    void execute(String sql) throws SQLException {
        execute(connections.get(0), sql);
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** A series: its name, the SET statement that selects it, and its query. */
    record Series(String name, String set, String sql) {
        /** {@code sql} under each of {@code modes} (function, data, auto), named {@code prefix mode}. */
        static List<Series> shipping(String prefix, String sql, List<String> modes) {
            return modes.stream().map(m -> new Series(prefix.isEmpty() ? m : prefix + " " + m,
                    "SET shipping = '" + m + "'", sql)).toList();
        }
    }

    /** Auto, forced function and forced data shipping of {@code sql}. */
    List<Measurement> shippingModes(String sql) throws SQLException {
        return interleaved(Series.shipping("", sql, List.of("function", "data", "auto")));
    }

    /** The series side by side, one query per run. */
    List<Measurement> interleaved(List<Series> series) throws SQLException {
        return interleaved(series, 1);
    }

    /**
     * Measures the series side by side: each series' warm-up runs, then the timed runs in rounds, one run of each
     * series per round in an order that rotates from round to round, so that a slow spell of the machine (a
     * collection, the JIT, a neighbour) or the wake of the run before falls on every series alike instead of on
     * whichever happened to run then or after a particular other. Every run starts {@code queries} copies of the
     * series' query together.
     */
    List<Measurement> interleaved(List<Series> series, int queries) throws SQLException {
        if (queries < 1 || queries > connections.size()) {
            throw new IllegalArgumentException(queries + " queries at once, but " + connections.size()
                    + " connection(s)");
        }
        for (Series s : series) {
            select(s);
            for (int i = 0; i < settings.warmups(); i++) {
                together(s.sql(), queries);
                progress.step();
            }
        }
        double[][] millis = new double[series.size()][settings.repeat()];
        double[][] perQuery = new double[series.size()][settings.repeat()];
        List<List<Shipped>> shipped = new ArrayList<>();
        series.forEach(s -> shipped.add(new ArrayList<>()));
        for (int round = 0; round < settings.repeat(); round++) {
            for (int i = 0; i < series.size(); i++) {
                int k = (round + i) % series.size(); // rotated, so no series always follows the same one
                select(series.get(k));
                long before = lastQueryId();
                double[] run = together(series.get(k).sql(), queries);
                millis[k][round] = run[0];
                perQuery[k][round] = run[1];
                shipped.get(k).add(queriesAfter(before));
                progress.step();
            }
        }
        List<Measurement> out = new ArrayList<>();
        for (int k = 0; k < series.size(); k++) {
            out.add(Shipped.summarize(series.get(k).name(), millis[k], perQuery[k], shipped.get(k)));
        }
        return out;
    }

    /** Selects the series on every connection: session settings belong to a connection. */
    private void select(Series s) throws SQLException {
        for (Connection c : connections) {
            execute(c, s.set());
        }
    }

    /**
     * Runs {@code n} copies of {@code sql} at once, each on its own connection and thread, released together.
     *
     * @return the milliseconds from the first query's start to the last one's end, and the queries' mean latency
     */
    private double[] together(String sql, int n) throws SQLException {
        long[] start = new long[n];
        long[] end = new long[n];
        SQLException[] failed = new SQLException[n];
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int q = i;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    start[q] = System.nanoTime();
                    drain(connections.get(q), sql);
                    end[q] = System.nanoTime();
                } catch (SQLException e) {
                    failed[q] = e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failed[q] = new SQLException("interrupted", e);
                }
            }, "probe-query-" + q);
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while " + n + " queries ran", e);
            }
        }
        for (SQLException e : failed) {
            if (e != null) {
                throw e;
            }
        }
        double latency = 0;
        for (int q = 0; q < n; q++) {
            latency += (end[q] - start[q]) / 1e6 / n;
        }
        return new double[] {(Arrays.stream(end).max().orElseThrow() - Arrays.stream(start).min().orElseThrow())
                / 1e6, latency};
    }

    private static void drain(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int col = 1; col <= columns; col++) {
                    rs.getObject(col);
                }
            }
        }
    }

    /** The newest query sys.fragments holds (0 if none): the queries of the next run come after it. */
    private long lastQueryId() throws SQLException {
        try (Statement s = connections.get(0).createStatement();
                ResultSet rs = s.executeQuery("SELECT MAX(query_id) FROM sys.fragments")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** How the units of the queries after {@code queryId} (one unit per worker and query here) were shipped. */
    private Shipped queriesAfter(long queryId) throws SQLException {
        try (Statement s = connections.get(0).createStatement(); ResultSet rs = s.executeQuery(
                "SELECT MIN(mode), MAX(mode), MIN(CASE WHEN compressed THEN 1 ELSE 0 END), SUM(result_bytes), "
                        + "SUM(fs_cost_ms), SUM(ds_cost_ms), SUM(node_cpu_ms), SUM(bytes), SUM(row_count) "
                        + "FROM sys.fragments WHERE query_id > " + queryId)) {
            rs.next();
            String mode = rs.getString(1) == null ? "none" : rs.getString(1).equals(rs.getString(2))
                    ? rs.getString(1) : "mixed";
            return new Shipped(mode, rs.getInt(3) == 1, rs.getLong(4), rs.getDouble(5), rs.getDouble(6),
                    rs.getDouble(7), rs.getLong(8), rs.getLong(9));
        }
    }

    /** One run's record in sys.fragments, summed over its queries. */
    record Shipped(String mode, boolean compressed, long resultBytes, double fsCostMs, double dsCostMs,
            double nodeCpuMs, long blockBytes, long blockRows) {
        /**
         * The series over its runs: the mode and compression most runs used (auto may decide differently from run
         * to run), and the medians of the rest.
         */
        static Measurement summarize(String series, double[] millis, double[] queryMillis, List<Shipped> runs) {
            Map<String, Integer> modes = new HashMap<>();
            int compressed = 0;
            for (Shipped r : runs) {
                modes.merge(r.mode(), 1, Integer::sum);
                compressed += r.compressed() ? 1 : 0;
            }
            String mode = modes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            return new Measurement(series, millis, queryMillis, mode, 2 * compressed > runs.size(),
                    (long) median(runs.stream().mapToDouble(Shipped::resultBytes).toArray()),
                    (long) median(runs.stream().mapToDouble(Shipped::blockBytes).toArray()),
                    (long) median(runs.stream().mapToDouble(Shipped::blockRows).toArray()),
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
