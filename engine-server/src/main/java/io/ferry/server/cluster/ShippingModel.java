package io.ferry.server.cluster;

import java.util.Locale;

/**
 * The cost model of ship-or-not section II-A, priced in seconds from measured rates:
 *
 * <pre>
 * COST(DS) = C_read + C_sample + C_coordExec
 * COST(FS) = C_sample + C_workerExec + C_write + C_coordAgg
 * </pre>
 *
 * C_read is the bytes of the unit's blocks over the measured link (plus one small-read latency per prefetch window);
 * C_coordExec and C_workerExec are the unit's rows over the node's calibrated per-core rate times the cores it can
 * give this query (its threads, minus what other processes use, shared with the fragments and queries already
 * running there); C_write is the estimated result over the link (compressed, plus the time to compress);
 * C_coordAgg the result rows over the coordinator's merge rate. C_sample is the same in both modes for BERNOULLI
 * (every row is read and tested) and is folded into the execution terms; SYSTEM sampling has already cut the unit
 * to the sampled blocks, so it shrinks C_read too (section II-B).
 */
public final class ShippingModel {
    /** A prefetching stream keeps this many reads in flight. */
    static final int DEPTH = 8;

    private ShippingModel() {
    }

    /**
     * What one unit of work costs in each mode, and why.
     *
     * @param rows          rows the unit's blocks hold (after SYSTEM sampling)
     * @param bytes         bytes of those blocks
     * @param resultRows    estimated rows of the unit's result (groups of a partial aggregate)
     * @param resultBytes   estimated encoded result bytes before compression
     * @param compressRatio expected compressed/uncompressed size (1 without compression)
     */
    public record Inputs(long rows, long bytes, int blocks, long resultRows, long resultBytes, double compressRatio,
            double linkBytesPerSecond, double linkLatency, double coordCores, double coordRowsPerSecond,
            double coordMergePerSecond, double workerCores, double workerRowsPerSecond, double workerLz4PerSecond,
            int concurrent) {
    }

    /** Both costs in seconds, with their terms. */
    public record Costs(double read, double coordExec, double workerExec, double write, double coordAgg) {
        public double dataShipping() {
            return read + coordExec;
        }

        public double functionShipping() {
            return workerExec + write + coordAgg;
        }

        public boolean functionWins() {
            return functionShipping() <= dataShipping();
        }
    }

    public static Costs price(Inputs in) {
        double read = in.bytes() / in.linkBytesPerSecond() + Math.ceil(in.blocks() / (double) DEPTH) * in.linkLatency();
        double coordExec = in.rows() / (in.coordRowsPerSecond() * in.coordCores());
        double workerExec = in.rows() / (in.workerRowsPerSecond() * in.workerCores());
        double shipped = in.resultBytes() * in.compressRatio();
        double write = shipped / in.linkBytesPerSecond() + in.linkLatency()
                + (in.compressRatio() < 1 ? in.resultBytes() / in.workerLz4PerSecond() : 0);
        double coordAgg = in.resultRows() / (in.coordMergePerSecond() * in.coordCores());
        return new Costs(read, coordExec, workerExec, write, coordAgg);
    }

    /** One line of EXPLAIN / sys.fragments for a decision. */
    public static String describe(Inputs in, Costs c) {
        return String.format(Locale.ROOT, "FS %.2f ms (exec %.2f + write %.2f + merge %.2f) vs DS %.2f ms (read %.2f "
                + "+ exec %.2f); %,d rows, %s in %d blocks, result ~%,d rows / %s%s, link %.0f MB/s, worker %.1f "
                + "cores, coordinator %.1f cores, %d concurrent", ms(c.functionShipping()), ms(c.workerExec()),
                ms(c.write()), ms(c.coordAgg()), ms(c.dataShipping()), ms(c.read()), ms(c.coordExec()), in.rows(),
                bytes(in.bytes()), in.blocks(), in.resultRows(), bytes(in.resultBytes()),
                in.compressRatio() < 1 ? " (lz4)" : "", in.linkBytesPerSecond() / 1e6, in.workerCores(),
                in.coordCores(), in.concurrent());
    }

    private static double ms(double seconds) {
        return seconds * 1e3;
    }

    static String bytes(long n) {
        if (n >= 10L << 20) {
            return (n >> 20) + " MiB";
        }
        if (n >= 10L << 10) {
            return (n >> 10) + " KiB";
        }
        return n + " B";
    }
}
