package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.Evaluator;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.ExprCompiler;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.PendingColumn;

/**
 * One step of a filter: writes the positions of the rows that pass into an array and returns how many did.
 *
 * <p>Comparisons of an integral column with constants ({@code lo_discount BETWEEN 1 AND 3}, {@code lo_quantity <
 * 25}) are merged per column into one inclusive range and tested by a branch-free loop that writes positions
 * directly: no 0/1 result vector, no mask. Other conjuncts are evaluated and keep the rows where they are TRUE.
 * An IN list of integral constants is tested against a bitmap ({@link KeySet}). Ranges run first, as they are
 * cheapest, then IN lists; the executor narrows the batch between steps, so later steps see only surviving rows
 * (and decode only their columns' surviving values).
 */
abstract class RowSelector {
    /** Writes the positions (into {@code b}) of passing rows to {@code out}; returns their number. */
    abstract int select(Batch b, int[] out);

    /** The steps for a filter with the given conjuncts (AND already flattened). */
    static List<RowSelector> forConjuncts(List<Expr> conjuncts) {
        Map<Integer, long[]> ranges = new LinkedHashMap<>();
        List<RowSelector> rest = new ArrayList<>();
        List<RowSelector> sets = new ArrayList<>();
        for (Expr e : conjuncts) {
            RowSelector set = KeySet.of(e);
            if (set != null) {
                sets.add(set);
            } else if (!mergeRange(e, ranges)) {
                rest.add(new Evaluated(ExprCompiler.compile(e)));
            }
        }
        List<RowSelector> out = new ArrayList<>();
        ranges.forEach((column, r) -> out.add(new Range(column, r[0], r[1])));
        out.addAll(sets);
        out.addAll(rest);
        return out;
    }

    /** Folds {@code column op constant} on an integral column into that column's range; false if e is not one. */
    private static boolean mergeRange(Expr e, Map<Integer, long[]> ranges) {
        if (!(e instanceof Call c) || c.args().size() != 2) {
            return false;
        }
        Op op = c.op();
        Expr left = c.args().get(0);
        Expr right = c.args().get(1);
        if (left instanceof Literal && right instanceof InputRef) {
            Expr t = left;
            left = right;
            right = t;
            op = op.swapped();
        }
        if (!(left instanceof InputRef ref) || !(right instanceof Literal lit) || lit.value() == null
                || ref.type().physical() != Physical.LONG || lit.type().physical() != Physical.LONG) {
            return false;
        }
        long v = (Long) lit.value();
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        switch (op) {
            case EQ -> lo = hi = v;
            case GE -> lo = v;
            case LE -> hi = v;
            case GT -> {
                if (v == Long.MAX_VALUE) {
                    hi = Long.MIN_VALUE;
                    lo = Long.MAX_VALUE;
                } else {
                    lo = v + 1;
                }
            }
            case LT -> {
                if (v == Long.MIN_VALUE) {
                    hi = Long.MIN_VALUE;
                    lo = Long.MAX_VALUE;
                } else {
                    hi = v - 1;
                }
            }
            default -> {
                return false;
            }
        }
        long[] r = ranges.computeIfAbsent(ref.index(), k -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        r[0] = Math.max(r[0], lo);
        r[1] = Math.min(r[1], hi);
        return true;
    }

    /**
     * The rows of {@code column} in the range (and, with {@code bits}, the key set) tested where a scan's block holds
     * them ({@link PendingColumn#select}), or -1 where the column is made already or cannot be tested so.
     */
    private static int onBlock(Batch b, int column, long lo, long span, long[] bits, int[] out) {
        PendingColumn pending = b.pendingColumn(column);
        return pending == null ? -1 : pending.select(lo, span, bits, out);
    }

    /** {@code lo <= column <= hi}; NULL never passes. */
    private static final class Range extends RowSelector {
        private final int column;
        private final long lo;
        private final long span;
        private final boolean empty;

        Range(int column, long lo, long hi) {
            this.column = column;
            this.lo = lo;
            this.span = hi - lo;
            this.empty = hi < lo;
        }

        @Override
        int select(Batch b, int[] out) {
            if (empty) {
                return 0;
            }
            int selected = onBlock(b, column, lo, span, null, out);
            if (selected >= 0) {
                return selected;
            }
            int n = b.rowCount();
            LongVector v = (LongVector) b.column(column);
            long[] x = v.values();
            boolean[] nulls = v.nulls();
            int c = 0;
            // x - lo, compared unsigned against hi - lo: one test for both bounds, and no branch per row.
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    out[c] = i;
                    c += Long.compareUnsigned(x[i] - lo, span) <= 0 ? 1 : 0;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    out[c] = i;
                    // & and not &&: a short-circuit is a branch, mispredicted on every other row of a filter
                    // that keeps half of them
                    c += (Long.compareUnsigned(x[i] - lo, span) <= 0 ? 1 : 0) & (nulls[i] ? 0 : 1);
                }
            }
            return c;
        }
    }

    /**
     * {@code column IN (c1, c2, …)} over integral constants, none NULL (a hash join's build keys pushed to the scan
     * of its probe side, {@link JoinKeyRanges}, or a user's IN list): each row's value tested against a bitmap of the
     * constants' range, one bit per value, where that range spans at most {@link #MAX_BITS} values, and by binary
     * search otherwise; NULL never passes.
     */
    private static final class KeySet extends RowSelector {
        static final long MAX_BITS = 1L << 23;

        private final int column;
        private final long lo;
        private final long span;
        /** Bit {@code v - lo} set for each constant v; null where the range is too wide. */
        private final long[] bits;
        private final long[] sorted;

        private KeySet(int column, long[] sorted) {
            this.column = column;
            this.sorted = sorted;
            this.lo = sorted[0];
            this.span = sorted[sorted.length - 1] - lo;
            if (Long.compareUnsigned(span, MAX_BITS) < 0) {
                bits = new long[(int) (span >>> 6) + 1];
                for (long v : sorted) {
                    bits[(int) ((v - lo) >>> 6)] |= 1L << (v - lo);
                }
            } else {
                bits = null;
            }
        }

        /** The selector for {@code e}, or null if it is not such an IN. */
        static RowSelector of(Expr e) {
            if (!(e instanceof Call c) || c.op() != Op.IN || c.args().size() < 2
                    || !(c.args().get(0) instanceof InputRef ref) || ref.type().physical() != Physical.LONG) {
                return null;
            }
            long[] values = new long[c.args().size() - 1];
            for (int i = 1; i < c.args().size(); i++) {
                if (!(c.args().get(i) instanceof Literal lit) || !(lit.value() instanceof Long v)) {
                    return null;
                }
                values[i - 1] = v;
            }
            Arrays.sort(values);
            return new KeySet(ref.index(), values);
        }

        @Override
        int select(Batch b, int[] out) {
            int selected = bits == null ? -1 : onBlock(b, column, lo, span, bits, out);
            if (selected >= 0) {
                return selected;
            }
            int n = b.rowCount();
            LongVector v = (LongVector) b.column(column);
            long[] x = v.values();
            boolean[] nulls = v.nulls();
            int c = 0;
            if (bits != null) {
                for (int i = 0; i < n; i++) {
                    long d = x[i] - lo;
                    out[c] = i;
                    // in range (one unsigned test for both bounds), then the value's bit; a NULL's slot holds
                    // anything, so it is tested apart
                    int hit = Long.compareUnsigned(d, span) <= 0
                            ? (int) (bits[(int) (d >>> 6)] >>> d) & 1 : 0;
                    c += nulls == null ? hit : hit & (nulls[i] ? 0 : 1);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    out[c] = i;
                    boolean hit = (nulls == null || !nulls[i]) && Arrays.binarySearch(sorted, x[i]) >= 0;
                    c += hit ? 1 : 0;
                }
            }
            return c;
        }
    }

    /** Any other condition: the rows where it evaluates to TRUE. */
    private static final class Evaluated extends RowSelector {
        private final Evaluator condition;

        Evaluated(Evaluator condition) {
            this.condition = condition;
        }

        @Override
        int select(Batch b, int[] out) {
            LongVector pass = (LongVector) condition.eval(b);
            int n = b.rowCount();
            long[] v = pass.values();
            boolean[] nulls = pass.nulls();
            int c = 0;
            for (int i = 0; i < n; i++) {
                out[c] = i;
                c += v[i] != 0 && (nulls == null || !nulls[i]) ? 1 : 0;
            }
            return c;
        }
    }
}
