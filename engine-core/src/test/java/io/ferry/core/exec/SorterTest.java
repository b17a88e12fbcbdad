package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

/**
 * A sort large enough to be split between two threads gives the very order one thread gives (the merge sort is
 * stable, so ties keep their input order either way), also when the pool is too busy to take its half.
 */
class SorterTest {
    @Test
    void twoHalvesOnTwoThreadsGiveTheOrderOfOne() throws Exception {
        int n = 3 * Sorter.PARALLEL_ROWS + 17;
        Random random = new Random(42);
        long[] a = new long[n];
        boolean[] aNulls = new boolean[n];
        double[] b = new double[n];
        BytesVector.Builder c = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            a[i] = random.nextInt(50);
            aNulls[i] = random.nextInt(20) == 0;
            b[i] = random.nextInt(7) == 0 ? -0.0 : random.nextGaussian();
            c.append(("k" + random.nextInt(1000)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Batch batch = Batch.of(new LongVector(a, aNulls), new DoubleVector(b, null, n), c.build());
        List<SortKey> keys = List.of(new SortKey(0, true, false), new SortKey(2, false, false),
                new SortKey(1, false, true));
        int[] one = Sorter.order(batch, keys);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            // again and again: the two threads race for the second half, and either may win
            for (int run = 0; run < 10; run++) {
                assertArrayEquals(one, Sorter.order(batch, keys, pool));
            }
            // a pool whose only thread is busy: the caller sorts both halves itself rather than wait
            ExecutorService busy = Executors.newSingleThreadExecutor();
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            busy.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertArrayEquals(one, Sorter.order(batch, keys, busy));
            release.countDown();
            busy.shutdown();
        } finally {
            pool.shutdown();
        }
        Sorter.RowComparator cmp = Sorter.comparator(batch, keys);
        for (int i = 1; i < n; i++) {
            int order = cmp.compare(one[i - 1], one[i]);
            assertTrue(order < 0 || order == 0 && one[i - 1] < one[i], "sorted and stable at " + i);
        }
    }
}
