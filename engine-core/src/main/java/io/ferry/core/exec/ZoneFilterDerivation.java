package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.ExprCompiler;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.stats.ValueRange;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Works out a {@link ZoneFilter} from a filter's condition. For each column it finds the values a row must hold in
 * it for the condition to be TRUE: {@code c op k} for op in =, <, <=, >, >= (k any constant expression, so BETWEEN's
 * two comparisons too), {@code c IN (k, ...)}, {@code c IS NULL}, {@code c IS NOT NULL} and a bare BOOLEAN column;
 * AND intersects, and OR unites what every branch says of one column. Anything else says nothing, which is always
 * safe. A column compared through a widening cast (an INTEGER with a DECIMAL, a DECIMAL with a DOUBLE, a DATE with a
 * TIMESTAMP) has the constant mapped back to the column's own values, rounded outwards.
 *
 * <p>DOUBLE values are order keys ({@link ValueRange.DoubleRange#orderKey}), in which -0.0 sorts before +0.0 while
 * the comparison kernels hold them equal: a bound at zero takes both zeros in. A NaN constant says nothing.
 */
final class ZoneFilterDerivation {
    private static final long[] ALL = {Long.MIN_VALUE, Long.MAX_VALUE};
    private static final long[] NOTHING = {};
    private static final long NEGATIVE_ZERO = ValueRange.DoubleRange.orderKey(-0.0);
    private static final long POSITIVE_ZERO = ValueRange.DoubleRange.orderKey(0.0);
    /** Beyond this a double-to-long mapping stops rounding and gives up its bound (long's range is ±9.22e18). */
    private static final double LONG_LIMIT = 9.0e18;

    /** The values of one column that can pass, in the column's own terms. */
    private record Values(long[] bounds, boolean nulls) {
    }

    /** A column as a comparison sees it: the filter input's column, and the type it is compared in. */
    private record Side(int input, FerryType columnType, FerryType compareType) {
    }

    private ZoneFilterDerivation() {
    }

    static ZoneFilter derive(Expr condition, int[] scanColumns, IntPredicate use) {
        List<ZoneFilter.ColumnValues> out = new ArrayList<>();
        for (Map.Entry<Integer, Values> e : of(condition).entrySet()) {
            int column = scanColumns[e.getKey()];
            if (use.test(column)) {
                out.add(new ZoneFilter.ColumnValues(column, e.getValue().bounds(), e.getValue().nulls()));
            }
        }
        return out.isEmpty() ? ZoneFilter.NONE : new ZoneFilter(out);
    }

    /** Per column of the filter's input, the values a row passing {@code e} holds there (absent: anything). */
    private static Map<Integer, Values> of(Expr e) {
        if (e instanceof InputRef ref && ref.type().kind() == TypeKind.BOOLEAN) {
            return single(ref.index(), new Values(new long[] {1, 1}, false));
        }
        if (!(e instanceof Call call)) {
            return Map.of();
        }
        List<Expr> args = call.args();
        return switch (call.op()) {
            case AND -> {
                Map<Integer, Values> all = new TreeMap<>();
                for (Expr a : args) {
                    of(a).forEach((column, v) -> all.merge(column, v, (x, y) -> new Values(intersect(x.bounds,
                            y.bounds), x.nulls && y.nulls)));
                }
                yield all;
            }
            case OR -> {
                Map<Integer, Values> all = null;
                for (Expr a : args) {
                    Map<Integer, Values> branch = of(a);
                    if (all == null) {
                        all = new TreeMap<>(branch);
                    } else {
                        all.keySet().retainAll(branch.keySet());
                        for (Map.Entry<Integer, Values> x : all.entrySet()) {
                            Values y = branch.get(x.getKey());
                            x.setValue(new Values(union(x.getValue().bounds, y.bounds), x.getValue().nulls || y.nulls));
                        }
                    }
                }
                yield all == null ? Map.of() : all;
            }
            case EQ, LT, LE, GT, GE -> comparison(call.op(), args.get(0), args.get(1));
            case IN -> in(args);
            case IS_NULL -> args.get(0) instanceof InputRef ref ? single(ref.index(), new Values(NOTHING, true))
                    : Map.of();
            case IS_NOT_NULL -> args.get(0) instanceof InputRef ref ? single(ref.index(), new Values(ALL, false))
                    : Map.of();
            default -> Map.of();
        };
    }

    private static Map<Integer, Values> single(int column, Values values) {
        Map<Integer, Values> m = new TreeMap<>();
        m.put(column, values);
        return m;
    }

    private static Map<Integer, Values> comparison(Op op, Expr a, Expr b) {
        if (side(a) == null) {
            Expr t = a;
            a = b;
            b = t;
            op = op.swapped();
        }
        Side side = side(a);
        if (side == null || !isConstant(b)) {
            return Map.of();
        }
        long[] bounds = bounds(op, constant(b), side);
        return bounds == null ? Map.of() : single(side.input(), new Values(bounds, false));
    }

    private static Map<Integer, Values> in(List<Expr> args) {
        Side side = side(args.get(0));
        if (side == null) {
            return Map.of();
        }
        long[] all = NOTHING;
        for (int i = 1; i < args.size(); i++) {
            if (!(args.get(i) instanceof Literal lit)) {
                return Map.of();
            }
            if (lit.value() == null) {
                continue; // a NULL in the list matches no row
            }
            long[] point = bounds(Op.EQ, lit.value(), side);
            if (point == null) {
                return Map.of();
            }
            all = union(all, point);
        }
        return single(side.input(), new Values(all, false));
    }

    /** A column, or a column under one CAST: what a comparison can bound. */
    private static Side side(Expr e) {
        if (e instanceof InputRef ref) {
            return new Side(ref.index(), ref.type(), ref.type());
        }
        if (e instanceof Call c && c.op() == Op.CAST && c.arg(0) instanceof InputRef ref) {
            return new Side(ref.index(), ref.type(), c.type());
        }
        return null;
    }

    private static boolean isConstant(Expr e) {
        if (e instanceof InputRef) {
            return false;
        }
        if (e instanceof Call c) {
            for (Expr a : c.args()) {
                if (!isConstant(a)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The value of a constant expression as the kernels compute it (a CAST of a literal included), or null when it
     * is NULL, not a number or fails to evaluate: then the comparison says nothing, and whatever the filter makes of
     * it stays the filter's business.
     */
    private static Object constant(Expr e) {
        if (e instanceof Literal lit) {
            return lit.value();
        }
        try {
            Vector v = ExprCompiler.compile(e).eval(new Batch(1, new Vector[0]));
            if (v.isNull(0)) {
                return null;
            }
            return v instanceof LongVector l ? (Object) l.get(0) : v instanceof DoubleVector d ? (Object) d.get(0)
                    : null;
        } catch (RuntimeException failed) {
            return null;
        }
    }

    /** The values of the side's column for which {@code column op k} holds, or null when that cannot be said. */
    private static long[] bounds(Op op, Object k, Side side) {
        if (k == null) {
            return null;
        }
        long[] compared = switch (side.compareType().physical()) {
            case LONG -> longBounds(op, (Long) k);
            case DOUBLE -> doubleBounds(op, (Double) k);
            case BYTES -> null;
        };
        return compared == null ? null : toColumn(compared, side.columnType(), side.compareType());
    }

    private static long[] longBounds(Op op, long k) {
        return switch (op) {
            case EQ -> new long[] {k, k};
            case LT -> k == Long.MIN_VALUE ? NOTHING : new long[] {Long.MIN_VALUE, k - 1};
            case LE -> new long[] {Long.MIN_VALUE, k};
            case GT -> k == Long.MAX_VALUE ? NOTHING : new long[] {k + 1, Long.MAX_VALUE};
            case GE -> new long[] {k, Long.MAX_VALUE};
            default -> null;
        };
    }

    private static long[] doubleBounds(Op op, double k) {
        if (Double.isNaN(k)) {
            return null;
        }
        long low = k == 0 ? NEGATIVE_ZERO : ValueRange.DoubleRange.orderKey(k);
        long high = k == 0 ? POSITIVE_ZERO : ValueRange.DoubleRange.orderKey(k);
        return switch (op) {
            case EQ -> new long[] {low, high};
            case LT -> new long[] {Long.MIN_VALUE, low - 1};
            case LE -> new long[] {Long.MIN_VALUE, high};
            case GT -> new long[] {high + 1, Long.MAX_VALUE};
            case GE -> new long[] {low, Long.MAX_VALUE};
            default -> null;
        };
    }

    /**
     * Bounds in the compared type as bounds on the column's own values, widened where the cast rounds; null for a
     * cast this does not follow. Every cast followed here is monotone (never reverses two values' order), which is
     * what makes a block's range under the cast the cast of its range.
     */
    private static long[] toColumn(long[] bounds, FerryType column, FerryType compared) {
        if (sameValues(column, compared)) {
            return bounds;
        }
        boolean exact = column.kind() == TypeKind.INTEGER || column.kind() == TypeKind.BIGINT
                || column.kind() == TypeKind.DECIMAL;
        int columnScale = column.kind() == TypeKind.DECIMAL ? column.scale() : 0;
        long[] out = new long[bounds.length];
        if (exact && compared.kind() == TypeKind.DECIMAL && compared.scale() >= columnScale
                && compared.scale() - columnScale <= 18) {
            long f = pow10(compared.scale() - columnScale);
            for (int i = 0; i < bounds.length; i += 2) {
                out[i] = bounds[i] == Long.MIN_VALUE ? Long.MIN_VALUE : Math.floorDiv(bounds[i], f);
                out[i + 1] = bounds[i + 1] == Long.MAX_VALUE ? Long.MAX_VALUE : ceilDiv(bounds[i + 1], f);
            }
        } else if (exact && compared.kind() == TypeKind.DOUBLE) {
            double f = Math.pow(10, columnScale);
            for (int i = 0; i < bounds.length; i += 2) {
                // The unbounded ends are the extreme keys, which are NaN bit patterns as doubles: keep them so.
                double lo = bounds[i] == Long.MIN_VALUE ? Double.NEGATIVE_INFINITY
                        : ValueRange.DoubleRange.fromOrderKey(bounds[i]) * f;
                double hi = bounds[i + 1] == Long.MAX_VALUE ? Double.POSITIVE_INFINITY
                        : ValueRange.DoubleRange.fromOrderKey(bounds[i + 1]) * f;
                if (Double.isNaN(lo) || Double.isNaN(hi)) {
                    return null;
                }
                out[i] = lo <= -LONG_LIMIT ? Long.MIN_VALUE : lo >= LONG_LIMIT ? (long) LONG_LIMIT
                        : (long) Math.floor(lo) - 1;
                out[i + 1] = hi >= LONG_LIMIT ? Long.MAX_VALUE : hi <= -LONG_LIMIT ? (long) -LONG_LIMIT
                        : (long) Math.ceil(hi) + 1;
            }
        } else if (column.kind() == TypeKind.DATE && compared.kind() == TypeKind.TIMESTAMP) {
            for (int i = 0; i < bounds.length; i += 2) {
                long day = CivilCalendar.MILLIS_PER_DAY;
                out[i] = bounds[i] == Long.MIN_VALUE ? Long.MIN_VALUE : Math.floorDiv(bounds[i], day);
                out[i + 1] = bounds[i + 1] == Long.MAX_VALUE ? Long.MAX_VALUE : ceilDiv(bounds[i + 1], day);
            }
        } else {
            return null;
        }
        // Rounding outwards can make neighbours touch: merge them back into sorted, disjoint intervals.
        return union(NOTHING, out);
    }

    /** Whether the two types store a value alike, so a bound on one is a bound on the other. */
    private static boolean sameValues(FerryType a, FerryType b) {
        if (a.physical() != b.physical()) {
            return false;
        }
        if (a.physical() == Physical.DOUBLE) {
            return true;
        }
        boolean aWhole = a.kind() == TypeKind.INTEGER || a.kind() == TypeKind.BIGINT;
        boolean bWhole = b.kind() == TypeKind.INTEGER || b.kind() == TypeKind.BIGINT;
        if (aWhole || bWhole) {
            return aWhole && bWhole;
        }
        return a.kind() == b.kind() && (a.kind() != TypeKind.DECIMAL || a.scale() == b.scale());
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static long ceilDiv(long x, long f) {
        return Math.floorDiv(x, f) + (Math.floorMod(x, f) == 0 ? 0 : 1);
    }

    /** The union of two sets of intervals, each given as bounds of intervals sorted by their start. */
    static long[] union(long[] a, long[] b) {
        long[] all = new long[a.length + b.length];
        // Merge by start, then fold overlapping or adjacent intervals.
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < a.length || j < b.length) {
            boolean takeA = j >= b.length || (i < a.length && a[i] <= b[j]);
            long lo = takeA ? a[i] : b[j];
            long hi = takeA ? a[i + 1] : b[j + 1];
            if (takeA) {
                i += 2;
            } else {
                j += 2;
            }
            if (lo > hi) {
                continue;
            }
            if (n > 0 && (all[n - 1] == Long.MAX_VALUE || lo <= all[n - 1] + 1)) {
                all[n - 1] = Math.max(all[n - 1], hi);
            } else {
                all[n++] = lo;
                all[n++] = hi;
            }
        }
        return n == all.length ? all : Arrays.copyOf(all, n);
    }

    /** The intersection of two sets of sorted, disjoint intervals. */
    static long[] intersect(long[] a, long[] b) {
        long[] out = new long[a.length + b.length];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            long lo = Math.max(a[i], b[j]);
            long hi = Math.min(a[i + 1], b[j + 1]);
            if (lo <= hi) {
                out[n++] = lo;
                out[n++] = hi;
            }
            if (a[i + 1] < b[j + 1]) {
                i += 2;
            } else {
                j += 2;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
