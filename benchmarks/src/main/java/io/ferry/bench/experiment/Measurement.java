package io.ferry.bench.experiment;

import java.util.Arrays;

/**
 * One series at one point of a sweep: the timed runs (client-side, {@code executeQuery} to the last row read) and
 * what the coordinator recorded in {@code sys.fragments} for the last of them.
 *
 * @param shipped     the shipping mode the unit used: function or data
 * @param compressed  whether its result was LZ4-compressed
 * @param resultBytes bytes the node shipped back (0 under data shipping)
 * @param fsCostMs    the cost model's price of function shipping for the unit
 * @param dsCostMs    and of data shipping
 * @param nodeCpuMs   the node's CPU time for the unit
 */
record Measurement(String series, double[] millis, String shipped, boolean compressed, long resultBytes,
        double fsCostMs, double dsCostMs, double nodeCpuMs) {

    double median() {
        double[] s = millis.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    double min() {
        return Arrays.stream(millis).min().orElse(Double.NaN);
    }

    double max() {
        return Arrays.stream(millis).max().orElse(Double.NaN);
    }
}
