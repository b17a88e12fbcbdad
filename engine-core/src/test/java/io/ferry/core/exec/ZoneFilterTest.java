package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.stats.ValueRange;
import io.ferry.core.storage.ZoneMap;
import io.ferry.core.types.CivilCalendar;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

/**
 * What a filter tells a scan about the blocks it may skip: a block is skipped only when no row of it can pass, at the
 * edges that matter (signed zeros, NaN, NULLs, a DECIMAL compared at a finer scale, a DATE compared as a TIMESTAMP).
 */
class ZoneFilterTest {
    private static final FerryType DEC2 = FerryType.decimal(10, 2);
    private static final FerryType DEC3 = FerryType.decimal(18, 3);
    /** The scanned columns: 0 INTEGER, 1 DOUBLE, 2 DECIMAL(10,2), 3 DATE. */
    private static final List<FerryType> TYPES = List.of(FerryType.INTEGER, FerryType.DOUBLE, DEC2, FerryType.DATE);
    private static final int[] ALL_COLUMNS = {0, 1, 2, 3};

    private static Expr col(int i) {
        return new InputRef(i, TYPES.get(i));
    }

    private static Expr lit(Object v, FerryType t) {
        return new Literal(v, t);
    }

    private static Expr call(Op op, FerryType type, Expr... args) {
        return new Call(op, List.of(args), type);
    }

    private static Expr cmp(Op op, Expr a, Expr b) {
        return call(op, FerryType.BOOLEAN, a, b);
    }

    private static Expr cast(Expr e, FerryType to) {
        return call(Op.CAST, to, e);
    }

    /** A block of one row per entry of each column; null entries are NULL. */
    private static ZoneMap block(Long[] ints, Double[] doubles, Long[] decimals, Long[] dates) {
        int n = ints.length;
        return ZoneMap.of(TYPES, new Batch(n, new io.ferry.core.vector.Vector[] {longs(ints), doubles(doubles),
            longs(decimals), longs(dates)}), 0, n);
    }

    private static LongVector longs(Long[] v) {
        long[] x = new long[v.length];
        boolean[] nulls = new boolean[v.length];
        for (int i = 0; i < v.length; i++) {
            nulls[i] = v[i] == null;
            x[i] = v[i] == null ? 0 : v[i];
        }
        return new LongVector(x, nulls, v.length);
    }

    private static DoubleVector doubles(Double[] v) {
        double[] x = new double[v.length];
        boolean[] nulls = new boolean[v.length];
        for (int i = 0; i < v.length; i++) {
            nulls[i] = v[i] == null;
            x[i] = v[i] == null ? 0 : v[i];
        }
        return new DoubleVector(x, nulls, v.length);
    }

    private static ZoneMap ints(Long... v) {
        Long[] none = new Long[v.length];
        return block(v, new Double[v.length], none, none);
    }

    private static ZoneMap doublesBlock(Double... v) {
        Long[] none = new Long[v.length];
        return block(none, v, none, none);
    }

    private static ZoneMap decimals(Long... v) {
        Long[] none = new Long[v.length];
        return block(none, new Double[v.length], v, none);
    }

    private static ZoneMap dates(Long... v) {
        Long[] none = new Long[v.length];
        return block(none, new Double[v.length], none, v);
    }

    private static ZoneFilter filter(Expr condition) {
        return ZoneFilter.of(condition, ALL_COLUMNS, c -> true);
    }

    @Test
    void comparisonsBoundTheColumnAndBlocksOutsideAreSkipped() {
        ZoneFilter lt = filter(cmp(Op.LT, col(0), lit(10L, FerryType.INTEGER)));
        assertTrue(lt.mayMatch(ints(0L, 9L)));
        assertFalse(lt.mayMatch(ints(10L, 20L)));
        ZoneFilter swapped = filter(cmp(Op.LT, lit(10L, FerryType.INTEGER), col(0)));
        assertFalse(swapped.mayMatch(ints(0L, 10L)));
        assertTrue(swapped.mayMatch(ints(0L, 11L)));
        ZoneFilter between = filter(call(Op.AND, FerryType.BOOLEAN, cmp(Op.GE, col(0), lit(5L, FerryType.INTEGER)),
                cmp(Op.LE, col(0), lit(7L, FerryType.INTEGER))));
        assertFalse(between.mayMatch(ints(0L, 4L)));
        assertTrue(between.mayMatch(ints(0L, 100L)), "the range lies inside the block's");
        assertFalse(between.mayMatch(ints(8L, 100L)));
        assertFalse(filter(cmp(Op.GT, col(0), lit((long) Integer.MAX_VALUE, FerryType.INTEGER))).isEmpty());
    }

    @Test
    void signedZerosAreEqualAndNanIsNeverRuledOutByAccident() {
        ZoneFilter zero = filter(cmp(Op.EQ, col(1), lit(0.0, FerryType.DOUBLE)));
        assertTrue(zero.mayMatch(doublesBlock(-0.0)), "-0.0 = 0.0");
        assertTrue(filter(cmp(Op.EQ, col(1), lit(-0.0, FerryType.DOUBLE))).mayMatch(doublesBlock(0.0, 1.0)));
        assertFalse(filter(cmp(Op.GT, col(1), lit(0.0, FerryType.DOUBLE))).mayMatch(doublesBlock(-5.0, -0.0)));
        assertTrue(filter(cmp(Op.GE, col(1), lit(0.0, FerryType.DOUBLE))).mayMatch(doublesBlock(-5.0, -0.0)));
        assertTrue(filter(cmp(Op.LE, col(1), lit(-0.0, FerryType.DOUBLE))).mayMatch(doublesBlock(0.0, 3.0)));
        assertFalse(filter(cmp(Op.LT, col(1), lit(0.0, FerryType.DOUBLE))).mayMatch(doublesBlock(-0.0, 3.0)));
        // NaN sorts last in a block's range: a block holding one is kept for any lower bound below it
        assertTrue(filter(cmp(Op.GT, col(1), lit(100.0, FerryType.DOUBLE))).mayMatch(doublesBlock(1.0, Double.NaN)));
        assertTrue(filter(cmp(Op.EQ, col(1), lit(Double.NaN, FerryType.DOUBLE))).isEmpty(), "NaN says nothing");
        assertTrue(filter(call(Op.IN, FerryType.BOOLEAN, col(1), lit(1.0, FerryType.DOUBLE),
                lit(Double.NaN, FerryType.DOUBLE))).isEmpty());
    }

    @Test
    void nullsAreTheirOwnValue() {
        ZoneFilter isNull = filter(call(Op.IS_NULL, FerryType.BOOLEAN, col(0)));
        assertFalse(isNull.mayMatch(ints(1L, 2L)));
        assertTrue(isNull.mayMatch(ints(1L, null)));
        ZoneFilter notNull = filter(call(Op.IS_NOT_NULL, FerryType.BOOLEAN, col(0)));
        assertFalse(notNull.mayMatch(ints(null, null)));
        assertTrue(notNull.mayMatch(ints(null, 3L)));
        ZoneFilter gt = filter(cmp(Op.GT, col(0), lit(5L, FerryType.INTEGER)));
        assertFalse(gt.mayMatch(ints(null, null)), "no row of an all-NULL block is greater than anything");
        ZoneFilter nullOr = filter(call(Op.OR, FerryType.BOOLEAN, call(Op.IS_NULL, FerryType.BOOLEAN, col(0)),
                cmp(Op.EQ, col(0), lit(42L, FerryType.INTEGER))));
        assertTrue(nullOr.mayMatch(ints(null, 1L)));
        assertTrue(nullOr.mayMatch(ints(40L, 50L)));
        assertFalse(nullOr.mayMatch(ints(1L, 2L)));
        ZoneFilter in = filter(call(Op.IN, FerryType.BOOLEAN, col(0), lit(3L, FerryType.INTEGER),
                Literal.nullOf(FerryType.INTEGER), lit(90L, FerryType.INTEGER)));
        assertFalse(in.mayMatch(ints(4L, 89L, null)), "a NULL in the list matches no row");
        assertTrue(in.mayMatch(ints(85L, 95L)));
    }

    @Test
    void widenedColumnsHaveTheirConstantsRoundedOutwards() {
        // DECIMAL(10,2) compared at scale 3: c < 1.005 holds for c <= 1.00, and the bound rounds up to 1.01.
        ZoneFilter dec = filter(cmp(Op.LT, cast(col(2), DEC3), lit(1005L, DEC3)));
        assertTrue(dec.mayMatch(decimals(50L, 100L)));
        assertFalse(dec.mayMatch(decimals(102L, 200L)));
        // An INTEGER compared as a DOUBLE: c > 2.5 holds from 3; the bound widens to 1.
        ZoneFilter asDouble = filter(cmp(Op.GT, cast(col(0), FerryType.DOUBLE), lit(2.5, FerryType.DOUBLE)));
        assertTrue(asDouble.mayMatch(ints(3L, 3L)));
        assertFalse(asDouble.mayMatch(ints(-10L, 0L)));
        // A DATE compared as a TIMESTAMP: before day 10 at noon holds up to day 10.
        long noon = 10 * CivilCalendar.MILLIS_PER_DAY + CivilCalendar.MILLIS_PER_DAY / 2;
        ZoneFilter date = filter(cmp(Op.LT, cast(col(3), FerryType.TIMESTAMP), lit(noon, FerryType.TIMESTAMP)));
        assertTrue(date.mayMatch(dates(10L, 20L)));
        assertFalse(date.mayMatch(dates(12L, 20L)));
        // A constant CAST (a literal of another type) is evaluated as the kernels evaluate it
        ZoneFilter castConstant = filter(cmp(Op.LT, col(1), cast(lit(5L, FerryType.BIGINT), FerryType.DOUBLE)));
        assertFalse(castConstant.mayMatch(doublesBlock(5.0, 6.0)));
        assertTrue(castConstant.mayMatch(doublesBlock(4.5, 6.0)));
        // A narrowing cast says nothing
        assertTrue(filter(cmp(Op.EQ, cast(col(2), FerryType.BIGINT), lit(1L, FerryType.BIGINT))).isEmpty());
    }

    @Test
    void orKeepsWhatEveryBranchSaysOfOneColumnAndUnusedColumnsAreLeftOut() {
        Expr a = cmp(Op.LT, col(0), lit(10L, FerryType.INTEGER));
        Expr b = cmp(Op.GT, col(0), lit(100L, FerryType.INTEGER));
        Expr other = cmp(Op.GT, col(1), lit(1.0, FerryType.DOUBLE));
        ZoneFilter either = filter(call(Op.OR, FerryType.BOOLEAN, a, b));
        assertFalse(either.mayMatch(ints(10L, 100L)));
        assertTrue(either.mayMatch(ints(5L, 50L)));
        assertTrue(filter(call(Op.OR, FerryType.BOOLEAN, a, other)).isEmpty());
        assertTrue(filter(call(Op.NOT, FerryType.BOOLEAN, a)).isEmpty());
        ZoneFilter onlyDouble = ZoneFilter.of(call(Op.AND, FerryType.BOOLEAN, a, other), ALL_COLUMNS, c -> c == 1);
        assertEquals(1, onlyDouble.columns().size());
        assertEquals(1, onlyDouble.columns().get(0).column());
        // A scan of columns {3, 0} of its table: the filter's column 1 is the table's column 0.
        ZoneFilter mapped = ZoneFilter.of(cmp(Op.EQ, new InputRef(1, FerryType.INTEGER), lit(7L, FerryType.INTEGER)),
                new int[] {3, 0}, c -> true);
        assertEquals(0, mapped.columns().get(0).column());
        assertTrue(filter(call(Op.AND, FerryType.BOOLEAN, a, b)).columns().get(0).bounds().length == 0,
                "contradictory bounds leave no value");
        assertEquals(new ValueRange.LongRange(5, 50), ints(5L, 50L, null).range(0));
    }
}
