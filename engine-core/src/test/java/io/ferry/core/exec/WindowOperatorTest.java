package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The sliding computations of {@link WindowOperator} (sums and counts added and taken away, MIN and MAX from a queue
 * of candidates, DOUBLE sums grown forwards or backwards, RANGE offsets found by moving pointers, IGNORE NULLS by
 * counting, EXCLUDE as two frames around the excluded rows) against each row's frame recomputed from scratch, over
 * random rows with NULLs and ties in every column and random frames of every shape.
 */
class WindowOperatorTest {
    private static final int ROWS = 300;
    private static final WindowFrame.BoundKind[] KINDS = WindowFrame.BoundKind.values();

    @Test
    void slidingFramesAgreeWithFramesRecomputedPerRow() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            Batch input = randomRows(rnd);
            WindowFrame frame = randomFrame(rnd);
            List<WindowCall> calls = new ArrayList<>();
            for (WindowCall.Kind kind : List.of(WindowCall.Kind.FIRST_VALUE, WindowCall.Kind.LAST_VALUE,
                    WindowCall.Kind.NTH_VALUE)) {
                long nth = kind == WindowCall.Kind.NTH_VALUE ? 1 + rnd.nextInt(4) : 0;
                calls.add(new WindowCall(kind, 2, FerryType.BIGINT, nth, -1, true));
                calls.add(new WindowCall(kind, 4, FerryType.VARCHAR, nth, -1, rnd.nextBoolean()));
            }
            for (WindowCall.Kind kind : List.of(WindowCall.Kind.COUNT, WindowCall.Kind.SUM, WindowCall.Kind.SUM0,
                    WindowCall.Kind.MIN, WindowCall.Kind.MAX, WindowCall.Kind.FIRST_VALUE,
                    WindowCall.Kind.LAST_VALUE)) {
                calls.add(new WindowCall(kind, 2, FerryType.BIGINT));
                calls.add(new WindowCall(kind, 3, kind == WindowCall.Kind.COUNT ? FerryType.BIGINT : FerryType.DOUBLE));
                if (kind != WindowCall.Kind.SUM && kind != WindowCall.Kind.SUM0) {
                    calls.add(new WindowCall(kind, 4, kind == WindowCall.Kind.COUNT ? FerryType.BIGINT
                            : FerryType.VARCHAR));
                }
            }
            calls.add(new WindowCall(WindowCall.Kind.COUNT, -1, FerryType.BIGINT));
            SortKey order = new SortKey(1, rnd.nextBoolean(), rnd.nextBoolean());
            PlanNode.Window window = new PlanNode.Window(new PlanNode.Values(List.of(FerryType.BIGINT,
                    FerryType.BIGINT, FerryType.BIGINT, FerryType.DOUBLE, FerryType.VARCHAR), input), new int[] {0},
                    List.of(order), frame, calls);
            Batch out = new WindowOperator(window, () -> { }).apply(input);
            assertEquals(ROWS, out.rowCount());
            for (int i = 0; i < ROWS; i++) {
                int[] range = frameOf(out, frame, order, i);
                List<Integer> seen = new ArrayList<>();
                for (int j = range[0]; j < range[1]; j++) {
                    boolean peer = Objects.equals(value(out.column(1), j), value(out.column(1), i));
                    boolean excluded = switch (frame.exclude()) {
                        case NO_OTHERS -> false;
                        case CURRENT_ROW -> j == i;
                        case GROUP -> peer;
                        case TIES -> peer && j != i;
                    };
                    if (!excluded) {
                        seen.add(j);
                    }
                }
                for (int k = 0; k < calls.size(); k++) {
                    WindowCall call = calls.get(k);
                    int row = i;
                    assertEquals(recomputed(call, out, seen), value(out.column(5 + k), i),
                            () -> frame + " " + call + " at row " + row);
                }
            }
        }
    }

    /**
     * LAG and LEAD whose offset is each row's own (a column: -3 to 3, or NULL) give, row by row, what the same call with
     * that row's offset as a constant gives, with and without a default and IGNORE NULLS; NULL where the offset is.
     */
    @Test
    void shiftsByEachRowsOwnOffsetAgreeWithShiftsByConstantOnes() {
        Random rnd = new Random(11);
        for (int round = 0; round < 20; round++) {
            Batch rows = randomRows(rnd);
            long[] offsets = new long[ROWS];
            boolean[] nullOffsets = new boolean[ROWS];
            for (int i = 0; i < ROWS; i++) {
                offsets[i] = rnd.nextInt(7) - 3;
                nullOffsets[i] = rnd.nextInt(10) == 0;
            }
            Vector[] columns = java.util.Arrays.copyOf(rows.columns(), 6);
            columns[5] = new LongVector(offsets, nullOffsets);
            Batch input = Batch.of(columns);
            List<FerryType> types = List.of(FerryType.BIGINT, FerryType.BIGINT, FerryType.BIGINT, FerryType.DOUBLE,
                    FerryType.VARCHAR, FerryType.BIGINT);
            WindowCall.Kind kind = rnd.nextBoolean() ? WindowCall.Kind.LAG : WindowCall.Kind.LEAD;
            boolean ignoreNulls = rnd.nextBoolean();
            int defaultArg = rnd.nextBoolean() ? 2 : -1;
            List<WindowCall> calls = new ArrayList<>();
            calls.add(new WindowCall(kind, 2, FerryType.BIGINT, 0, defaultArg, ignoreNulls, 5));
            for (long k = -3; k <= 3; k++) {
                calls.add(new WindowCall(kind, 2, FerryType.BIGINT, k, defaultArg, ignoreNulls));
            }
            PlanNode.Window window = new PlanNode.Window(new PlanNode.Values(types, input), new int[] {0},
                    List.of(new SortKey(1, false, false)), WindowFrame.RUNNING, calls);
            Batch out = new WindowOperator(window, () -> { }).apply(input);
            for (int i = 0; i < ROWS; i++) {
                Object offset = value(out.column(5), i);
                Object expected = offset == null ? null : value(out.column(7 + (int) (long) (Long) offset + 3), i);
                assertEquals(expected, value(out.column(6), i), kind + " at row " + i + ", offset " + offset);
            }
        }
    }

    /** Partition key, order key, a BIGINT, a DOUBLE (small integers: every order of addition is exact), a string. */
    private static Batch randomRows(Random rnd) {
        long[] g = new long[ROWS];
        long[] o = new long[ROWS];
        long[] b = new long[ROWS];
        double[] x = new double[ROWS];
        boolean[][] nulls = new boolean[5][ROWS];
        BytesVector.Builder s = new BytesVector.Builder(ROWS);
        for (int i = 0; i < ROWS; i++) {
            g[i] = rnd.nextInt(6);
            o[i] = rnd.nextInt(8);
            b[i] = rnd.nextInt(2001) - 1000;
            x[i] = rnd.nextInt(41) - 20;
            for (int c = 0; c < 5; c++) {
                nulls[c][i] = rnd.nextInt(8) == 0;
            }
            if (nulls[4][i]) {
                s.appendNull();
            } else {
                s.append(String.valueOf((char) ('a' + rnd.nextInt(5))).repeat(1 + rnd.nextInt(2)).getBytes());
            }
        }
        return Batch.of(new LongVector(g, nulls[0]), new LongVector(o, nulls[1]), new LongVector(b, nulls[2]),
                new DoubleVector(x, nulls[3], ROWS), s.build());
    }

    private static WindowFrame randomFrame(Random rnd) {
        while (true) {
            boolean rows = rnd.nextBoolean();
            WindowFrame.Bound lower = randomBound(rnd, rows);
            WindowFrame.Bound upper = randomBound(rnd, rows);
            if (lower.kind() != WindowFrame.BoundKind.UNBOUNDED_FOLLOWING
                    && upper.kind() != WindowFrame.BoundKind.UNBOUNDED_PRECEDING) {
                // EXCLUDE one time in two: the row, its peers, or its peers but itself
                WindowFrame.Exclude[] excludes = WindowFrame.Exclude.values();
                return new WindowFrame(rows, lower, upper).excluding(rnd.nextBoolean() ? WindowFrame.Exclude.NO_OTHERS
                        : excludes[1 + rnd.nextInt(excludes.length - 1)]);
            }
        }
    }

    private static WindowFrame.Bound randomBound(Random rnd, boolean rows) {
        WindowFrame.BoundKind kind = KINDS[rnd.nextInt(KINDS.length)];
        boolean offset = kind == WindowFrame.BoundKind.PRECEDING || kind == WindowFrame.BoundKind.FOLLOWING;
        // RANGE offsets over order keys 0 to 7: some reach past every key, one beyond BIGINT's range
        long far = rnd.nextInt(20) == 0 ? Long.MAX_VALUE : rnd.nextInt(rows ? 6 : 10);
        return new WindowFrame.Bound(kind, offset ? far : 0);
    }

    /** Row i's frame in the sorted output, found by comparing keys directly: [from, to). */
    private static int[] frameOf(Batch out, WindowFrame frame, SortKey order, int i) {
        int start = i;
        while (start > 0 && Objects.equals(value(out.column(0), start - 1), value(out.column(0), i))) {
            start--;
        }
        int end = i + 1;
        while (end < ROWS && Objects.equals(value(out.column(0), end), value(out.column(0), i))) {
            end++;
        }
        for (int j = 0; j < ROWS; j++) {
            boolean inside = j >= start && j < end;
            assertEquals(inside, Objects.equals(value(out.column(0), j), value(out.column(0), i)),
                    "a partition's rows are together");
        }
        int peerStart = i;
        while (peerStart > start && Objects.equals(value(out.column(1), peerStart - 1), value(out.column(1), i))) {
            peerStart--;
        }
        int peerEnd = i + 1;
        while (peerEnd < end && Objects.equals(value(out.column(1), peerEnd), value(out.column(1), i))) {
            peerEnd++;
        }
        int from = bound(frame.lower(), frame.rows(), i, start, end, peerStart, peerEnd, false);
        int to = bound(frame.upper(), frame.rows(), i, start, end, peerStart, peerEnd, true);
        Long key = (Long) value(out.column(1), i);
        if (!frame.rows() && key == null) {
            // a NULL key's offset bounds are its peers'
            from = offset(frame.lower()) ? peerStart : from;
            to = offset(frame.upper()) ? peerEnd : to;
        }
        if (!frame.rows() && key != null && offset(frame.lower())) {
            from = end;
            for (int j = end - 1; j >= start; j--) {
                if (withinRange(frame.lower(), order, key, (Long) value(out.column(1), j), false)) {
                    from = j;
                }
            }
        }
        if (!frame.rows() && key != null && offset(frame.upper())) {
            to = start;
            for (int j = start; j < end; j++) {
                if (withinRange(frame.upper(), order, key, (Long) value(out.column(1), j), true)) {
                    to = j + 1;
                }
            }
        }
        assertTrue(from >= start && to <= end);
        return new int[] {from, to};
    }

    private static boolean offset(WindowFrame.Bound b) {
        return b.kind() == WindowFrame.BoundKind.PRECEDING || b.kind() == WindowFrame.BoundKind.FOLLOWING;
    }

    /**
     * Whether a row with order key {@code other} is on the frame's side of a RANGE bound around {@code key}: at or
     * after the bound's value for a frame's start, at or before it for its end, in the order's direction; a NULL
     * key is where the order puts it, before or after every value. Exact arithmetic, with no overflow.
     */
    private static boolean withinRange(WindowFrame.Bound b, SortKey order, long key, Long other, boolean upper) {
        if (other == null) {
            return upper == order.nullsFirst();
        }
        boolean descending = order.descending();
        BigInteger delta = BigInteger.valueOf(b.offset());
        BigInteger target = BigInteger.valueOf(key).add((b.kind() == WindowFrame.BoundKind.PRECEDING) == descending
                ? delta : delta.negate());
        int c = BigInteger.valueOf(other).compareTo(target) * (descending ? -1 : 1);
        return upper ? c <= 0 : c >= 0;
    }

    private static int bound(WindowFrame.Bound b, boolean rows, int i, int start, int end, int peerStart,
            int peerEnd, boolean upper) {
        long at = switch (b.kind()) {
            case UNBOUNDED_PRECEDING -> start;
            case UNBOUNDED_FOLLOWING -> end;
            case CURRENT_ROW -> rows ? i + (upper ? 1 : 0) : upper ? peerEnd : peerStart;
            case PRECEDING -> i - Math.min(b.offset(), ROWS) + (upper ? 1 : 0);
            case FOLLOWING -> i + Math.min(b.offset(), ROWS) + (upper ? 1 : 0);
        };
        return (int) Math.max(start, Math.min(end, at));
    }

    private static Object recomputed(WindowCall call, Batch out, List<Integer> rows) {
        List<Object> values = new ArrayList<>();
        for (int j : rows) {
            values.add(call.arg() < 0 ? "row" : value(out.column(call.arg()), j));
        }
        List<Object> present = values.stream().filter(Objects::nonNull).toList();
        return switch (call.kind()) {
            case COUNT -> (long) present.size();
            case SUM, SUM0 -> present.isEmpty() ? (call.kind() == WindowCall.Kind.SUM0 ? zero(call) : null)
                    : present.get(0) instanceof Long ? (Object) present.stream().mapToLong(v -> (Long) v).sum()
                    : (Object) present.stream().mapToDouble(v -> (Double) v).sum();
            case MIN, MAX -> present.stream().min((a, c) -> (call.kind() == WindowCall.Kind.MAX ? -1 : 1)
                    * compare(a, c)).orElse(null);
            case FIRST_VALUE -> call.ignoreNulls() ? (present.isEmpty() ? null : present.get(0))
                    : values.isEmpty() ? null : values.get(0);
            case LAST_VALUE -> call.ignoreNulls() ? (present.isEmpty() ? null : present.get(present.size() - 1))
                    : values.isEmpty() ? null : values.get(values.size() - 1);
            case NTH_VALUE -> (call.ignoreNulls() ? present : values).size() < call.offset() ? null
                    : (call.ignoreNulls() ? present : values).get((int) call.offset() - 1);
            default -> throw new IllegalArgumentException(call.kind().name());
        };
    }

    private static Object zero(WindowCall call) {
        return call.type().equals(FerryType.DOUBLE) ? (Object) 0.0 : (Object) 0L;
    }

    @SuppressWarnings("unchecked")
    private static int compare(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }

    private static Object value(Vector v, int i) {
        if (v.isNull(i)) {
            return null;
        }
        if (v instanceof LongVector l) {
            return l.get(i);
        }
        if (v instanceof DoubleVector d) {
            return d.get(i) == 0 ? 0.0 : d.get(i);
        }
        return ((BytesVector) v).getString(i);
    }
}
