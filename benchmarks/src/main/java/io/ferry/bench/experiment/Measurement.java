package io.ferry.bench.experiment;

import java.util.Arrays;

/**
 * One series at one point of a sweep: the timed runs (client-side, {@code executeQuery} to the last row read) and
 * what the coordinator recorded in {@code sys.fragments} for them. A run may start several queries at once; its
 * fragment figures are then summed over them.
 *
 * @param millis      each run's time: from its first query's start to its last one's end
 * @param queryMillis each run's mean query latency (its time, when it ran one query)
 * @param shipped     the shipping mode the unit used: function or data
 * @param compressed  whether its result was LZ4-compressed
 * @param resultBytes bytes the node shipped back (0 under data shipping)
 * @param blockBytes  bytes of the table blocks the units covered: what data shipping reads over the network, all
 *                    of the table's blocks but under SYSTEM sampling, which skips the blocks it does not choose
 * @param blockRows   rows of those blocks
 * @param fsCostMs    the cost model's price of function shipping for the unit
 * @param dsCostMs    and of data shipping
 * @param nodeCpuMs   the node's CPU time for the unit (0 under data shipping, where the node runs no query code)
 * @param mixed       when runs were shipped differently (auto deciding differently from run to run): each mode and
 *                    how many runs used it; else empty
 */
record Measurement(String series, double[] millis, double[] queryMillis, String shipped, boolean compressed,
        long resultBytes, long blockBytes, long blockRows, double fsCostMs, double dsCostMs, double nodeCpuMs,
        String mixed) {

    double median() {
        return Probe.median(millis);
    }

    double queryMedian() {
        return Probe.median(queryMillis);
    }

    double min() {
        return Arrays.stream(millis).min().orElse(Double.NaN);
    }

    double max() {
        return Arrays.stream(millis).max().orElse(Double.NaN);
    }
}
