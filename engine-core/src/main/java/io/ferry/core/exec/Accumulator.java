package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.FerryException;
import io.ferry.core.types.DoubleOrder;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * The running state of one aggregate for every group, in arrays indexed by group id. {@code add} takes a whole
 * batch (group id per row) in one loop: no per-row dispatch, no boxing.
 */
abstract class Accumulator {
    protected int capacity = 0;

    /** Adds rows; {@code v} is null for COUNT(*). */
    abstract void add(int[] groups, Vector v, int n);

    /** Adds rows of a call with a second argument ({@code v2}, null without one); one-argument kinds ignore it. */
    void add(int[] groups, Vector v, Vector v2, int n) {
        add(groups, v, n);
    }

    /**
     * Adds rows of a call with columns beyond its two arguments ({@code rest}, null without any): the keys of its
     * own ORDER BY ({@link OrderedStringAggAccumulator}), or its further arguments ({@link DistinctAccumulator}); the
     * other kinds have none.
     */
    void add(int[] groups, Vector v, Vector v2, Vector[] rest, int n) {
        add(groups, v, v2, n);
    }

    /**
     * Adds rows that all belong to group 0 ({@code groups} holds only zeros): an aggregate without GROUP BY. Sums and
     * counts override it to keep the running value in a register, where the loop over group ids stores and loads it
     * again for every row.
     */
    void addToFirstGroup(int[] groups, Vector v, Vector v2, Vector[] rest, int n) {
        add(groups, v, v2, rest, n);
    }

    /** Releases what the state holds outside the heap's arrays (the hash table of a DISTINCT call). */
    void close() {
    }

    /** What the state reserved against the query's memory beyond its columns (the hash table of a DISTINCT call). */
    long reservedBytes() {
        return 0;
    }

    abstract void ensure(int groups);

    abstract Vector result(int from, int count);

    /** Columns of state per group: 1, or more for accumulators that keep several sums ({@link Moments}). */
    int width() {
        return 1;
    }

    /** Writes the states of groups {@code from .. from + count} into {@code out[at .. at + width())}. */
    void results(int from, int count, Vector[] out, int at) {
        out[at] = result(from, count);
    }

    /** The morsel that was being added is done: under cluster sampling, a sampled unit ends here. */
    void endUnit() {
    }

    /** Whether the state of a morsel only half added is incomplete ({@link #endUnit} completes it). */
    boolean holdsUnit() {
        return false;
    }

    static int grown(int current, int needed) {
        return Math.max(needed, Math.max(1024, current * 2));
    }

    /**
     * @param inputType the argument's type, or null for COUNT(*) and APPROX_COUNT(*)
     * @param input2Type the second argument's type, or null
     */
    static Accumulator create(AggCall call, FerryType inputType, FerryType input2Type, QueryMemory memory) {
        boolean wide = (inputType != null && inputType.isWideDecimal())
                || (input2Type != null && input2Type.isWideDecimal());
        AggCall.AggKind kind = call.kind();
        if (wide && (kind == AggCall.AggKind.ROW_MOMENTS || kind == AggCall.AggKind.BLOCK_MOMENTS
                || kind == AggCall.AggKind.CO_MOMENTS || kind == AggCall.AggKind.KLL)) {
            return new WideAsDouble(create(call, asDouble(inputType), asDouble(input2Type), memory),
                    inputType == null ? 0 : inputType.scale(), input2Type == null ? 0 : input2Type.scale());
        }
        return switch (call.kind()) {
            case CO_MOMENTS -> new CoMomentsAccumulator(inputType, input2Type);
            case STRING_AGG, STRING_AGG_MERGE -> call.order().isEmpty()
                    ? new StringAggAccumulator(call.kind() == AggCall.AggKind.STRING_AGG)
                    : new OrderedStringAggAccumulator(call.order(), true);
            case ORDERED_STRING_AGG_MERGE -> new OrderedStringAggAccumulator(java.util.List.of(), false);
            case DISTINCT_SET -> new DistinctAccumulator(call.distinct(), memory);
            default -> create(call.kind(), inputType, call.type());
        };
    }

    private static FerryType asDouble(FerryType t) {
        return t != null && t.isWideDecimal() ? FerryType.DOUBLE : t;
    }

    /**
     * Moments, co-moments and sketches of wide DECIMALs: they are computed in doubles anyway, so the values are
     * converted once per batch and handed to the accumulator of DOUBLEs.
     */
    static final class WideAsDouble extends Accumulator {
        private final Accumulator inner;
        private final int scale;
        private final int scale2;

        WideAsDouble(Accumulator inner, int scale, int scale2) {
            this.inner = inner;
            this.scale = scale;
            this.scale2 = scale2;
        }

        private static Vector converted(Vector v, int scale, int n) {
            return v instanceof BytesVector b ? WideDecimal.toDoubles(b, scale, n) : v;
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            inner.add(groups, converted(v, scale, n), n);
        }

        @Override
        void add(int[] groups, Vector v, Vector v2, int n) {
            inner.add(groups, converted(v, scale, n), v2 == null ? null : converted(v2, scale2, n), n);
        }

        @Override
        long reservedBytes() {
            return inner.reservedBytes();
        }

        @Override
        void close() {
            inner.close();
        }

        @Override
        void ensure(int groups) {
            inner.ensure(groups);
        }

        @Override
        Vector result(int from, int count) {
            return inner.result(from, count);
        }

        @Override
        int width() {
            return inner.width();
        }

        @Override
        void results(int from, int count, Vector[] out, int at) {
            inner.results(from, count, out, at);
        }

        @Override
        void endUnit() {
            inner.endUnit();
        }

        @Override
        boolean holdsUnit() {
            return inner.holdsUnit();
        }
    }

    static Accumulator create(AggCall.AggKind kind, FerryType inputType, FerryType resultType) {
        Physical input = inputType == null ? Physical.LONG : inputType.physical();
        return switch (kind) {
            case COUNT -> new Count();
            case SUM, SUM0 -> input == Physical.DOUBLE ? new SumDouble(kind == AggCall.AggKind.SUM0)
                    : resultType.isWideDecimal() ? new SumWide(kind == AggCall.AggKind.SUM0, resultType)
                    : new SumLong(kind == AggCall.AggKind.SUM0, resultType);
            case MIN, MAX -> switch (input) {
                case LONG -> new MinMaxLong(kind == AggCall.AggKind.MAX);
                case DOUBLE -> new MinMaxDouble(kind == AggCall.AggKind.MAX);
                case BYTES -> new MinMaxBytes(kind == AggCall.AggKind.MAX);
            };
            case ROW_MOMENTS, BLOCK_MOMENTS -> new Moments(kind == AggCall.AggKind.BLOCK_MOMENTS, inputType);
            case VALUES -> new ValuesAccumulator(inputType != null && inputType.isWideDecimal());
            case KLL -> new KllAccumulator(inputType);
            default -> throw new IllegalArgumentException(kind + " is split into partial states before accumulation");
        };
    }

    static final class Count extends Accumulator {
        private long[] counts = new long[0];

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                counts = Arrays.copyOf(counts, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            long[] c = counts;
            boolean[] nulls = v == null ? null : v.nulls();
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    c[groups[i]]++;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    c[groups[i]] += nulls[i] ? 0 : 1;
                }
            }
        }

        @Override
        void addToFirstGroup(int[] groups, Vector v, Vector v2, Vector[] rest, int n) {
            boolean[] nulls = v == null ? null : v.nulls();
            long c = n;
            if (nulls != null) {
                for (int i = 0; i < n; i++) {
                    c -= nulls[i] ? 1 : 0;
                }
            }
            counts[0] += c;
        }

        @Override
        Vector result(int from, int count) {
            return new LongVector(Arrays.copyOfRange(counts, from, from + count), null, count);
        }
    }

    static final class SumLong extends Accumulator {
        private final boolean zeroWhenEmpty;
        private final FerryType type;
        private long[] sums = new long[0];
        private boolean[] seen = new boolean[0];

        SumLong(boolean zeroWhenEmpty, FerryType type) {
            this.zeroWhenEmpty = zeroWhenEmpty;
            this.type = type;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                sums = Arrays.copyOf(sums, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            long[] x = ((LongVector) v).values();
            long[] s = sums;
            boolean[] nulls = v.nulls();
            long overflow = 0;
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    int g = groups[i];
                    long a = s[g];
                    long r = a + x[i];
                    overflow |= (a ^ r) & (x[i] ^ r);
                    s[g] = r;
                    seen[g] = true;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    if (!nulls[i]) {
                        int g = groups[i];
                        long a = s[g];
                        long r = a + x[i];
                        overflow |= (a ^ r) & (x[i] ^ r);
                        s[g] = r;
                        seen[g] = true;
                    }
                }
            }
            if (overflow < 0) {
                throw FerryException.overflow(type.sqlName() + " (SUM)");
            }
        }

        @Override
        void addToFirstGroup(int[] groups, Vector v, Vector v2, Vector[] rest, int n) {
            long[] x = ((LongVector) v).values();
            boolean[] nulls = v.nulls();
            long a = sums[0];
            long overflow = 0;
            boolean any = false;
            for (int i = 0; i < n; i++) {
                boolean skip = nulls != null && nulls[i];
                long xi = skip ? 0 : x[i];
                long r = a + xi;
                overflow |= (a ^ r) & (xi ^ r);
                a = r;
                any |= !skip;
            }
            if (overflow < 0) {
                throw FerryException.overflow(type.sqlName() + " (SUM)");
            }
            sums[0] = a;
            seen[0] |= any;
        }

        @Override
        Vector result(int from, int count) {
            boolean[] nulls = null;
            if (!zeroWhenEmpty) {
                for (int i = 0; i < count; i++) {
                    if (!seen[from + i]) {
                        if (nulls == null) {
                            nulls = new boolean[count];
                        }
                        nulls[i] = true;
                    }
                }
            }
            return new LongVector(Arrays.copyOfRange(sums, from, from + count), nulls, count);
        }
    }

    /**
     * SUM into a wide DECIMAL (DECIMAL(38, s), the type of every DECIMAL sum, as DuckDB's): 128-bit sums of longs or
     * of wide values, two arrays of halves per group. A long input cannot pass 128 bits in fewer than 2^64 rows; a
     * wide one is checked per row, and the total against 38 digits when the result is built (22003).
     */
    static final class SumWide extends Accumulator {
        private final boolean zeroWhenEmpty;
        private final FerryType type;
        private long[] hi = new long[0];
        private long[] lo = new long[0];
        private boolean[] seen = new boolean[0];

        SumWide(boolean zeroWhenEmpty, FerryType type) {
            this.zeroWhenEmpty = zeroWhenEmpty;
            this.type = type;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                hi = Arrays.copyOf(hi, capacity);
                lo = Arrays.copyOf(lo, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void addToFirstGroup(int[] groups, Vector v, Vector v2, Vector[] rest, int n) {
            if (!(v instanceof LongVector lv)) {
                add(groups, v, n);
                return;
            }
            long[] x = lv.values();
            boolean[] nulls = v.nulls();
            if (nulls == null && n > 0) {
                // a plain long sum and the values' magnitudes in one loop the JIT can vectorize; where every
                // magnitude is below 2^(62 - log2 n), the sum cannot overflow and is added once, with its carry
                long sum = 0;
                long magnitudes = 0;
                for (int i = 0; i < n; i++) {
                    sum += x[i];
                    magnitudes |= x[i] ^ (x[i] >> 63);
                }
                if (magnitudes >>> (Long.numberOfLeadingZeros(n) - 2) == 0) {
                    long l = lo[0] + sum;
                    hi[0] += (sum >> 63) + (Long.compareUnsigned(l, sum) < 0 ? 1 : 0);
                    lo[0] = l;
                    seen[0] = true;
                    return;
                }
            }
            long h = hi[0];
            long l = lo[0];
            boolean any = false;
            for (int i = 0; i < n; i++) {
                boolean skip = nulls != null && nulls[i];
                long xi = skip ? 0 : x[i];
                long sum = l + xi;
                h += (xi >> 63) + (Long.compareUnsigned(sum, xi) < 0 ? 1 : 0);
                l = sum;
                any |= !skip;
            }
            hi[0] = h;
            lo[0] = l;
            seen[0] |= any;
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            boolean[] nulls = v.nulls();
            long[] h = hi;
            long[] l = lo;
            if (v instanceof LongVector lv) {
                long[] x = lv.values();
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        long s = l[g] + x[i];
                        h[g] += (x[i] >> 63) + (Long.compareUnsigned(s, x[i]) < 0 ? 1 : 0);
                        l[g] = s;
                        seen[g] = true;
                    }
                }
                return;
            }
            BytesVector b = (BytesVector) v;
            byte[] data = b.data();
            long overflow = 0;
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    int g = groups[i];
                    int at = b.start(i);
                    long xh = WideDecimal.hi(data, at);
                    long xl = WideDecimal.lo(data, at);
                    long s = l[g] + xl;
                    long r = h[g] + xh + (Long.compareUnsigned(s, xl) < 0 ? 1 : 0);
                    overflow |= (h[g] ^ r) & (xh ^ r);
                    h[g] = r;
                    l[g] = s;
                    seen[g] = true;
                }
            }
            if (overflow < 0) {
                throw FerryException.overflow(type.sqlName() + " (SUM)");
            }
        }

        @Override
        Vector result(int from, int count) {
            WideDecimal.Builder out = new WideDecimal.Builder(count);
            for (int i = from; i < from + count; i++) {
                if (!seen[i] && !zeroWhenEmpty) {
                    out.appendNull();
                    continue;
                }
                if (!WideDecimal.fits(hi[i], lo[i], type.precision())) {
                    throw FerryException.overflow(type.sqlName() + " (SUM)");
                }
                out.append(hi[i], lo[i]);
            }
            return out.build();
        }
    }

    static final class SumDouble extends Accumulator {
        /**
         * SUM0: 0 for a group without values. SUM's NULL there had reached a union of nullable columns as NULL
         * ({@code COALESCE(SUM(d), 0.0E0)} over no rows, planned as $SUM0: fuzzer, seed 49 query 2057).
         */
        private final boolean zeroWhenEmpty;
        private double[] sums = new double[0];
        private boolean[] seen = new boolean[0];

        SumDouble(boolean zeroWhenEmpty) {
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                sums = Arrays.copyOf(sums, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            double[] x = ((DoubleVector) v).values();
            for (int i = 0; i < n; i++) {
                if (!v.isNull(i)) {
                    sums[groups[i]] += x[i];
                    seen[groups[i]] = true;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new DoubleVector(Arrays.copyOfRange(sums, from, from + count),
                    zeroWhenEmpty ? null : unseen(seen, from, count), count);
        }
    }

    static final class MinMaxLong extends Accumulator {
        private final boolean max;
        private long[] values = new long[0];
        private boolean[] seen = new boolean[0];

        MinMaxLong(boolean max) {
            this.max = max;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                values = Arrays.copyOf(values, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            long[] x = ((LongVector) v).values();
            for (int i = 0; i < n; i++) {
                if (v.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                if (!seen[g] || (max ? DoubleOrder.greater(x[i], values[g]) : DoubleOrder.less(x[i], values[g]))) {
                    values[g] = x[i];
                    seen[g] = true;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new LongVector(Arrays.copyOfRange(values, from, from + count), unseen(seen, from, count), count);
        }
    }

    static final class MinMaxDouble extends Accumulator {
        private final boolean max;
        private double[] values = new double[0];
        private boolean[] seen = new boolean[0];

        MinMaxDouble(boolean max) {
            this.max = max;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                values = Arrays.copyOf(values, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            double[] x = ((DoubleVector) v).values();
            for (int i = 0; i < n; i++) {
                if (v.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                if (!seen[g] || (max ? DoubleOrder.greater(x[i], values[g]) : DoubleOrder.less(x[i], values[g]))) {
                    values[g] = x[i];
                    seen[g] = true;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new DoubleVector(Arrays.copyOfRange(values, from, from + count), unseen(seen, from, count), count);
        }
    }

    static final class MinMaxBytes extends Accumulator {
        private final boolean max;
        private byte[][] values = new byte[0][];

        MinMaxBytes(boolean max) {
            this.max = max;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                values = Arrays.copyOf(values, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            BytesVector b = (BytesVector) v;
            for (int i = 0; i < n; i++) {
                if (b.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                byte[] cur = values[g];
                int c = cur == null ? 0 : Arrays.compareUnsigned(b.data(), b.start(i), b.start(i) + b.length(i),
                        cur, 0, cur.length);
                if (cur == null || (max ? c > 0 : c < 0)) {
                    values[g] = b.getBytes(i);
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            BytesVector.Builder out = new BytesVector.Builder(count);
            for (int i = from; i < from + count; i++) {
                if (values[i] == null) {
                    out.appendNull();
                } else {
                    out.append(values[i]);
                }
            }
            return out.build();
        }
    }

    private static boolean[] unseen(boolean[] seen, int from, int count) {
        boolean[] nulls = null;
        for (int i = 0; i < count; i++) {
            if (!seen[from + i]) {
                if (nulls == null) {
                    nulls = new boolean[count];
                }
                nulls[i] = true;
            }
        }
        return nulls;
    }

    /**
     * The sums a sample's estimates come from ({@link io.ferry.core.stats.SampleMoments}): per group Σt, Σm, Σt², Σm², Σtm over sampled
     * units, where a unit's t is its total of the argument and m its rows with a non-NULL argument (every row for
     * APPROX_COUNT(*)). Rows are units under BERNOULLI and add straight in. Blocks are units under SYSTEM: a block's
     * rows arrive within one morsel, so they are summed per group until {@link #endUnit} squares and adds them —
     * the between-cluster variance, with no block identities kept.
     */
    static final class Moments extends Accumulator {
        private final boolean blockUnits;
        private final double unit; // what one unscaled long is worth: 10^-scale for DECIMAL
        private double[] t = new double[0];
        private double[] m = new double[0];
        private double[] tt = new double[0];
        private double[] mm = new double[0];
        private double[] tm = new double[0];
        private double[] unitT = new double[0];
        private double[] unitM = new double[0];
        private boolean[] touched = new boolean[0];
        private int[] touchedGroups = new int[0];
        private int touchedCount;
        private double[] x = new double[0];

        Moments(boolean blockUnits, FerryType inputType) {
            this.blockUnits = blockUnits;
            this.unit = inputType != null && inputType.kind() == io.ferry.core.types.TypeKind.DECIMAL
                    ? 1.0 / io.ferry.core.expr.Decimals.pow10(inputType.scale()) : 1;
        }

        @Override
        int width() {
            return 5;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                t = Arrays.copyOf(t, capacity);
                m = Arrays.copyOf(m, capacity);
                tt = Arrays.copyOf(tt, capacity);
                mm = Arrays.copyOf(mm, capacity);
                tm = Arrays.copyOf(tm, capacity);
                if (blockUnits) {
                    unitT = Arrays.copyOf(unitT, capacity);
                    unitM = Arrays.copyOf(unitM, capacity);
                    touched = Arrays.copyOf(touched, capacity);
                    touchedGroups = Arrays.copyOf(touchedGroups, capacity);
                }
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            double[] xs = values(v, n);
            boolean[] nulls = v == null ? null : v.nulls();
            if (!blockUnits) {
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        double a = xs[i];
                        t[g] += a;
                        m[g] += 1;
                        tt[g] += a * a;
                        mm[g] += 1;
                        tm[g] += a;
                    }
                }
                return;
            }
            for (int i = 0; i < n; i++) {
                if (nulls == null || !nulls[i]) {
                    int g = groups[i];
                    if (!touched[g]) {
                        touched[g] = true;
                        touchedGroups[touchedCount++] = g;
                    }
                    unitT[g] += xs[i];
                    unitM[g] += 1;
                }
            }
        }

        /** The argument as doubles in real units (1 per row for COUNT(*)): a DOUBLE column as it is, else converted. */
        private double[] values(Vector v, int n) {
            if (v instanceof DoubleVector d) {
                return d.values();
            }
            if (x.length < n) {
                x = new double[Math.max(n, Vector.MAX_ROWS)];
            }
            if (v == null) {
                Arrays.fill(x, 0, n, 1);
            } else {
                long[] longs = ((LongVector) v).values();
                for (int i = 0; i < n; i++) {
                    x[i] = longs[i] * unit;
                }
            }
            return x;
        }

        @Override
        boolean holdsUnit() {
            return blockUnits;
        }

        @Override
        void endUnit() {
            for (int k = 0; k < touchedCount; k++) {
                int g = touchedGroups[k];
                double a = unitT[g];
                double b = unitM[g];
                t[g] += a;
                m[g] += b;
                tt[g] += a * a;
                mm[g] += b * b;
                tm[g] += a * b;
                unitT[g] = 0;
                unitM[g] = 0;
                touched[g] = false;
            }
            touchedCount = 0;
        }

        @Override
        Vector result(int from, int count) {
            throw new UnsupportedOperationException("moments are " + width() + " columns: use results");
        }

        @Override
        void results(int from, int count, Vector[] out, int at) {
            endUnit();
            double[][] sums = {t, m, tt, mm, tm};
            for (int k = 0; k < sums.length; k++) {
                out[at + k] = new DoubleVector(Arrays.copyOfRange(sums[k], from, from + count), null, count);
            }
        }
    }
}
