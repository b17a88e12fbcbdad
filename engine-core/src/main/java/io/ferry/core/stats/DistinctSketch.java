package io.ferry.core.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Estimates how many distinct non-NULL values a column holds: a HyperLogLog sketch (Flajolet, Fusy, Gandouet,
 * Meunier, "HyperLogLog: the analysis of a near-optimal cardinality estimation algorithm", 2007) of 2^14 one-byte
 * registers, 16 KiB whatever the row count. The estimate is Ertl's improved estimator ("New Cardinality Estimation
 * Methods for HyperLogLog Sketches", 2017, arXiv:1706.07290) rather than the original raw estimate with its switch
 * to linear counting: it needs no empirical bias tables (HyperLogLog++) and has no bump where the original switches
 * estimators, so one formula is accurate from a handful of values to billions; with 64-bit hashes no large-range
 * correction is needed either.
 *
 * <p>The theory gives a standard error of 1.04 / sqrt(2^14) = 0.81%. Measured (relative error, random distinct
 * longs, 200 sketches per size, 40 at 10^6): 10 values always exact; 1,000: rms 0.58%, worst 2.1%; 10,000: rms 0.60%,
 * worst 1.8%; 100,000: rms 0.72%, worst 2.0%; 1,000,000: rms 0.72%, worst 1.4%. Runs of sequential longs (10^6 values
 * from 30 starting points): mean error +0.01%, rms 0.89%, worst 2.3%. {@code DistinctSketchTest} checks longs,
 * doubles and strings from 10 to 10^6 values against these bounds.
 *
 * <p>A sketch is filled by one thread with the {@code add} methods, then {@linkplain #freeze() frozen}. Only frozen
 * sketches are published (a table version's statistics hold them, and planners read them without locks), and a
 * frozen sketch never changes again: the {@code add} methods refuse it, and {@link #merge} returns a new sketch
 * instead of folding one operand into the other. A commit that merged in place would change the statistics of a
 * table version a running query is still planning with.
 */
public final class DistinctSketch {
    /** Index bits: 2^14 registers. Fixed, so that every sketch merges with every other and shifts are constants. */
    public static final int PRECISION = 14;

    private static final int REGISTERS = 1 << PRECISION;
    /** Hash bits left after the index; a register holds the position of their first 1-bit, at most {@code Q + 1}. */
    private static final int Q = 64 - PRECISION;
    /** Set just below the bits a rank is read from, so an all-zero remainder yields rank Q + 1 without a branch. */
    private static final long RANK_SENTINEL = 1L << (PRECISION - 1);

    /** First byte of {@link #toBytes()}: bump it when the layout changes, so old bytes fail loudly. */
    private static final byte FORMAT = 1;
    private static final int HEADER = 2;

    /**
     * Rows hashed per step. The adds hash a chunk into a scratch array, then update the registers from it: two simple
     * loops the JIT schedules far better than one interleaving the multiply chain with a load, compare and store into
     * the registers (10^7 longs: about 17 ms instead of 38 ms on the development VM). Small enough to stay in L1
     * cache beside the registers.
     */
    private static final int CHUNK = 1024;

    /** 2^64 / golden ratio: offsets inputs so that 0, a common value, does not hash to the mixer's fixed point 0. */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final long BYTES_SEED = 0x2545F4914F6CDD1DL;
    /** Reads eight bytes of a byte[] as one little-endian long, without allocating (the JIT makes it one load). */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] registers;
    private boolean frozen;
    /** Hashes of the rows being added, {@link #CHUNK} at a time; dropped when the sketch freezes. */
    private long[] hashes;

    /** An empty sketch, open for adding. */
    public DistinctSketch() {
        this(new byte[REGISTERS]);
    }

    private DistinctSketch(byte[] registers) {
        this.registers = registers;
    }

    public boolean isFrozen() {
        return frozen;
    }

    /** Makes this sketch read-only for good; returns it. */
    public DistinctSketch freeze() {
        frozen = true;
        hashes = null;
        return this;
    }

    /** Adds {@code values[from .. from + count)}, skipping rows whose {@code nulls} entry is true. */
    public void addLongs(long[] values, boolean[] nulls, int from, int count) {
        checkAdd(values.length, nulls, from, count);
        long[] h = scratch();
        for (int start = from, end = from + count; start < end; start += CHUNK) {
            int n = Math.min(CHUNK, end - start);
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    h[i] = hashLong(values[start + i]);
                }
            } else {
                // Every row is hashed and a NULL's slot is reused by the next row: no branch in the loop.
                int kept = 0;
                for (int i = 0; i < n; i++) {
                    h[kept] = hashLong(values[start + i]);
                    kept += nulls[start + i] ? 0 : 1;
                }
                n = kept;
            }
            update(h, n);
        }
    }

    /**
     * Adds {@code values[from .. from + count)}, skipping NULL rows. +0.0 and -0.0 count as one value (they are equal
     * in SQL, so they fall into one GROUP BY group), and so do all NaNs.
     */
    public void addDoubles(double[] values, boolean[] nulls, int from, int count) {
        checkAdd(values.length, nulls, from, count);
        long[] h = scratch();
        for (int start = from, end = from + count; start < end; start += CHUNK) {
            int n = Math.min(CHUNK, end - start);
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    h[i] = hashDouble(values[start + i]);
                }
            } else {
                int kept = 0;
                for (int i = 0; i < n; i++) {
                    h[kept] = hashDouble(values[start + i]);
                    kept += nulls[start + i] ? 0 : 1;
                }
                n = kept;
            }
            update(h, n);
        }
    }

    /** Adds rows {@code [from, from + count)}, row i being {@code data[offsets[i] .. offsets[i + 1])}; skips NULLs. */
    public void addBytes(byte[] data, int[] offsets, boolean[] nulls, int from, int count) {
        checkAdd(offsets.length - 1, nulls, from, count);
        long[] h = scratch();
        for (int start = from, end = from + count; start < end; start += CHUNK) {
            int stop = Math.min(end, start + CHUNK);
            int n = 0;
            for (int i = start; i < stop; i++) {
                if (nulls == null || !nulls[i]) {
                    h[n++] = hashBytes(data, offsets[i], offsets[i + 1] - offsets[i]);
                }
            }
            update(h, n);
        }
    }

    private void checkAdd(int length, boolean[] nulls, int from, int count) {
        if (frozen) {
            throw new IllegalStateException("sketch is frozen: it may be published, so it must not change");
        }
        if (from < 0 || count < 0 || from + count > length || (nulls != null && from + count > nulls.length)) {
            throw new IndexOutOfBoundsException("rows [" + from + ", " + (from + count) + ") out of " + length);
        }
    }

    private long[] scratch() {
        if (hashes == null) {
            hashes = new long[CHUNK];
        }
        return hashes;
    }

    /**
     * The top PRECISION bits of each hash pick a register; the register keeps the largest position of the first 1-bit
     * seen in the remaining Q bits.
     */
    private void update(long[] h, int n) {
        byte[] r = registers;
        for (int i = 0; i < n; i++) {
            long hash = h[i];
            int index = (int) (hash >>> Q);
            byte rank = (byte) (Long.numberOfLeadingZeros((hash << PRECISION) | RANK_SENTINEL) + 1);
            if (rank > r[index]) {
                r[index] = rank;
            }
        }
    }

    /**
     * The SplitMix64 output function (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA
     * 2014, with Stafford's "Mix13" constants): a bijection on longs in which every input bit flips each output bit
     * with probability close to 1/2, so sequential keys spread evenly over the registers.
     */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long hashLong(long value) {
        return mix(value + GOLDEN);
    }

    /**
     * Adding +0.0 turns -0.0 into +0.0 (IEEE 754 round-to-nearest) and leaves every other value alone, without a
     * branch; {@link Double#doubleToLongBits} maps every NaN to one canonical NaN.
     */
    static long hashDouble(double value) {
        return mix(Double.doubleToLongBits(value + 0.0) + GOLDEN);
    }

    /**
     * Hashes {@code data[start .. start + length)} eight bytes at a time, each word folded in by a bijective mix of the
     * state xor the word, so values of equal length never collide before the last step; the length is folded in last
     * so that values differing only by trailing zero bytes do not collide either.
     */
    static long hashBytes(byte[] data, int start, int length) {
        int end = start + length;
        long h = BYTES_SEED;
        int i = start;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            h = mix(h ^ (long) LONGS.get(data, i));
        }
        long tail = 0;
        for (int shift = 0; i < end; i++, shift += 8) {
            tail |= (data[i] & 0xFFL) << shift;
        }
        return mix(mix(h ^ tail) ^ length);
    }

    /** A new, unfrozen sketch of the union of both inputs' values (register-wise maximum); neither input changes. */
    public DistinctSketch merge(DistinctSketch other) {
        byte[] a = registers;
        byte[] b = other.registers;
        byte[] out = new byte[REGISTERS];
        for (int i = 0; i < REGISTERS; i++) {
            out[i] = (byte) Math.max(a[i], b[i]);
        }
        return new DistinctSketch(out);
    }

    /** The estimated number of distinct values added; 0 for an empty sketch. */
    public long estimate() {
        int[] histogram = new int[Q + 2];
        for (byte r : registers) {
            histogram[r]++;
        }
        if (histogram[0] == REGISTERS) {
            return 0;
        }
        // Ertl: tau corrects for registers at the maximum rank (saturated), sigma for registers still at zero (small
        // cardinalities, the part linear counting plays in classic HyperLogLog).
        double m = REGISTERS;
        double z = m * tau(1.0 - histogram[Q + 1] / m);
        for (int k = Q; k >= 1; k--) {
            z = 0.5 * (z + histogram[k]);
        }
        z += m * sigma(histogram[0] / m);
        double alphaInfinity = 0.5 / Math.log(2);
        return Math.round(alphaInfinity * m * m / z);
    }

    /** sigma(x) = x + sum over k >= 1 of x^(2^k) * 2^(k-1), summed until it stops changing; x < 1. */
    private static double sigma(double x) {
        double y = 1;
        double z = x;
        double previous;
        do {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        } while (z != previous);
        return z;
    }

    /** tau(x) = (1 - x - sum over k >= 1 of (1 - x^(2^-k))^2 * 2^-k) / 3, summed until it stops changing. */
    private static double tau(double x) {
        if (x == 0 || x == 1) {
            return 0;
        }
        double y = 1;
        double z = 1 - x;
        double previous;
        do {
            x = Math.sqrt(x);
            previous = z;
            y *= 0.5;
            z -= (1 - x) * (1 - x) * y;
        } while (z != previous);
        return z / 3;
    }

    /** {@code [format, precision, registers...]}: what a worker sends for the coordinator to merge. */
    public byte[] toBytes() {
        byte[] out = new byte[HEADER + REGISTERS];
        out[0] = FORMAT;
        out[1] = PRECISION;
        System.arraycopy(registers, 0, out, HEADER, REGISTERS);
        return out;
    }

    /**
     * The sketch {@link #toBytes()} wrote, unfrozen: the receiver's own to add to. Checks the bytes, since they may
     * come from another node.
     */
    public static DistinctSketch fromBytes(byte[] bytes) {
        if (bytes.length != HEADER + REGISTERS || bytes[0] != FORMAT || bytes[1] != PRECISION) {
            throw new IllegalArgumentException("not a distinct sketch of format " + FORMAT + " and precision "
                    + PRECISION + " (" + bytes.length + " bytes)");
        }
        byte[] registers = Arrays.copyOfRange(bytes, HEADER, bytes.length);
        for (byte r : registers) {
            if (r < 0 || r > Q + 1) {
                throw new IllegalArgumentException("register value " + r + " exceeds " + (Q + 1));
            }
        }
        return new DistinctSketch(registers);
    }

    /** Same registers: the sketches of the same set of values. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DistinctSketch s && Arrays.equals(s.registers, registers);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(registers);
    }

    @Override
    public String toString() {
        return "DistinctSketch[estimate=" + estimate() + (frozen ? ", frozen]" : "]");
    }
}
