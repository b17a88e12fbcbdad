package io.ferry.core.exec;

import java.time.LocalDate;

import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The ends of RANGE frames with an offset ({@code RANGE BETWEEN 7 PRECEDING AND CURRENT ROW}): a row's frame holds
 * the rows whose ORDER BY value lies within the offset of its own, in the direction of the order. The sorted key
 * makes the targets ({@code v - 7}) monotone along a partition, so each end is found by a pointer that only moves
 * forward: O(rows) for any offset.
 *
 * <p>As in PostgreSQL and DuckDB: a row whose value is NULL (or NaN) has its group of peers for an offset bound, and
 * a row with a value never has NULL or NaN rows within an offset of it; an UNBOUNDED end still reaches them. A
 * target beyond BIGINT's range is beyond every value (DuckDB fails the statement there with an overflow).
 */
final class RangeBounds {
    private RangeBounds() {
    }

    /**
     * Writes each row's position for {@code bound} (an offset bound): the frame's first row where {@code end} is
     * false, one past its last row otherwise.
     *
     * @param key the single ORDER BY column, sorted; integers, DECIMALs (unscaled), DATEs and TIMESTAMPs as longs,
     *            DOUBLEs as doubles
     * @param unit what the bound's offset counts in the key's terms
     */
    static void fill(WindowFrame.Bound bound, boolean end, WindowPartitions p, Vector key, boolean descending,
            WindowFrame.RangeUnit unit, int[] out) {
        // asc: PRECEDING subtracts, FOLLOWING adds; desc the other way around
        boolean add = (bound.kind() == WindowFrame.BoundKind.PRECEDING) == descending;
        int n = p.rowCount();
        for (int s = 0; s < n; s = p.partitionEnd(s)) {
            int e = p.partitionEnd(s);
            int valuesFrom = s;
            while (valuesFrom < e && missing(key, valuesFrom)) {
                valuesFrom++;
            }
            int valuesTo = e;
            while (valuesTo > valuesFrom && missing(key, valuesTo - 1)) {
                valuesTo--;
            }
            if (key instanceof DoubleVector d) {
                fillDouble(d.values(), add ? bound.realOffset() : -bound.realOffset(), end, descending, s, e,
                        valuesFrom, valuesTo, p, out);
            } else {
                fillLong(((LongVector) key).values(), bound.offset(), add, unit, end, descending, s, e, valuesFrom,
                        valuesTo, p, out);
            }
        }
    }

    private static boolean missing(Vector key, int i) {
        return key.isNull(i) || (key instanceof DoubleVector d && Double.isNaN(d.get(i)));
    }

    private static void fillDouble(double[] v, double offset, boolean end, boolean descending, int s, int e,
            int valuesFrom, int valuesTo, WindowPartitions p, int[] out) {
        int j = valuesFrom;
        for (int i = s; i < e; i++) {
            if (i < valuesFrom || i >= valuesTo) {
                out[i] = end ? p.peerEnd(i) : p.peerStart(i);
                continue;
            }
            double target = v[i] + offset;
            // the first row at or past the target (a frame's start), or past it (one beyond a frame's end)
            while (j < valuesTo && (descending ? (end ? v[j] >= target : v[j] > target)
                    : (end ? v[j] <= target : v[j] < target))) {
                j++;
            }
            out[i] = j;
        }
    }

    private static void fillLong(long[] v, long offset, boolean add, WindowFrame.RangeUnit unit, boolean end,
            boolean descending, int s, int e, int valuesFrom, int valuesTo, WindowPartitions p, int[] out) {
        int j = valuesFrom;
        for (int i = s; i < e; i++) {
            if (i < valuesFrom || i >= valuesTo) {
                out[i] = end ? p.peerEnd(i) : p.peerStart(i);
                continue;
            }
            long target;
            switch (unit) {
                case DATE_MONTHS -> target = plusMonths(v[i], add ? offset : -offset);
                case TIMESTAMP_MONTHS -> target = plusMonthsToMillis(v[i], add ? offset : -offset);
                default -> {
                    target = add ? v[i] + offset : v[i] - offset;
                    boolean overflow = add ? ((v[i] ^ target) & (offset ^ target)) < 0
                            : ((v[i] ^ offset) & (v[i] ^ target)) < 0;
                    if (overflow) {
                        // beyond every value: past the partition's values one way, before them the other
                        out[i] = add != descending ? valuesTo : Math.max(j, valuesFrom);
                        if (add != descending) {
                            j = valuesTo;
                        }
                        continue;
                    }
                }
            }
            while (j < valuesTo && (descending ? (end ? v[j] >= target : v[j] > target)
                    : (end ? v[j] <= target : v[j] < target))) {
                j++;
            }
            out[i] = j;
        }
    }

    private static final long MILLIS_PER_DAY = 86_400_000L;

    /** Calendar months added to a DATE (days), the day clamped to the month's end (Jan 31 + 1 month: Feb 29). */
    private static long plusMonths(long epochDay, long months) {
        return LocalDate.ofEpochDay(epochDay).plusMonths(months).toEpochDay();
    }

    /** Calendar months added to a TIMESTAMP (milliseconds), its time of day kept. */
    private static long plusMonthsToMillis(long epochMillis, long months) {
        return plusMonths(Math.floorDiv(epochMillis, MILLIS_PER_DAY), months) * MILLIS_PER_DAY
                + Math.floorMod(epochMillis, MILLIS_PER_DAY);
    }
}
