package io.ferry.core.exec;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * TABLESAMPLE on a scan. BERNOULLI keeps each row with probability {@code percent / 100}; SYSTEM keeps whole
 * blocks with that probability and never reads the others (cluster sampling, ship-or-not section II-B).
 * Membership is a pure function of the seed and the block's position in the table (and the row's position
 * in its block), never of execution order, so REPEATABLE(seed) gives the same sample on every run. Without
 * REPEATABLE ({@code repeatable == false}) every execution draws a new seed, so a prepared or cached plan still
 * gives a fresh sample each time it runs.
 */
public record SampleSpec(Method method, double percent, long seed, boolean repeatable) {
    public enum Method {
        BERNOULLI, SYSTEM
    }

    public SampleSpec {
        if (!(percent >= 0 && percent <= 100)) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "TABLESAMPLE percentage must be between 0 "
                    + "and 100, got " + percent);
        }
    }

    /** A REPEATABLE(seed) sample. */
    public SampleSpec(Method method, double percent, long seed) {
        this(method, percent, seed, true);
    }

    /** A sample without REPEATABLE: the seed is drawn when the plan runs. */
    public static SampleSpec fresh(Method method, double percent) {
        return new SampleSpec(method, percent, 0, false);
    }

    /** The sample one execution uses: this one if it is repeatable, else one with a newly drawn seed. */
    public SampleSpec forExecution() {
        return repeatable ? this
                : new SampleSpec(method, percent, java.util.concurrent.ThreadLocalRandom.current().nextLong(), false);
    }

    /** Threshold on a 53-bit uniform draw below which a unit is kept. */
    long threshold() {
        return (long) Math.floor(percent / 100.0 * (1L << 53));
    }

    /** Whether SYSTEM sampling keeps the block at {@code block} (its position in the table). */
    public boolean keepBlock(int block) {
        return draw(seed, block, -1) < threshold();
    }

    /** Whether a scan under {@code sample} (or none) reads the block at {@code position} of its table. */
    public static boolean reads(SampleSpec sample, int position) {
        return sample == null || sample.method() != Method.SYSTEM || sample.keepBlock(position);
    }

    /**
     * Positions of the blocks a scan of {@code blocks} blocks reads: all of them, or under SYSTEM sampling only the
     * chosen ones (cluster sampling never touches the others, ship-or-not section II-B).
     */
    public static int[] keptBlocks(SampleSpec sample, int blocks) {
        int[] kept = new int[blocks];
        int n = 0;
        for (int b = 0; b < blocks; b++) {
            if (reads(sample, b)) {
                kept[n++] = b;
            }
        }
        return n == blocks ? kept : java.util.Arrays.copyOf(kept, n);
    }

    boolean keepRow(int block, int row, long threshold) {
        return draw(seed, block, row) < threshold;
    }

    /** A uniform 53-bit value from (seed, block, row): SplitMix64 finalizer over a mixed key. */
    static long draw(long seed, int block, int row) {
        long z = seed + 0x9E3779B97F4A7C15L * (((long) block << 32) ^ (row & 0xFFFFFFFFL) ^ 0x5DEECE66DL);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return z >>> 11;
    }
}
