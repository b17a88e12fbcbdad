package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.WideDecimal;
import io.ferry.core.vector.Vector;

/**
 * Computes a {@link PlanNode.Window} over all its input rows at once: sorts them by (partition keys, order keys)
 * with {@link Sorter}, finds the partitions and peer groups in one pass ({@link WindowPartitions}), then computes
 * each call for every row in a loop over the sorted positions. Aggregates slide over the frames, whose ends only
 * move forward along a partition: each row is added once and removed once (sums and counts), or kept in a
 * monotonic queue of candidates (MIN and MAX), so a frame of any width costs O(rows), not O(rows × width); only a
 * DOUBLE sum over a frame that moves at both ends is summed row by row ({@link #sumDouble}). Value
 * functions (MIN, MAX, FIRST_VALUE, LAST_VALUE, NTH_VALUE, LAG, LEAD) pick a row position per row and gather the
 * argument column once by those positions.
 *
 * <p>The output is the sorted input followed by one column per call: rows stay with their values, and a window
 * promises no order to the query.
 */
final class WindowOperator {
    /** Values added between cancel checks where each row's frame is summed afresh. */
    private static final int CHECK_EVERY = 1 << 20;

    private final PlanNode.Window window;
    private final Runnable check;
    private final Executor pool;

    WindowOperator(PlanNode.Window window, Runnable check) {
        this(window, check, null);
    }

    /** @param pool where half of a large sort may run ({@link Sorter#order(Batch, List, Executor)}); null: here */
    WindowOperator(PlanNode.Window window, Runnable check, Executor pool) {
        this.window = window;
        this.check = check;
        this.pool = pool;
    }

    Batch apply(Batch input) {
        int n = input.rowCount();
        List<SortKey> partitionKeys = new ArrayList<>();
        for (int k : window.partitionKeys()) {
            partitionKeys.add(new SortKey(k, false, true));
        }
        List<SortKey> all = new ArrayList<>(partitionKeys);
        all.addAll(window.orderKeys());
        Batch sorted = all.isEmpty() ? input : input.gather(Sorter.order(input, all, pool), n);
        check.run();
        WindowPartitions p = new WindowPartitions(sorted, partitionKeys, window.orderKeys());
        int[] lo = new int[n];
        int[] hi = new int[n];
        window.frame().bounds(p, sorted, window.orderKeys(), lo, hi);
        int width = sorted.columnCount();
        Vector[] out = new Vector[width + window.calls().size()];
        for (int c = 0; c < width; c++) {
            out[c] = sorted.column(c);
        }
        Excluded excluded = window.frame().exclude() == WindowFrame.Exclude.NO_OTHERS ? null
                : new Excluded(window.frame().exclude(), p, lo, hi);
        for (int k = 0; k < window.calls().size(); k++) {
            check.run();
            WindowCall call = window.calls().get(k);
            out[width + k] = excluded != null && excluded.changes(call) ? excluded.call(call, sorted)
                    : call(call, sorted, p, lo, hi);
        }
        return new Batch(n, out);
    }

    /**
     * Frames without the rows SQL's EXCLUDE takes out (the row, its peers, or its peers but itself): each row's frame
     * {@code [lo, hi)} is then the rows before the excluded ones, {@code [lo, before)}, the row itself for EXCLUDE
     * TIES, and the rows after them, {@code [after, hi)}. Both pieces' ends still only move forward along a
     * partition, so each is aggregated as a frame of its own by the sliding code above, and the pieces are combined
     * per row: O(rows) as without EXCLUDE.
     */
    private final class Excluded {
        private final int n;
        private final int[] lo;
        private final int[] hi;
        private final int[] before;
        private final int[] after;
        /** Whether the row itself is seen (EXCLUDE TIES, the row within its frame). */
        private final boolean[] self;

        Excluded(WindowFrame.Exclude exclude, WindowPartitions p, int[] lo, int[] hi) {
            this.n = lo.length;
            this.lo = lo;
            this.hi = hi;
            before = new int[n];
            after = new int[n];
            self = new boolean[n];
            boolean peers = exclude != WindowFrame.Exclude.CURRENT_ROW;
            for (int i = 0; i < n; i++) {
                int from = peers ? p.peerStart(i) : i;
                int to = peers ? p.peerEnd(i) : i + 1;
                before[i] = Math.max(lo[i], Math.min(hi[i], from));
                after[i] = Math.min(hi[i], Math.max(lo[i], to));
                self[i] = exclude == WindowFrame.Exclude.TIES && i >= lo[i] && i < hi[i];
            }
        }

        /** Whether EXCLUDE changes what {@code call} gives: only calls over frames. */
        boolean changes(WindowCall call) {
            return switch (call.kind()) {
                case COUNT, SUM, SUM0, MIN, MAX, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> true;
                default -> false;
            };
        }

        Vector call(WindowCall call, Batch rows) {
            Vector arg = call.arg() < 0 ? null : rows.column(call.arg());
            WindowFrame frame = window.frame();
            return switch (call.kind()) {
                case COUNT -> count(arg);
                case SUM, SUM0 -> sum(call, arg, frame);
                case MIN, MAX -> arg.gather(best(arg, call.kind() == WindowCall.Kind.MAX), n);
                default -> arg.gather(positions(call, arg), n);
            };
        }

        private boolean seesSelf(Vector arg, int i) {
            return self[i] && (arg == null || !arg.isNull(i));
        }

        private Vector count(Vector arg) {
            long[] a = ((LongVector) WindowOperator.count(arg, lo, before)).values();
            long[] b = ((LongVector) WindowOperator.count(arg, after, hi)).values();
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = a[i] + b[i] + (seesSelf(arg, i) ? 1 : 0);
            }
            return new LongVector(out, null, n);
        }

        private Vector sum(WindowCall call, Vector arg, WindowFrame frame) {
            long[] a = ((LongVector) WindowOperator.count(arg, lo, before)).values();
            long[] b = ((LongVector) WindowOperator.count(arg, after, hi)).values();
            boolean[] nulls = null;
            if (call.kind() == WindowCall.Kind.SUM) {
                for (int i = 0; i < n; i++) {
                    if (a[i] + b[i] == 0 && !seesSelf(arg, i)) {
                        if (nulls == null) {
                            nulls = new boolean[n];
                        }
                        nulls[i] = true;
                    }
                }
            }
            if (arg instanceof DoubleVector d) {
                double[] x = d.values();
                double[] sa = ((DoubleVector) sumDouble(d, true, lo, before, frame.startsAtPartition(), false))
                        .values();
                double[] sb = ((DoubleVector) sumDouble(d, true, after, hi, false, frame.endsAtPartition()))
                        .values();
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    double sum = sa[i] + (seesSelf(arg, i) ? x[i] : 0.0) + sb[i];
                    out[i] = sum == 0 ? 0.0 : sum;
                }
                return new DoubleVector(out, nulls, n);
            }
            FerryType type = call.type();
            if (type.isWideDecimal()) {
                long[][] x = WideDecimal.halves(arg, arg.size());
                long[][] sa = WideDecimal.halves(sumWide(arg, true, type, lo, before), n);
                long[][] sb = WideDecimal.halves(sumWide(arg, true, type, after, hi), n);
                long[] outHi = new long[n];
                long[] outLo = new long[n];
                for (int i = 0; i < n; i++) {
                    long l = sa[1][i] + sb[1][i];
                    long h = sa[0][i] + sb[0][i] + (Long.compareUnsigned(l, sa[1][i]) < 0 ? 1 : 0);
                    if (seesSelf(arg, i)) {
                        long l2 = l + x[1][i];
                        h = h + x[0][i] + (Long.compareUnsigned(l2, l) < 0 ? 1 : 0);
                        l = l2;
                    }
                    if ((nulls == null || !nulls[i]) && !WideDecimal.fits(h, l, type.precision())) {
                        throw FerryException.overflow(type.sqlName() + " (SUM)");
                    }
                    outHi[i] = h;
                    outLo[i] = l;
                }
                return WideDecimal.of(outHi, outLo, nulls, n);
            }
            long[] x = ((LongVector) arg).values();
            long[] sa = ((LongVector) sumLong((LongVector) arg, true, type, lo, before)).values();
            long[] sb = ((LongVector) sumLong((LongVector) arg, true, type, after, hi)).values();
            long[] out = new long[n];
            try {
                for (int i = 0; i < n; i++) {
                    out[i] = Math.addExact(Math.addExact(sa[i], sb[i]), seesSelf(arg, i) ? x[i] : 0);
                }
            } catch (ArithmeticException e) {
                throw FerryException.overflow(type.sqlName() + " (SUM)");
            }
            return new LongVector(out, nulls, n);
        }

        /** MIN or MAX: the better of the pieces' best rows and the row itself. */
        private int[] best(Vector arg, boolean max) {
            int[] a = WindowOperator.best(arg, max, lo, before);
            int[] b = WindowOperator.best(arg, max, after, hi);
            Sorter.RowComparator cmp = Sorter.keyComparator(arg, new SortKey(0, max, false));
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                int best = a[i];
                if (seesSelf(arg, i) && (best < 0 || cmp.compare(i, best) < 0)) {
                    best = i;
                }
                if (b[i] >= 0 && (best < 0 || cmp.compare(b[i], best) < 0)) {
                    best = b[i];
                }
                out[i] = best;
            }
            return out;
        }

        /** FIRST_VALUE, LAST_VALUE, NTH_VALUE: the k-th row the frame shows (with a value, IGNORE NULLS), or -1. */
        private int[] positions(WindowCall call, Vector arg) {
            NonNullRows values = call.ignoreNulls() ? new NonNullRows(arg) : null;
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                long first = size(values, lo[i], before[i]);
                long mine = self[i] && (values == null || !arg.isNull(i)) ? 1 : 0;
                long total = first + mine + size(values, after[i], hi[i]);
                long k = switch (call.kind()) {
                    case FIRST_VALUE -> 0;
                    case LAST_VALUE -> total - 1;
                    default -> call.offset() - 1;
                };
                if (k < 0 || k >= total) {
                    out[i] = -1;
                } else if (k < first) {
                    out[i] = kth(values, lo[i], k);
                } else if (k < first + mine) {
                    out[i] = i;
                } else {
                    out[i] = kth(values, after[i], k - first - mine);
                }
            }
            return out;
        }

        /** The rows of {@code [from, to)} a call sees: all, or those with a value. */
        private static long size(NonNullRows values, int from, int to) {
            if (to <= from) {
                return 0;
            }
            return values == null ? to - from : values.count(from, to);
        }

        /** The {@code k}-th row seen from {@code from} on (k below what {@link #size} says is there). */
        private static int kth(NonNullRows values, int from, long k) {
            return values == null ? (int) (from + k) : values.kth(from, k);
        }
    }

    private Vector call(WindowCall call, Batch rows, WindowPartitions p, int[] lo, int[] hi) {
        Vector arg = call.arg() < 0 ? null : rows.column(call.arg());
        return switch (call.kind()) {
            case ROW_NUMBER, RANK, DENSE_RANK -> ranks(call.kind(), p);
            case PERCENT_RANK, CUME_DIST -> distribution(call.kind() == WindowCall.Kind.CUME_DIST, p);
            case COUNT -> count(arg, lo, hi);
            case SUM, SUM0 -> arg instanceof DoubleVector d ? sumDouble(d, call.kind() == WindowCall.Kind.SUM0, lo,
                    hi, window.frame().startsAtPartition(), window.frame().endsAtPartition()) : call.type().isWideDecimal() ? sumWide(arg, call.kind() == WindowCall.Kind.SUM0, call.type(),
                    lo, hi) : sumLong((LongVector) arg, call.kind() == WindowCall.Kind.SUM0, call.type(), lo, hi);
            case MIN, MAX -> arg.gather(best(arg, call.kind() == WindowCall.Kind.MAX, lo, hi), lo.length);
            case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> arg.gather(call.ignoreNulls()
                    ? new NonNullRows(arg).inFrames(call, lo, hi) : inFrames(call, lo, hi), lo.length);
            case LAG, LEAD -> shifted(call, arg, rows, p);
        };
    }

    private static Vector ranks(WindowCall.Kind kind, WindowPartitions p) {
        int n = p.rowCount();
        int[] ps = p.partitionStarts();
        int[] peers = p.peerStarts();
        long[] out = new long[n];
        switch (kind) {
            case ROW_NUMBER -> {
                for (int i = 0; i < n; i++) {
                    out[i] = i - ps[i] + 1;
                }
            }
            case RANK -> {
                for (int i = 0; i < n; i++) {
                    out[i] = peers[i] - ps[i] + 1;
                }
            }
            default -> {
                long dense = 0;
                for (int i = 0; i < n; i++) {
                    dense = i == ps[i] ? 1 : dense + (peers[i] == i ? 1 : 0);
                    out[i] = dense;
                }
            }
        }
        return new LongVector(out, null, n);
    }

    /** PERCENT_RANK: (rank - 1) / (rows - 1), 0 alone; CUME_DIST: rows up to the last peer / rows. */
    private static Vector distribution(boolean cumulative, WindowPartitions p) {
        int n = p.rowCount();
        int[] ps = p.partitionStarts();
        int[] pe = p.partitionEnds();
        int[] peers = cumulative ? p.peerEnds() : p.peerStarts();
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double size = pe[i] - ps[i];
            out[i] = cumulative ? (peers[i] - ps[i]) / size : size == 1 ? 0 : (peers[i] - ps[i]) / (size - 1);
        }
        return new DoubleVector(out, null, n);
    }

    /** COUNT over each frame: rows that enter add one, rows that leave take one away. */
    private static Vector count(Vector arg, int[] lo, int[] hi) {
        int n = lo.length;
        boolean[] nulls = arg == null ? null : arg.nulls();
        long[] out = new long[n];
        long count = 0;
        int from = 0;
        int to = 0;
        for (int i = 0; i < n; i++) {
            int l = lo[i];
            int h = Math.max(hi[i], l);
            if (l >= to) {
                from = l;
                to = l;
                count = 0;
            }
            for (; from < l; from++) {
                count -= nulls == null || !nulls[from] ? 1 : 0;
            }
            for (; to < h; to++) {
                count += nulls == null || !nulls[to] ? 1 : 0;
            }
            out[i] = count;
        }
        return new LongVector(out, null, n);
    }

    /**
     * SUM of integers or DECIMALs over each frame, overflow-checked as Ferry's aggregate is (22003). A frame that
     * slides subtracts the rows it leaves before it adds the ones it gains.
     */
    private static Vector sumLong(LongVector arg, boolean zeroWhenEmpty, FerryType type, int[] lo, int[] hi) {
        int n = lo.length;
        long[] x = arg.values();
        boolean[] nulls = arg.nulls();
        long[] out = new long[n];
        boolean[] outNulls = null;
        long sum = 0;
        long count = 0;
        int from = 0;
        int to = 0;
        try {
            for (int i = 0; i < n; i++) {
                int l = lo[i];
                int h = Math.max(hi[i], l);
                if (l >= to) {
                    from = l;
                    to = l;
                    sum = 0;
                    count = 0;
                }
                for (; from < l; from++) {
                    if (nulls == null || !nulls[from]) {
                        sum = Math.subtractExact(sum, x[from]);
                        count--;
                    }
                }
                for (; to < h; to++) {
                    if (nulls == null || !nulls[to]) {
                        sum = Math.addExact(sum, x[to]);
                        count++;
                    }
                }
                out[i] = sum;
                if (count == 0 && !zeroWhenEmpty) {
                    if (outNulls == null) {
                        outNulls = new boolean[n];
                    }
                    outNulls[i] = true;
                }
            }
        } catch (ArithmeticException e) {
            throw FerryException.overflow(type.sqlName() + " (SUM)");
        }
        return new LongVector(out, outNulls, n);
    }

    /**
     * SUM of DECIMALs into a wide DECIMAL (a DECIMAL's SUM is DECIMAL(38, s)): as {@link #sumLong}, in 128 bits,
     * each frame's sum checked against the type's 38 digits. Sums of values below 10^38 cannot wrap 128 bits on the
     * way between two frames of fewer than 2^33 rows.
     */
    private static Vector sumWide(Vector arg, boolean zeroWhenEmpty, FerryType type, int[] lo, int[] hi) {
        int n = lo.length;
        long[][] x = WideDecimal.halves(arg, arg.size());
        long[] xh = x[0];
        long[] xl = x[1];
        boolean[] nulls = arg.nulls();
        long[] outHi = new long[n];
        long[] outLo = new long[n];
        boolean[] outNulls = null;
        long sh = 0;
        long sl = 0;
        long count = 0;
        int from = 0;
        int to = 0;
        for (int i = 0; i < n; i++) {
            int l = lo[i];
            int h = Math.max(hi[i], l);
            if (l >= to) {
                from = l;
                to = l;
                sh = 0;
                sl = 0;
                count = 0;
            }
            for (; from < l; from++) {
                if (nulls == null || !nulls[from]) {
                    long d = sl - xl[from];
                    sh = sh - xh[from] - (Long.compareUnsigned(sl, xl[from]) < 0 ? 1 : 0);
                    sl = d;
                    count--;
                }
            }
            for (; to < h; to++) {
                if (nulls == null || !nulls[to]) {
                    long s = sl + xl[to];
                    sh = sh + xh[to] + (Long.compareUnsigned(s, xl[to]) < 0 ? 1 : 0);
                    sl = s;
                    count++;
                }
            }
            if (count == 0 && !zeroWhenEmpty) {
                if (outNulls == null) {
                    outNulls = new boolean[n];
                }
                outNulls[i] = true;
                continue;
            }
            if (!WideDecimal.fits(sh, sl, type.precision())) {
                throw FerryException.overflow(type.sqlName() + " (SUM)");
            }
            outHi[i] = sh;
            outLo[i] = sl;
        }
        return WideDecimal.of(outHi, outLo, outNulls, n);
    }

    /**
     * SUM of DOUBLEs. A frame that only grows along its partition (from the partition's first row) adds rows as it
     * reaches them, in order; one that only shrinks (to the partition's last row) is the same seen from the end, added
     * backwards; any other frame is summed afresh, since subtracting what leaves would carry the rounding of values
     * long gone (1e300 leaving a frame would take the 1 added after it along).
     */
    private Vector sumDouble(DoubleVector arg, boolean zeroWhenEmpty, int[] lo, int[] hi, boolean startsAtPartition,
            boolean endsAtPartition) {
        int n = lo.length;
        double[] x = arg.values();
        boolean[] nulls = arg.nulls();
        double[] sums = new double[n];
        long[] counts = new long[n];
        if (startsAtPartition) {
            double sum = 0;
            long count = 0;
            int to = 0;
            for (int i = 0; i < n; i++) {
                int h = Math.max(hi[i], lo[i]);
                if (i == 0 || lo[i] != lo[i - 1]) {
                    to = lo[i];
                    sum = 0;
                    count = 0;
                }
                for (; to < h; to++) {
                    if (nulls == null || !nulls[to]) {
                        sum += x[to];
                        count++;
                    }
                }
                sums[i] = sum;
                counts[i] = count;
            }
        } else if (endsAtPartition) {
            double sum = 0;
            long count = 0;
            int from = n;
            for (int i = n - 1; i >= 0; i--) {
                int l = Math.min(lo[i], hi[i]);
                if (i == n - 1 || hi[i] != hi[i + 1]) {
                    from = hi[i];
                    sum = 0;
                    count = 0;
                }
                while (from > l) {
                    from--;
                    if (nulls == null || !nulls[from]) {
                        sum += x[from];
                        count++;
                    }
                }
                sums[i] = sum;
                counts[i] = count;
            }
        } else {
            long work = 0;
            for (int i = 0; i < n; i++) {
                double sum = 0;
                long count = 0;
                for (int j = lo[i]; j < hi[i]; j++) {
                    if (nulls == null || !nulls[j]) {
                        sum += x[j];
                        count++;
                    }
                }
                sums[i] = sum;
                counts[i] = count;
                work += Math.max(1, hi[i] - lo[i]);
                if (work >= CHECK_EVERY) {
                    check.run();
                    work = 0;
                }
            }
        }
        boolean[] outNulls = null;
        for (int i = 0; i < n; i++) {
            sums[i] = sums[i] == 0 ? 0.0 : sums[i]; // -0.0 + 0.0: SQL shows a zero sum unsigned
            if (counts[i] == 0 && !zeroWhenEmpty) {
                if (outNulls == null) {
                    outNulls = new boolean[n];
                }
                outNulls[i] = true;
            }
        }
        return new DoubleVector(sums, outNulls, n);
    }

    /**
     * The position of each frame's least (or greatest) non-NULL value, or -1: a queue of the frame's candidates in
     * position order whose values fall (MAX) or rise (MIN) from the front, so the front is the answer; a row that
     * enters removes the candidates it beats, and the front leaves when the frame moves past it.
     */
    private static int[] best(Vector arg, boolean max, int[] lo, int[] hi) {
        int n = lo.length;
        Sorter.RowComparator cmp = Sorter.keyComparator(arg, new SortKey(0, max, false));
        boolean[] nulls = arg.nulls();
        int[] queue = new int[n];
        int[] out = new int[n];
        int head = 0;
        int tail = 0;
        int to = 0;
        for (int i = 0; i < n; i++) {
            int l = lo[i];
            int h = Math.max(hi[i], l);
            if (l >= to) {
                head = 0;
                tail = 0;
                to = l;
            }
            for (; to < h; to++) {
                if (nulls != null && nulls[to]) {
                    continue;
                }
                // comparator orders best first: drop candidates that are no better than the row entering
                while (tail > head && cmp.compare(queue[tail - 1], to) >= 0) {
                    tail--;
                }
                queue[tail++] = to;
            }
            while (head < tail && queue[head] < l) {
                head++;
            }
            out[i] = head < tail ? queue[head] : -1;
        }
        return out;
    }

    /** FIRST_VALUE, LAST_VALUE, NTH_VALUE: the position of each frame's row, -1 where the frame has no such row. */
    private static int[] inFrames(WindowCall call, int[] lo, int[] hi) {
        int[] out = new int[lo.length];
        for (int i = 0; i < out.length; i++) {
            long at = switch (call.kind()) {
                case FIRST_VALUE -> lo[i];
                case LAST_VALUE -> hi[i] - 1L;
                default -> lo[i] + call.offset() - 1;
            };
            out[i] = at >= lo[i] && at < hi[i] ? (int) at : -1;
        }
        return out;
    }

    /**
     * The rows whose value is not NULL, for IGNORE NULLS: their positions in order, and how many come before each
     * row, so that the k-th of them in a frame or before a row is found in O(1).
     */
    private static final class NonNullRows {
        private final int[] positions;
        private final int[] before;

        NonNullRows(Vector arg) {
            int n = arg.size();
            before = new int[n + 1];
            int[] found = new int[n];
            int count = 0;
            for (int i = 0; i < n; i++) {
                before[i] = count;
                if (!arg.isNull(i)) {
                    found[count++] = i;
                }
            }
            before[n] = count;
            positions = found;
        }

        /** The non-NULL rows in {@code [from, to)}. */
        long count(int from, int to) {
            return before[to] - before[from];
        }

        /** The {@code k}-th non-NULL row from row {@code from} on (there must be one). */
        int kth(int from, long k) {
            return positions[(int) (before[from] + k)];
        }

        /** The {@code k}-th non-NULL row (from 0) if it lies in {@code [from, to)}, else -1. */
        private int at(long k, int from, int to) {
            if (k < 0 || k >= before[before.length - 1]) {
                return -1;
            }
            int p = positions[(int) k];
            return p >= from && p < to ? p : -1;
        }

        int[] inFrames(WindowCall call, int[] lo, int[] hi) {
            int[] out = new int[lo.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = switch (call.kind()) {
                    case FIRST_VALUE -> at(before[lo[i]], lo[i], hi[i]);
                    case LAST_VALUE -> at(before[hi[i]] - 1L, lo[i], hi[i]);
                    default -> at(before[lo[i]] + call.offset() - 1, lo[i], hi[i]);
                };
            }
            return out;
        }

        /** The non-NULL row {@code step} such rows after row {@code i} (before it where negative), in its partition. */
        int shifted(int i, long step, int partitionStart, int partitionEnd) {
            if (step == 0) {
                return i;
            }
            return at(step > 0 ? before[i + 1] + step - 1 : before[i] + step, partitionStart, partitionEnd);
        }
    }

    /**
     * LAG and LEAD: the value {@code offset} rows back or ahead in the partition (rows with a value, IGNORE NULLS),
     * else the default (or NULL). An offset read from a column is each row's own; where it is NULL, so is the value.
     */
    private static Vector shifted(WindowCall call, Vector arg, Batch rows, WindowPartitions p) {
        int n = p.rowCount();
        long sign = call.kind() == WindowCall.Kind.LAG ? -1 : 1;
        LongVector offsets = call.offsetArg() < 0 ? null : (LongVector) rows.column(call.offsetArg());
        long constant = call.offset();
        int[] ps = p.partitionStarts();
        int[] pe = p.partitionEnds();
        int[] at = new int[n];
        boolean outside = false;
        boolean[] nullOffset = null;
        NonNullRows nonNull = call.ignoreNulls() ? new NonNullRows(arg) : null;
        for (int i = 0; i < n; i++) {
            if (offsets != null && offsets.isNull(i)) {
                if (nullOffset == null) {
                    nullOffset = new boolean[n];
                }
                nullOffset[i] = true;
                at[i] = -1;
                continue;
            }
            // clamped so that i + step cannot wrap: no partition is longer than an int anyway
            long offset = Math.max(-Integer.MAX_VALUE, Math.min(Integer.MAX_VALUE,
                    offsets == null ? constant : offsets.get(i)));
            long step = sign * offset;
            long j = i + step;
            at[i] = nonNull != null ? nonNull.shifted(i, step, ps[i], pe[i])
                    : j >= ps[i] && j < pe[i] ? (int) j : -1;
            outside |= at[i] < 0;
        }
        Vector values = arg.gather(at, n);
        if (call.defaultArg() >= 0 && outside) {
            values = withDefaults(values, at, rows.column(call.defaultArg()), nullOffset);
        }
        return values;
    }

    /**
     * {@code values}, with {@code defaults}' value in the rows where {@code at} is -1 but for those whose offset was
     * NULL ({@code nullOffset}, null if none), which stay NULL.
     */
    private static Vector withDefaults(Vector values, int[] at, Vector defaults, boolean[] nullOffset) {
        int n = at.length;
        boolean[] nulls = null;
        for (int i = 0; i < n; i++) {
            if ((nullOffset != null && nullOffset[i]) || (at[i] < 0 ? defaults.isNull(i) : values.isNull(i))) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            }
        }
        if (values instanceof LongVector v) {
            long[] out = v.values().clone();
            long[] d = ((LongVector) defaults).values();
            for (int i = 0; i < n; i++) {
                out[i] = at[i] < 0 ? d[i] : out[i];
            }
            return new LongVector(out, nulls, n);
        }
        if (values instanceof DoubleVector v) {
            double[] out = v.values().clone();
            double[] d = ((DoubleVector) defaults).values();
            for (int i = 0; i < n; i++) {
                out[i] = at[i] < 0 ? d[i] : out[i];
            }
            return new DoubleVector(out, nulls, n);
        }
        BytesVector v = (BytesVector) values;
        BytesVector d = (BytesVector) defaults;
        BytesVector.Builder out = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            BytesVector from = at[i] < 0 ? d : v;
            if (nulls != null && nulls[i]) {
                out.appendNull();
            } else {
                out.append(from.data(), from.start(i), from.length(i));
            }
        }
        return out.build();
    }
}
