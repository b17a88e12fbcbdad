package io.ferry.server.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.vector.LongVector;

class PaperTableTest {
    @RegisterExtension
    final TestCatalog storage = new TestCatalog();
    private final Catalog catalog = storage.catalog;

    @Test
    void rowAndDistinctCounts() {
        long[][] cases = {{100_000, 1_000}, {100_000, 100_000}, {60_000, 1_000_000_000}, {10_000, 1}, {12_345, 7},
                {5_000, 4_096}, {0, 10}};
        for (long[] c : cases) {
            long rows = c[0];
            long distinct = c[1];
            String name = "r_" + rows + "_" + distinct;
            Table table = PaperTable.load(catalog, name, rows, distinct, ProgressListener.NONE);
            assertEquals(rows, table.rowCount(), name);
            long[] a = new long[(int) rows];
            long[] b = new long[(int) rows];
            int[] at = {0};
            table.forEachBatch(batch -> {
                LongVector av = (LongVector) batch.column(0);
                LongVector bv = (LongVector) batch.column(1);
                System.arraycopy(av.values(), 0, a, at[0], batch.rowCount());
                System.arraycopy(bv.values(), 0, b, at[0], batch.rowCount());
                at[0] += batch.rowCount();
            });
            assertEquals(rows, at[0]);
            for (int i = 0; i < rows; i++) {
                assertEquals(i + 1, a[i], "a is 1..N in order");
                assertTrue(b[i] >= 0 && b[i] < distinct, "b in [0, D)");
            }
            long[] sorted = b.clone();
            Arrays.sort(sorted);
            long values = 0;
            long minRun = Long.MAX_VALUE;
            long maxRun = 0;
            for (int i = 0; i < sorted.length;) {
                int j = i;
                while (j < sorted.length && sorted[j] == sorted[i]) {
                    j++;
                }
                values++;
                minRun = Math.min(minRun, j - i);
                maxRun = Math.max(maxRun, j - i);
                i = j;
            }
            assertEquals(Math.min(rows, distinct), values, name + ": distinct b");
            if (rows >= distinct) {
                assertEquals(rows / distinct, minRun, name + ": every value floor(N/D) or ceil(N/D) times");
                assertEquals((rows + distinct - 1) / distinct, maxRun, name);
            }
        }
    }

    @Test
    void neighbouringRowsAreSpreadOverTheKeySpace() {
        Table table = PaperTable.load(catalog, "r", 1_000, 1_000_000, ProgressListener.NONE);
        long[] first = new long[2];
        table.forEachBatch(batch -> {
            first[0] = ((LongVector) batch.column(1)).get(1);
            first[1] = ((LongVector) batch.column(1)).get(2);
        });
        assertTrue(Math.abs(first[1] - first[0]) > 100_000, "a Weyl step, not a walk: " + Arrays.toString(first));
    }

    @Test
    void generationIsDeterministic() {
        long[] one = checksum(300_007, 977);
        long[] two = checksum(300_007, 977);
        assertArrayEquals(one, two);
    }

    private static long[] checksum(long rows, long distinct) {
        long[] sums = new long[2];
        PaperTable.generate(rows, distinct, batch -> {
            long[] b = ((LongVector) batch.column(1)).values();
            for (int i = 0; i < batch.rowCount(); i++) {
                sums[0] += b[i];
                sums[1] = sums[1] * 31 + b[i];
            }
        }, ProgressListener.NONE);
        return sums;
    }

    @Test
    void stepIsCoprimeWithTheDistinctCount() {
        for (long d : new long[] {2, 3, 10, 1000, 1024, 999_983, 1_000_000_000L, PaperTable.MAX_DISTINCT}) {
            long step = PaperTable.step(d);
            assertTrue(step > 0 && step < d, "step in (0, D)");
            assertEquals(1, java.math.BigInteger.valueOf(step).gcd(java.math.BigInteger.valueOf(d)).longValue());
        }
    }

    @Test
    void rejectsBadArgumentsAndLeavesNoTable() {
        FerryException e = assertThrows(FerryException.class,
                () -> PaperTable.load(catalog, "r", 10, 0, ProgressListener.NONE));
        assertEquals(SqlStates.INVALID_PARAMETER_VALUE, e.sqlState());
        assertThrows(FerryException.class, () -> PaperTable.load(catalog, "r", -1, 10, ProgressListener.NONE));
        assertNull(catalog.get("r"));
    }

    @Test
    void batchesHoldAtMost4096Rows() {
        int[] max = {0};
        PaperTable.generate(10_000, 10, batch -> max[0] = Math.max(max[0], batch.rowCount()), ProgressListener.NONE);
        assertEquals(4096, max[0]);
    }
}
