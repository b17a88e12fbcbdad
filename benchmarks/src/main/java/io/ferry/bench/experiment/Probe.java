package io.ferry.bench.experiment;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

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

    /**
     * Auto, then forced function and forced data shipping. Auto goes first, after a pause: the worker's load is the
     * least of its last heartbeats, and right after forced data shipping the coordinator's threads have been busy on
     * the cores it shares with the worker on a 2-core machine, which would make the worker look loaded.
     */
    List<Measurement> shippingModes(String sql) throws SQLException, InterruptedException {
        Thread.sleep(1000);
        Measurement auto = measure("auto", List.of("SET shipping = 'auto'"), sql);
        return List.of(measure("function", List.of("SET shipping = 'function'"), sql),
                measure("data", List.of("SET shipping = 'data'"), sql), auto);
    }

    /** {@code sets} (SET statements) then {@code sql}: warm-up runs, then timed runs. */
    Measurement measure(String series, List<String> sets, String sql) throws SQLException {
        for (String set : sets) {
            execute(set);
        }
        double[] millis = new double[settings.repeat()];
        for (int i = -settings.warmups(); i < settings.repeat(); i++) {
            long start = System.nanoTime();
            drain(sql);
            if (i >= 0) {
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
            progress.step();
        }
        return lastQuery(series, millis);
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

    /** The last query's units (one per worker here) as sys.fragments recorded them. */
    private Measurement lastQuery(String series, double[] millis) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT MIN(mode), MAX(mode), MIN(CASE WHEN compressed THEN 1 ELSE 0 END), SUM(result_bytes), SUM(fs_cost_ms), "
                        + "SUM(ds_cost_ms), SUM(node_cpu_ms) FROM sys.fragments "
                        + "WHERE query_id = (SELECT MAX(query_id) FROM sys.fragments)")) {
            rs.next();
            String mode = rs.getString(1) == null ? "none" : rs.getString(1).equals(rs.getString(2))
                    ? rs.getString(1) : "mixed";
            return new Measurement(series, millis, mode, rs.getInt(3) == 1, rs.getLong(4), rs.getDouble(5),
                    rs.getDouble(6), rs.getDouble(7));
        }
    }
}
