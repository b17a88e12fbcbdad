package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

class ReplicatorTest {
    /** Counts 3, 0, NULL, -2 and 1: the first row three times, the next three not at all, the last once. */
    @Test
    void repeatsEachRowAsOftenAsItsCountSays() {
        Batch in = Batch.of(new LongVector(new long[] {10, 20, 30, 40, 50}, null),
                new LongVector(new long[] {3, 0, 7, -2, 1}, new boolean[] {false, false, true, false, false}));
        Batch out = new Replicator(1).apply(in);
        long[] values = new long[out.rowCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ((LongVector) out.column(0)).get(i);
        }
        assertArrayEquals(new long[] {10, 10, 10, 50}, values);
    }

    @Test
    void aBatchOfOnesPassesAsItIs() {
        Batch in = Batch.of(new LongVector(new long[] {1, 2}, null), LongVector.constant(1, 2));
        assertSame(in, new Replicator(1).apply(in));
    }
}
