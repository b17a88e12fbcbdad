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
 * @param mixed       when runs were shipped differently (auto deciding differently from run to run): each mode and
 *                    how many runs used it; else empty
 */
record Measurement(String series, double[] millis, String shipped, boolean compressed, long resultBytes,
        double fsCostMs, double dsCostMs, double nodeCpuMs, String mixed) {

    double median() {
        return Probe.median(millis);
    }

    double min() {
        return Arrays.stream(millis).min().orElse(Double.NaN);
    }

    double max() {
        return Arrays.stream(millis).max().orElse(Double.NaN);
    }
}
