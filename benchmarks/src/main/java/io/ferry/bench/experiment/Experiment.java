package io.ferry.bench.experiment;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

import me.tongfei.progressbar.ProgressBar;

/** A figure to reproduce: the clusters it starts, the points it measures, and how it reports them. */
interface Experiment {
    /** The paper's query, wrapped so one row reaches the client: the worker still ships its whole partial result. */
    String GROUP_BY = "SELECT COUNT(*), SUM(c) FROM (SELECT b, COUNT(*) AS c FROM %s GROUP BY b)";

    /** The sampling methods of ship-or-not §II-B: simple random (rows) and cluster (blocks) sampling. */
    List<String> METHODS = List.of("BERNOULLI", "SYSTEM");

    String name();

    /** Points of the sweep. */
    int points();

    /** Query runs the experiment will make, for the progress bar: three series at every point. */
    default long runs(Settings s) {
        return (long) points() * 3 * Probe.runsPerSeries(s);
    }

    List<Point> run(Settings s, Path logs, ProgressBar progress) throws Exception;

    /** Writes the chart next to {@code markdown} and returns the markdown section. */
    String report(List<Point> points, Settings s, Path dir) throws Exception;

    /**
     * {@code table} sampled by {@code method} at {@code percent}, with a fixed seed so that every run, in either
     * shipping mode, reads the same sample and the modes are timed on the same work.
     */
    static String sampled(String table, String method, double percent) {
        return table + " TABLESAMPLE " + method + "(" + Report.fmt(percent) + ") REPEATABLE(7)";
    }

    /** Creates {@code r_D}, r with {@code distinct} values of b (see {@link #derive}), and returns its name. */
    static String create(Probe probe, long distinct) throws SQLException {
        String table = "r_" + distinct;
        probe.execute(derive(table, distinct));
        return table;
    }

    /** r with {@code distinct} values of b, exactly as {@code PaperTable} would generate it, from r's key a. */
    static String derive(String table, long distinct) {
        return "CREATE TABLE " + table + " AS SELECT a, MOD((a - 1) * "
                + io.ferry.server.data.PaperTable.step(distinct) + ", " + distinct + ") AS b FROM r";
    }
}
