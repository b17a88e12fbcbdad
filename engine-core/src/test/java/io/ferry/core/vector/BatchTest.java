package io.ferry.core.vector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Late materialization: narrowing a batch composes positions, and a column is made once, when first read. */
class BatchTest {

    /** A pending column over 0..n-1 that counts how often it is made. */
    private static final class Counting implements PendingColumn {
        int made;
        private final int n;

        Counting(int n) {
            this.n = n;
        }

        @Override
        public Vector materialize() {
            made++;
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = i * 10L;
            }
            return new LongVector(v, null, n);
        }

        @Override
        public PendingColumn gather(int[] positions, int count) {
            return new Gathered(materialize(), positions, count);
        }
    }

    @Test
    void columnsAreMadeOnFirstReadOnly() {
        Counting read = new Counting(8);
        Counting unread = new Counting(8);
        Batch b = Batch.pending(8, new PendingColumn[] {read, unread});
        LongVector first = (LongVector) b.column(0);
        assertTrue(first == b.column(0), "a column is made once");
        assertEquals(1, read.made);
        assertEquals(0, unread.made);
        // Carrying a pending column into another batch does not make it.
        Batch carried = Batch.builder(8, 1).carry(0, b, 1).build();
        assertEquals(0, unread.made);
        assertEquals(70L, ((LongVector) carried.column(0)).get(7));
    }

    @Test
    void gathersComposeAndPadWithNull() {
        LongVector v = new LongVector(new long[] {0, 10, 20, 30, 40, 50}, new boolean[] {false, false, true, false,
                false, false});
        Batch b = Batch.of(v);
        boolean[] keep = {true, false, true, true, false, true};
        Batch filtered = b.compact(keep, 4); // rows 0, 2, 3, 5
        Batch joined = filtered.gather(new int[] {3, -1, 0, 2, 1}, 5); // rows 5, pad, 0, 3, 2
        LongVector out = (LongVector) joined.column(0);
        assertArrayEquals(new boolean[] {false, true, false, false, true}, out.nulls());
        long[] want = {50, -1, 0, 30, -1};
        for (int i = 0; i < want.length; i++) {
            if (!out.isNull(i)) {
                assertEquals(want[i], out.get(i), "row " + i);
            }
        }
        assertEquals(5, joined.rowCount());
        assertTrue(b.compact(new boolean[] {true, true, true, true, true, true}, 6) == b);
    }
}
