package io.ferry.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * CASE gives each row the value of its first true condition, NULL conditions being false, whether its parts run
 * on every row at once (cheap numeric parts) or branch by branch; and a part that fails only on rows that do not
 * reach it does not fail the CASE.
 */
class CaseEvaluatorTest {
    private static final FerryType BIGINT = FerryType.BIGINT;

    private static InputRef ref(int i, FerryType t) {
        return new InputRef(i, t);
    }

    private static Call call(Op op, FerryType type, Expr... args) {
        return new Call(op, List.of(args), type);
    }

    /** Columns: a, b (BIGINT, some NULL), d (DOUBLE, some NULL). */
    private static Batch batch(int n, long seed) {
        Random r = new Random(seed);
        long[] a = new long[n];
        long[] b = new long[n];
        double[] d = new double[n];
        boolean[] bNulls = new boolean[n];
        boolean[] dNulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextInt(200) - 100;
            b[i] = r.nextInt(1000);
            d[i] = r.nextGaussian();
            bNulls[i] = r.nextInt(7) == 0;
            dNulls[i] = r.nextInt(5) == 0;
        }
        return Batch.of(new LongVector(a, null), new LongVector(b, bNulls), new DoubleVector(d, dNulls, n));
    }

    /** What CASE means, row by row. */
    private static Object expected(Batch in, int i, boolean doubles) {
        LongVector a = (LongVector) in.column(0);
        LongVector b = (LongVector) in.column(1);
        DoubleVector d = (DoubleVector) in.column(2);
        if (a.get(i) < 0) {
            return doubles ? (Object) (d.isNull(i) ? null : d.get(i)) : (Object) (a.get(i) * 3);
        }
        if (!b.isNull(i) && b.get(i) > 500) {
            return doubles ? (Object) (double) (a.get(i) + 1) : (Object) (b.isNull(i) ? null : b.get(i) - a.get(i));
        }
        return doubles ? (Object) 0.5 : (Object) null;
    }

    private static Expr bigintCase() {
        return call(Op.CASE, BIGINT,
                call(Op.LT, FerryType.BOOLEAN, ref(0, BIGINT), new Literal(0L, BIGINT)),
                call(Op.TIMES, BIGINT, ref(0, BIGINT), new Literal(3L, BIGINT)),
                call(Op.GT, FerryType.BOOLEAN, ref(1, BIGINT), new Literal(500L, BIGINT)),
                call(Op.MINUS, BIGINT, ref(1, BIGINT), ref(0, BIGINT)),
                Literal.nullOf(BIGINT));
    }

    private static Expr doubleCase() {
        return call(Op.CASE, FerryType.DOUBLE,
                call(Op.LT, FerryType.BOOLEAN, ref(0, BIGINT), new Literal(0L, BIGINT)),
                ref(2, FerryType.DOUBLE),
                call(Op.GT, FerryType.BOOLEAN, ref(1, BIGINT), new Literal(500L, BIGINT)),
                call(Op.CAST, FerryType.DOUBLE, call(Op.PLUS, BIGINT, ref(0, BIGINT), new Literal(1L, BIGINT))),
                new Literal(0.5, FerryType.DOUBLE));
    }

    @Test
    void everyRowTakesItsFirstTrueBranchWhicheverWayThePartsRun() {
        assertTrue(CaseEvaluator.blends(((Call) bigintCase()).args()), "arithmetic and comparisons blend");
        assertFalse(CaseEvaluator.blends(((Call) doubleCase()).args()), "a CAST does not");
        for (int n : new int[] {1, 17, 4096}) {
            Batch in = batch(n, n);
            for (Expr e : new Expr[] {bigintCase(), doubleCase()}) {
                boolean doubles = e.type().equals(FerryType.DOUBLE);
                Vector out = ExprCompiler.compile(e).eval(in);
                assertEquals(n, out.size());
                for (int i = 0; i < n; i++) {
                    Object want = expected(in, i, doubles);
                    Object got = out.isNull(i) ? null
                            : doubles ? (Object) ((DoubleVector) out).get(i) : (Object) ((LongVector) out).get(i);
                    assertEquals(want, got, e + " row " + i);
                }
            }
        }
    }

    /** {@code CASE WHEN a < 0 THEN a * 4611686018427387904 ELSE a END}: the product overflows for rows with a > 1. */
    @Test
    void aPartThatOverflowsOnlyOnRowsThatDoNotReachItDoesNotFail() {
        Expr big = new Literal(1L << 62, BIGINT);
        Expr guarded = call(Op.CASE, BIGINT, call(Op.LT, FerryType.BOOLEAN, ref(0, BIGINT), new Literal(-1L, BIGINT)),
                new Literal(7L, BIGINT), call(Op.LE, FerryType.BOOLEAN, ref(0, BIGINT), new Literal(1L, BIGINT)),
                call(Op.TIMES, BIGINT, ref(0, BIGINT), big), ref(0, BIGINT));
        assertTrue(CaseEvaluator.blends(((Call) guarded).args()));
        Batch in = Batch.of(new LongVector(new long[] {-5, -1, 0, 1, 2, 100}, null));
        LongVector out = (LongVector) ExprCompiler.compile(guarded).eval(in);
        long[] want = {7, -(1L << 62), 0, 1L << 62, 2, 100};
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], out.get(i), "row " + i);
        }
        // and where a row does reach it, the overflow is the CASE's error
        Batch reached = Batch.of(new LongVector(new long[] {1, -7}, null));
        Expr unguarded = call(Op.CASE, BIGINT, call(Op.LT, FerryType.BOOLEAN, ref(0, BIGINT), new Literal(-1L,
                BIGINT)), call(Op.TIMES, BIGINT, ref(0, BIGINT), big), ref(0, BIGINT));
        FerryException e = assertThrows(FerryException.class, () -> ExprCompiler.compile(unguarded).eval(reached));
        assertEquals(SqlStates.NUMERIC_OUT_OF_RANGE, e.sqlState());
    }
}
