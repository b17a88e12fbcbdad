package io.ferry.core.exec;

import java.time.DateTimeException;
import java.time.LocalDate;

import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * The ends of RANGE frames with an offset ({@code RANGE BETWEEN 7 PRECEDING AND CURRENT ROW}): a row's frame holds
 * the rows whose ORDER BY value lies within the offset of its own, in the direction of the order. The sorted key
 * makes the targets ({@code v - 7}) monotone along a partition, so each end is found by a pointer that only moves
 * forward: O(rows) for any offset.
 *
 * <p>As in PostgreSQL and DuckDB: a row whose value is NULL (or NaN) has its group of peers for an offset bound, and
 * a row with a value never has NULL or NaN rows within an offset of it; an UNBOUNDED end still reaches them. Exact
 * keys are compared as 128-bit values, so a target beyond BIGINT's range is simply beyond every value (DuckDB fails
 * the statement there with an overflow).
 */
final class RangeBounds {
    private final WindowPartitions p;
    private final Vector key;
    private final boolean descending;
    private final WindowFrame.RangeUnit unit;
    /** An exact key's values as 128-bit halves, made once for both ends of the frame; null for DOUBLEs. */
    private final long[][] halves;

    /**
     * @param key        the single ORDER BY column, sorted; integers, DECIMALs (unscaled, long or wide), DATEs and
     *                   TIMESTAMPs, or DOUBLEs
     * @param unit       what the bounds' offsets count in the key's terms
     */
    RangeBounds(WindowPartitions p, Vector key, boolean descending, WindowFrame.RangeUnit unit) {
        this.p = p;
        this.key = key;
        this.descending = descending;
        this.unit = unit;
        this.halves = key instanceof DoubleVector ? null : WideDecimal.halves(key, p.rowCount());
    }

    /**
     * Writes each row's position for {@code bound} (an offset bound): the frame's first row where {@code end} is
     * false, one past its last row otherwise.
     */
    void fill(WindowFrame.Bound bound, boolean end, int[] out) {
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
                fillExact(halves, bound.offset(), add, unit, end, descending, s, e, valuesFrom, valuesTo, p, out);
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

    /**
     * Exact keys (integers, DECIMALs long or wide, DATEs, TIMESTAMPs) as 128-bit values: a key plus or minus a
     * BIGINT offset cannot overflow there.
     */
    private static void fillExact(long[][] halves, long offset, boolean add, WindowFrame.RangeUnit unit,
            boolean end, boolean descending, int s, int e, int valuesFrom, int valuesTo, WindowPartitions p,
            int[] out) {
        long[] hi = halves[0];
        long[] lo = halves[1];
        int j = valuesFrom;
        for (int i = s; i < e; i++) {
            if (i < valuesFrom || i >= valuesTo) {
                out[i] = end ? p.peerEnd(i) : p.peerStart(i);
                continue;
            }
            long targetHi;
            long targetLo;
            if (unit == WindowFrame.RangeUnit.KEY) {
                targetLo = add ? lo[i] + offset : lo[i] - offset;
                targetHi = add ? hi[i] + (Long.compareUnsigned(targetLo, lo[i]) < 0 ? 1 : 0)
                        : hi[i] - (Long.compareUnsigned(lo[i], offset) < 0 ? 1 : 0);
            } else {
                long months = add ? offset : -offset;
                try {
                    targetLo = unit == WindowFrame.RangeUnit.DATE_MONTHS ? plusMonths(lo[i], months)
                            : plusMonthsToMillis(lo[i], months);
                    targetHi = targetLo >> 63;
                } catch (DateTimeException | ArithmeticException beyondCalendar) {
                    // past any date there is: beyond every value
                    targetHi = add ? Long.MAX_VALUE : Long.MIN_VALUE;
                    targetLo = add ? -1 : 0;
                }
            }
            // the first row at or past the target (a frame's start), or past it (one beyond a frame's end)
            while (j < valuesTo) {
                int c = Long.compare(hi[j], targetHi);
                c = c != 0 ? c : Long.compareUnsigned(lo[j], targetLo);
                if (descending ? (end ? c < 0 : c <= 0) : (end ? c > 0 : c >= 0)) {
                    break;
                }
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
