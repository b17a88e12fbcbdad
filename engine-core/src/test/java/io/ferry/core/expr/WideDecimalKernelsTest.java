package io.ferry.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Random;
import java.util.function.BinaryOperator;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * The kernels of DECIMALs past 18 digits against BigDecimal on random values of every magnitude: the fast paths
 * (two longs) and the BigInteger ones must agree with exact arithmetic, and a result past its precision is 22003.
 */
class WideDecimalKernelsTest {
    private static final int N = 4096;
    /** The seed of right operands, which are never 0 (they divide). */
    private static final long DIVISOR_SEED = 2;

    /** A column of {@code type} with random values of up to {@code digits} digits, every 13th NULL. */
    private static Vector column(FerryType type, int digits, long seed, BigDecimal[] out) {
        Random r = new Random(seed);
        long[] hi = new long[N];
        long[] lo = new long[N];
        boolean[] nulls = new boolean[N];
        for (int i = 0; i < N; i++) {
            nulls[i] = i % 13 == 7;
            int d = 1 + r.nextInt(digits);
            BigInteger v = new BigInteger(d * 4, r).mod(BigInteger.TEN.pow(d));
            v = v.signum() == 0 && seed == DIVISOR_SEED ? BigInteger.ONE : r.nextBoolean() ? v : v.negate();
            out[i] = nulls[i] ? null : new BigDecimal(v, type.scale());
            hi[i] = nulls[i] ? 0 : v.shiftRight(64).longValue();
            lo[i] = nulls[i] ? 0 : v.longValue();
        }
        if (type.isWideDecimal()) {
            return WideDecimal.of(hi, lo, nulls, N);
        }
        return new LongVector(lo, nulls, N);
    }

    private static BigDecimal value(Vector v, int i, FerryType type) {
        if (v.isNull(i)) {
            return null;
        }
        return v instanceof BytesVector b ? WideDecimal.get(b, i, type.scale())
                : BigDecimal.valueOf(((LongVector) v).get(i), type.scale());
    }

    private static void check(Op op, FerryType ta, FerryType tb, FerryType type, BinaryOperator<BigDecimal> exact) {
        BigDecimal[] x = new BigDecimal[N];
        BigDecimal[] y = new BigDecimal[N];
        Batch batch = Batch.of(column(ta, ta.precision() - 1, 1, x), column(tb, tb.precision() - 1, DIVISOR_SEED, y));
        Vector r = ExprCompiler.compile(new Call(op, List.of(new InputRef(0, ta), new InputRef(1, tb)), type))
                .eval(batch);
        for (int i = 0; i < N; i++) {
            BigDecimal want = x[i] == null || y[i] == null ? null
                    : exact.apply(x[i], y[i]).setScale(type.scale(), RoundingMode.HALF_UP);
            assertEquals(want, value(r, i, type), op + " row " + i + ": " + x[i] + ", " + y[i]);
        }
    }

    @Test
    void sumsDifferencesAndProductsAreExact() {
        FerryType wide = FerryType.decimal(38, 4);
        check(Op.PLUS, FerryType.decimal(37, 4), FerryType.decimal(37, 4), wide, BigDecimal::add);
        check(Op.MINUS, FerryType.decimal(37, 4), FerryType.decimal(37, 4), wide, BigDecimal::subtract);
        // long operands, a wide product: Math.multiplyHigh's 128 bits
        check(Op.TIMES, FerryType.decimal(18, 2), FerryType.decimal(18, 2), FerryType.decimal(36, 4),
                BigDecimal::multiply);
        // wide operands: BigInteger
        check(Op.TIMES, FerryType.decimal(19, 2), FerryType.decimal(19, 2), FerryType.decimal(38, 4),
                BigDecimal::multiply);
        check(Op.MOD, FerryType.decimal(30, 3), FerryType.decimal(30, 3), FerryType.decimal(30, 3),
                BigDecimal::remainder);
    }

    @Test
    void castsRoundHalfAwayFromZeroAndCheckTheRange() {
        BigDecimal[] x = new BigDecimal[N];
        FerryType from = FerryType.decimal(38, 6);
        Batch batch = Batch.of(column(from, 37, 3, x));
        for (FerryType to : List.of(FerryType.decimal(38, 2), FerryType.decimal(38, 10), FerryType.decimal(20, 0))) {
            Vector r = ExprCompiler.compile(new Call(Op.TRY_CAST, List.of(new InputRef(0, from)), to)).eval(batch);
            for (int i = 0; i < N; i++) {
                BigDecimal want = x[i] == null ? null : x[i].setScale(to.scale(), RoundingMode.HALF_UP);
                if (want != null && want.unscaledValue().abs().compareTo(BigInteger.TEN.pow(to.precision())) >= 0) {
                    want = null; // TRY_CAST: out of range is NULL
                }
                assertEquals(want, value(r, i, to), to + " row " + i);
            }
        }
        Vector d = ExprCompiler.compile(new Call(Op.CAST, List.of(new InputRef(0, from)), FerryType.DOUBLE))
                .eval(batch);
        for (int i = 0; i < N; i++) {
            if (x[i] != null) {
                // the integer as a double divided by 10^s, as DuckDB converts: within two roundings of exact
                assertEquals(x[i].doubleValue(), ((DoubleVector) d).get(i), Math.abs(x[i].doubleValue()) * 1e-15,
                        x[i].toString());
            }
        }
        FerryException e = assertThrows(FerryException.class, () -> ExprCompiler
                .compile(new Call(Op.CAST, List.of(new InputRef(0, from)), FerryType.decimal(20, 0))).eval(batch));
        assertEquals("22003", e.sqlState());
    }

    @Test
    void aResultPastThirtyEightDigitsIsAnOverflow() {
        FerryType wide = FerryType.decimal(38, 0);
        Literal big = new Literal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), wide);
        Batch one = new Batch(1, new Vector[0]);
        FerryException e = assertThrows(FerryException.class, () -> ExprCompiler
                .compile(new Call(Op.PLUS, List.of(big, big), wide)).eval(one));
        assertEquals("22003", e.sqlState());
        Vector negated = ExprCompiler.compile(new Call(Op.NEGATE, List.of(big), wide)).eval(one);
        assertEquals(new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate()),
                value(negated, 0, wide));
    }
}
