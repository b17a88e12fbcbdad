package io.ferry.bench.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The paper's query over a sample of r, by each sampling method (ship-or-not §II-B) under each shipping mode: the
 * series "METHOD mode" of the sampling and concurrency experiments (§III-B, §III-C).
 *
 * @param percent the sampling rate, percent
 * @param modes   shipping modes to measure: function, data, and possibly auto
 */
record SampledSeries(double percent, List<String> modes) {
    SampledSeries {
        modes = List.copyOf(modes);
    }

    /** The query over {@code table} sampled by {@code method}. */
    String query(String table, String method) {
        return String.format(Locale.ROOT, Experiment.GROUP_BY, Experiment.sampled(table, method, percent));
    }

    /** Every method under every mode, over {@code table}. */
    List<Probe.Series> over(String table) {
        List<Probe.Series> out = new ArrayList<>();
        for (String method : Experiment.METHODS) {
            out.addAll(Probe.Series.shipping(method, query(table, method), modes));
        }
        return out;
    }

    /** The series' names, in the order {@link #over} measures them. */
    List<String> names() {
        return over("r").stream().map(Probe.Series::name).toList();
    }

    /** Query runs at {@code points} points, for the progress bar. */
    long runs(int points, Settings s) {
        return (long) points * Experiment.METHODS.size() * modes.size() * Probe.runsPerSeries(s);
    }
}
