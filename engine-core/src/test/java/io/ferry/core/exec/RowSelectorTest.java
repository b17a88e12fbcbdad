package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.expr.Call;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * A filter's IN list of integral constants, tested by a bitmap over the constants' range or, where that range is
 * too wide for one, by binary search: each keeps exactly the rows whose value is one of the constants, never a
 * NULL, whatever the values' signs and magnitudes.
 */
class RowSelectorTest {
    private static final Random RANDOM = new Random(29);

    @Test
    void anInListOverANarrowRangeKeepsItsRows() {
        long[] constants = {-70, -3, 0, 1, 63, 64, 65, 127, 128, 4000};
        long[] values = new long[5000];
        for (int i = 0; i < values.length; i++) {
            values[i] = RANDOM.nextInt(4200) - 100;
        }
        assertKeeps(constants, values, nullsEvery(values.length, 7));
        assertKeeps(constants, values, null);
    }

    @Test
    void anInListOverAWideRangeKeepsItsRows() {
        long[] constants = {Long.MIN_VALUE, -1L << 40, 17, 1L << 40, Long.MAX_VALUE};
        long[] values = new long[3000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 5 == 0 ? constants[RANDOM.nextInt(constants.length)] : RANDOM.nextLong();
        }
        assertKeeps(constants, values, nullsEvery(values.length, 11));
        assertKeeps(constants, values, null);
    }

    @Test
    void oneConstantAndDuplicatesKeepTheirRows() {
        long[] values = {5, 6, 5, -5, 5, Long.MAX_VALUE, Long.MIN_VALUE};
        assertKeeps(new long[] {5}, values, null);
        assertKeeps(new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, values, null);
        assertKeeps(new long[] {Long.MIN_VALUE}, values, nullsEvery(values.length, 2));
    }

    private static boolean[] nullsEvery(int n, int every) {
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i += every) {
            nulls[i] = true;
        }
        return nulls;
    }

    private static void assertKeeps(long[] constants, long[] values, boolean[] nulls) {
        FerryType type = FerryType.BIGINT;
        List<Expr> args = new ArrayList<>();
        args.add(new InputRef(0, type));
        for (long c : constants) {
            args.add(new Literal(c, type));
        }
        List<RowSelector> steps = RowSelector.forConjuncts(List.of(new Call(Op.IN, args, FerryType.BOOLEAN)));
        Batch batch = Batch.of(new LongVector(values.clone(), nulls == null ? null : nulls.clone()));
        int[] out = new int[values.length];
        int kept = steps.get(0).select(batch, out);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            long v = values[i];
            if ((nulls == null || !nulls[i]) && Arrays.stream(constants).anyMatch(c -> c == v)) {
                expected.add(i);
            }
        }
        assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), Arrays.copyOf(out, kept));
    }
}
