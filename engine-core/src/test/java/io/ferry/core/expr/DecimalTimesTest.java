package io.ferry.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * DECIMAL products: where the operands' digits cannot exceed the result's, one unchecked multiplication per row
 * gives the exact product (checked against BigDecimal at the largest values the types hold); where they can, an
 * overflow is still an error.
 */
class DecimalTimesTest {
    private static final FerryType A = FerryType.decimal(9, 2);
    private static final FerryType B = FerryType.decimal(9, 3);

    @Test
    void productsThatCannotOverflowAreExact() {
        FerryType product = FerryType.decimal(18, 5);
        assertTrue(ArithmeticKernels.productFits(A, B, product));
        assertFalse(ArithmeticKernels.productFits(A, B, FerryType.decimal(17, 5)));
        assertFalse(ArithmeticKernels.productFits(A, B, FerryType.decimal(18, 4)));
        Random r = new Random(3);
        int n = 1000;
        long[] x = new long[n];
        long[] y = new long[n];
        for (int i = 0; i < n; i++) {
            x[i] = i < 2 ? (i == 0 ? 999_999_999L : -999_999_999L) : r.nextLong() % 1_000_000_000L;
            y[i] = i < 2 ? -999_999_999L : r.nextLong() % 1_000_000_000L;
        }
        Expr times = new Call(Op.TIMES, List.of(new InputRef(0, A), new InputRef(1, B)), product);
        LongVector out = (LongVector) ExprCompiler.compile(times).eval(Batch.of(new LongVector(x, null),
                new LongVector(y, null)));
        for (int i = 0; i < n; i++) {
            BigDecimal want = BigDecimal.valueOf(x[i], 2).multiply(BigDecimal.valueOf(y[i], 3));
            assertEquals(want, BigDecimal.valueOf(out.get(i), 5), "row " + i);
        }
    }

    @Test
    void productsThatCanOverflowAreStillChecked() {
        FerryType narrow = FerryType.decimal(10, 5);
        Expr times = new Call(Op.TIMES, List.of(new InputRef(0, A), new InputRef(1, B)), narrow);
        Batch big = Batch.of(new LongVector(new long[] {999_999_999L}, null), new LongVector(new long[] {999_999L},
                null));
        assertThrows(FerryException.class, () -> ExprCompiler.compile(times).eval(big));
    }
}
