package io.ferry.server.cluster;

import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;

/**
 * Execution rates a node measured at start-up on one core (DESIGN.md cost model: "scan/aggregate rates per core,
 * calibrated at start-up"). Grouping is measured at three group counts, because its cost per row is set by where
 * the hash table lives: a thousand groups stay in L1 and run several times faster than half a million, which miss
 * cache on every row. Between the three, time per row is interpolated over log(groups), and extrapolated past the
 * largest along the last slope, because the cost keeps growing there (in the crossover experiment, docs/experiments.md,
 * grouping 16 million rows into 4 million groups took several times as long as into half a million).
 *
 * @param scanBytesPerSecond block bytes a core decodes and sums per second
 * @param aggFew             rows a core groups and counts per second into {@link #FEW} groups
 * @param aggSome            ... into {@link #SOME} groups
 * @param aggMany            ... into {@link #MANY} groups
 * @param lz4BytesPerSecond  bytes a core compresses per second with LZ4
 * @param ipcBytesPerSecond  bytes of a partial-aggregate result a core encodes as Arrow IPC and decodes again per
 *                           second (without compression): what shipping a result costs besides the link
 * @param bernoulliRowsPerSecond rows a core reads and tests for a BERNOULLI sample per second (a 1% sample, so
 *                           what passes costs next to nothing): what sampling adds to every row of the table
 */
public record Calibration(double scanBytesPerSecond, double aggFew, double aggSome, double aggMany,
        double lz4BytesPerSecond, double ipcBytesPerSecond, double bernoulliRowsPerSecond) {
    public static final int FEW = 1 << 10;
    public static final int SOME = 1 << 15;
    public static final int MANY = 1 << 19;
    /** Past MANY the cost per row keeps growing (TLB misses, memory bandwidth) along the same slope, up to here. */
    private static final long LARGEST = 1L << 26;

    /** Rows a core groups per second when they fall into {@code groups} groups. */
    public double aggRowsPerSecond(long groups) {
        double g = Math.log(Math.max(FEW, Math.min(LARGEST, groups)));
        double few = Math.log(FEW);
        double some = Math.log(SOME);
        double secondsPerRow = g <= some
                ? lerp(1 / aggFew, 1 / aggSome, (g - few) / (some - few))
                : lerp(1 / aggSome, 1 / aggMany, (g - some) / (Math.log(MANY) - some));
        return 1 / Math.max(secondsPerRow, 1 / aggFew);
    }

    private static double lerp(double a, double b, double t) {
        return a + (b - a) * t;
    }

    void encode(WireWriter w) {
        w.writeDouble(scanBytesPerSecond).writeDouble(aggFew).writeDouble(aggSome).writeDouble(aggMany)
                .writeDouble(lz4BytesPerSecond).writeDouble(ipcBytesPerSecond).writeDouble(bernoulliRowsPerSecond);
    }

    static Calibration decode(WireReader r) {
        return new Calibration(r.readDouble(), r.readDouble(), r.readDouble(), r.readDouble(), r.readDouble(),
                r.readDouble(), r.readDouble());
    }
}
