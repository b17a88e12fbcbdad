package io.ferry.sql.distributed;

import java.util.Locale;

/**
 * The cost model of ship-or-not section II-A, priced in seconds from measured rates:
 *
 * <pre>
 * COST(DS) = max(C_read, C_sample + C_coordExec) + C_coordAgg
 * COST(FS) = C_sample + C_workerExec + C_write + C_coordAgg
 * </pre>
 *
 * <ul>
 * <li>C_read: the bytes of the unit's blocks over the measured link, plus one small-read latency per prefetch
 * window. The paper adds it to the execution; with reads in flight ({@code SET prefetch}) the coordinator processes one
 * block while the next ones arrive, so the slower of the two sets the pace.
 * <li>C_coordExec and C_workerExec: the unit's rows over the node's calibrated per-core rate for the unit's number
 * of groups, times the cores it can give this query (measured from its heartbeats, shared with the fragments and
 * queries already running there); plus merging its threads' partial tables, since each thread aggregates its
 * morsels into a table of its own and those are merged on one thread, which with millions of groups costs as much
 * as the grouping itself.
 * <li>C_write: the estimated result over the link (compressed, plus the time to compress), plus encoding it as
 * Arrow IPC at the worker and decoding it at the coordinator.
 * <li>C_coordAgg: merging the unit's result into the final aggregate on one thread. The paper counts it for
 * function shipping only; a data-shipped unit also ends as a partial result, so it is paid in both modes here. It
 * does not sway the choice, but keeps the prices comparable with measured times.
 * <li>C_sample: BERNOULLI reads and tests every row of the unit, at the calibrated sampling rate, on whichever node
 * executes — the worker in function shipping, the coordinator (after reading every block) in data shipping — and
 * only the kept share goes on to be grouped; so it is folded into that node's execution term. SYSTEM sampling has
 * already cut the unit to the sampled blocks, so it shrinks C_read and both executions alike (section II-B.1).
 * </ul>
 *
 * <p>docs/experiments.md compares these prices with measured times.
 */
public final class ShippingModel {
    private ShippingModel() {
    }

    /**
     * A node's side of the price.
     *
     * @param cores          cores it can give this unit
     * @param threads        threads its executor runs a fragment with: partial tables to merge
     * @param rowsPerSecond  rows a core groups per second, at the unit's number of groups; also the rate at which it
     *                       merges partial rows, since a merged row costs what a grouped one does (one probe, one
     *                       update per aggregate)
     * @param bernoulliRowsPerSecond rows a core reads and tests for a BERNOULLI sample per second
     */
    public record Node(double cores, int threads, double rowsPerSecond, double bernoulliRowsPerSecond) {
        /**
         * Seconds to sample {@code rows} rows by BERNOULLI keeping {@code rowFraction} of them (1: no row sampling),
         * aggregate those into {@code groups} groups and merge the threads' tables.
         */
        double execute(long rows, double rowFraction, long groups) {
            double test = rowFraction < 1 ? rows / (bernoulliRowsPerSecond * cores) : 0;
            double kept = rows * rowFraction;
            double perThread = Math.min(groups, Math.ceil(kept / Math.max(1, threads)));
            double merge = groups <= 1 ? 0 : Math.max(1, threads) * perThread / rowsPerSecond;
            return test + kept / (rowsPerSecond * cores) + merge;
        }
    }

    /**
     * What one unit of work costs in each mode, and why.
     *
     * @param rows          rows the unit's blocks hold (after SYSTEM sampling)
     * @param rowFraction   the share of those rows a BERNOULLI sample keeps (1 without one)
     * @param bytes         bytes of those blocks
     * @param prefetch      reads a stream keeps in flight ({@code SET prefetch}): one round trip per this many blocks
     * @param resultRows    estimated rows of the unit's result (groups of a partial aggregate)
     * @param resultBytes   estimated encoded result bytes before compression
     * @param groups        groups the rows are aggregated into (1 for a fragment without an aggregate)
     * @param compressRatio expected compressed/uncompressed size (1 without compression)
     * @param ipcBytesPerSecond result bytes encoded as Arrow IPC at the worker and decoded at the coordinator per
     *                      second (the slower of the two nodes' calibrations)
     */
    public record Inputs(long rows, double rowFraction, long bytes, int blocks, int prefetch, long resultRows, long resultBytes, long groups,
            double compressRatio, double linkBytesPerSecond, double linkLatency, Node coordinator, Node worker,
            double workerLz4PerSecond, double ipcBytesPerSecond, int concurrent) {
    }

    /** Both costs in seconds, with their terms. */
    public record Costs(double read, double coordExec, double workerExec, double write, double coordAgg) {
        /** Reading and executing overlap: the stream keeps reads in flight while blocks are processed. */
        public double dataShipping() {
            return Math.max(read, coordExec) + coordAgg;
        }

        public double functionShipping() {
            return workerExec + write + coordAgg;
        }

        public boolean functionWins() {
            return functionShipping() <= dataShipping();
        }
    }

    public static Costs price(Inputs in) {
        double read = in.bytes() / in.linkBytesPerSecond() + Math.ceil(in.blocks() / (double) in.prefetch())
                * in.linkLatency();
        double coordExec = in.coordinator().execute(in.rows(), in.rowFraction(), in.groups());
        double workerExec = in.worker().execute(in.rows(), in.rowFraction(), in.groups());
        double shipped = in.resultBytes() * in.compressRatio();
        double write = shipped / in.linkBytesPerSecond() + in.linkLatency()
                + (in.compressRatio() < 1 ? in.resultBytes() / in.workerLz4PerSecond() : 0)
                + in.resultBytes() / in.ipcBytesPerSecond();
        double coordAgg = in.groups() <= 1 ? 0 : in.resultRows() / in.coordinator().rowsPerSecond();
        return new Costs(read, coordExec, workerExec, write, coordAgg);
    }

    /** One line of EXPLAIN / sys.fragments for a decision. */
    public static String describe(Inputs in, Costs c) {
        return String.format(Locale.ROOT, "FS %.2f ms (exec %.2f + write %.2f + merge %.2f) vs DS %.2f ms (read %.2f "
                + "overlapping exec %.2f, + merge %.2f); %,d rows%s, %s in %d blocks, result ~%,d rows / %s%s, link %.0f MB/s, "
                + "worker %.1f cores, coordinator %.1f cores, %d concurrent", ms(c.functionShipping()),
                ms(c.workerExec()), ms(c.write()), ms(c.coordAgg()), ms(c.dataShipping()), ms(c.read()),
                ms(c.coordExec()), ms(c.coordAgg()), in.rows(), in.rowFraction() < 1
                        ? String.format(Locale.ROOT, " (BERNOULLI tests all, keeps %.3g%%)", 100 * in.rowFraction())
                        : "", bytes(in.bytes()), in.blocks(), in.resultRows(),
                bytes(in.resultBytes()), in.compressRatio() < 1 ? " (lz4)" : "", in.linkBytesPerSecond() / 1e6,
                in.worker().cores(), in.coordinator().cores(), in.concurrent());
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
