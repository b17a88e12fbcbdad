package io.ferry.core.exec;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Sorts the rows of a batch by ORDER BY keys: a stable merge sort of row indices, no boxing. A large batch is sorted
 * in two halves at once, one on another core, which are then merged.
 */
final class Sorter {
    /** Rows below which a second core does not pay for handing it half. */
    static final int PARALLEL_ROWS = 1 << 16;

    private Sorter() {
    }

    interface RowComparator {
        int compare(int a, int b);
    }

    static int[] order(Batch batch, List<SortKey> keys) {
        return order(batch, keys, null);
    }

    /**
     * The row order of {@code batch} by {@code keys}; with a {@code pool}, a large batch's second half is sorted there
     * while this thread sorts the first. If no thread of the pool has taken the half by the time the first is done
     * (a busy pool), this thread sorts it too, so a sort never waits on a queue.
     */
    static int[] order(Batch batch, List<SortKey> keys, Executor pool) {
        int n = batch.rowCount();
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        RowComparator cmp = comparator(batch, keys);
        int[] tmp = new int[n];
        if (pool == null || n < PARALLEL_ROWS) {
            mergeSort(idx, tmp, 0, n, cmp);
            return idx;
        }
        int mid = n >>> 1;
        // whoever claims the second half sorts it: a pool thread, or this one if none has started it by now
        AtomicBoolean claimed = new AtomicBoolean();
        FutureTask<Void> second = new FutureTask<>(() -> {
            if (claimed.compareAndSet(false, true)) {
                mergeSort(idx, tmp, mid, n, cmp);
            }
        }, null);
        pool.execute(second);
        mergeSort(idx, tmp, 0, mid, cmp);
        if (claimed.compareAndSet(false, true)) {
            mergeSort(idx, tmp, mid, n, cmp);
        } else {
            try {
                second.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FerryException(SqlStates.QUERY_CANCELED, "query interrupted while sorting");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }
        merge(idx, tmp, 0, mid, n, cmp);
        return idx;
    }

    static RowComparator comparator(Batch batch, List<SortKey> keys) {
        RowComparator[] parts = new RowComparator[keys.size()];
        for (int k = 0; k < parts.length; k++) {
            parts[k] = keyComparator(batch.column(keys.get(k).column()), keys.get(k));
        }
        return (a, b) -> {
            for (RowComparator p : parts) {
                int c = p.compare(a, b);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    static RowComparator keyComparator(Vector v, SortKey key) {
        int dir = key.descending() ? -1 : 1;
        int nullOrder = key.nullsFirst() ? -1 : 1;
        RowComparator values;
        if (v instanceof LongVector l) {
            long[] x = l.values();
            values = (a, b) -> Long.compare(x[a], x[b]);
        } else if (v instanceof DoubleVector d) {
            double[] x = d.values();
            // SQL orders -0.0 and 0.0 as equal (a tie the next key breaks); Double.compare puts -0.0 first
            values = (a, b) -> x[a] == x[b] ? 0 : Double.compare(x[a], x[b]);
        } else {
            BytesVector s = (BytesVector) v;
            byte[] data = s.data();
            int[] off = s.offsets();
            values = (a, b) -> Arrays.compareUnsigned(data, off[a], off[a + 1], data, off[b], off[b + 1]);
        }
        boolean[] nulls = v.nulls();
        if (nulls == null) {
            return dir == 1 ? values : (a, b) -> -values.compare(a, b);
        }
        return (a, b) -> {
            if (nulls[a] || nulls[b]) {
                return nulls[a] == nulls[b] ? 0 : (nulls[a] ? nullOrder : -nullOrder);
            }
            return dir * values.compare(a, b);
        };
    }

    /** A stable merge sort of {@code a[from .. to)} by {@code cmp}, {@code tmp} as large as {@code a}. */
    static void mergeSort(int[] a, int[] tmp, int from, int to, RowComparator cmp) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && cmp.compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, cmp);
        mergeSort(a, tmp, mid, to, cmp);
        merge(a, tmp, from, mid, to, cmp);
    }

    /** Merges the sorted {@code a[from .. mid)} and {@code a[mid .. to)}, stably, through {@code tmp}. */
    private static void merge(int[] a, int[] tmp, int from, int mid, int to, RowComparator cmp) {
        if (cmp.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && cmp.compare(tmp[i], tmp[j]) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }
}
