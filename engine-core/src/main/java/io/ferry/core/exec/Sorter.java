package io.ferry.core.exec;

import java.util.Arrays;
import java.util.List;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** Sorts the rows of a batch by ORDER BY keys: a stable merge sort of row indices, no boxing. */
final class Sorter {
    private Sorter() {
    }

    interface RowComparator {
        int compare(int a, int b);
    }

    static int[] order(Batch batch, List<SortKey> keys) {
        int n = batch.rowCount();
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        RowComparator cmp = comparator(batch, keys);
        mergeSort(idx, new int[n], 0, n, cmp);
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
