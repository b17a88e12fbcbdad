package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The merge of an external sort: sorted runs, each read a batch at a time, merged into one sorted sequence. A run's
 * current batch has its keys encoded once ({@link SortKeyBytes}), so comparing two runs' heads is one unsigned byte
 * comparison whatever the keys; a binary heap of runs picks the least head, ties going to the earlier run. The picks
 * are copied out column by column into batches of {@link Vector#MAX_ROWS} rows.
 */
final class RunMerger {
    private final List<Iterator<Batch>> runs;
    private final List<SortKey> keys;
    private final int columns;
    private final Batch[] current;
    private final BytesVector[] encoded;
    private final int[] position;
    private final int[] heap;
    private int heapSize;
    private final int[] pickRun = new int[Vector.MAX_ROWS];
    private final int[] pickRow = new int[Vector.MAX_ROWS];
    private int picks;

    private RunMerger(List<Iterator<Batch>> runs, List<SortKey> keys, int columns) {
        this.runs = runs;
        this.keys = keys;
        this.columns = columns;
        this.current = new Batch[runs.size()];
        this.encoded = new BytesVector[runs.size()];
        this.position = new int[runs.size()];
        this.heap = new int[runs.size()];
    }

    /** Rows {@code [offset, limit)} of the merged runs. */
    static List<Batch> merge(List<Iterator<Batch>> runs, List<SortKey> keys, List<FerryType> types, long offset,
            long limit, Runnable check) {
        return new RunMerger(runs, keys, types.size()).merge(offset, limit, check);
    }

    private List<Batch> merge(long offset, long limit, Runnable check) {
        for (int r = 0; r < runs.size(); r++) {
            if (advance(r)) {
                push(r);
            }
        }
        List<Batch> out = new ArrayList<>();
        long emitted = 0;
        while (heapSize > 0 && emitted < limit) {
            int r = heap[0];
            if (emitted++ >= offset) {
                pickRun[picks] = r;
                pickRow[picks] = position[r];
                picks++;
            }
            position[r]++;
            if (picks == Vector.MAX_ROWS) {
                out.add(flush());
                check.run();
            }
            if (position[r] < current[r].rowCount()) {
                siftDown(0);
            } else {
                // the picks point into this run's batch: copy them out before it is replaced
                if (picks > 0) {
                    out.add(flush());
                }
                if (advance(r)) {
                    siftDown(0);
                } else {
                    heap[0] = heap[--heapSize];
                    siftDown(0);
                }
            }
        }
        if (picks > 0) {
            out.add(flush());
        }
        return out;
    }

    /** Moves run {@code r} to its next non-empty batch; false when it has none. */
    private boolean advance(int r) {
        Iterator<Batch> it = runs.get(r);
        while (it.hasNext()) {
            Batch b = it.next();
            if (b.rowCount() > 0) {
                Vector[] keyColumns = new Vector[keys.size()];
                for (int k = 0; k < keyColumns.length; k++) {
                    keyColumns[k] = b.column(keys.get(k).column());
                }
                current[r] = b;
                encoded[r] = SortKeyBytes.encode(keyColumns, keys, b.rowCount());
                position[r] = 0;
                return true;
            }
        }
        current[r] = null;
        encoded[r] = null;
        return false;
    }

    private boolean less(int a, int b) {
        BytesVector x = encoded[a];
        BytesVector y = encoded[b];
        int i = position[a];
        int j = position[b];
        int c = Arrays.compareUnsigned(x.data(), x.start(i), x.start(i) + x.length(i), y.data(), y.start(j),
                y.start(j) + y.length(j));
        return c < 0 || c == 0 && a < b;
    }

    private void push(int r) {
        int i = heapSize++;
        heap[i] = r;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(heap[i], heap[parent])) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int from) {
        int i = from;
        while (true) {
            int l = 2 * i + 1;
            if (l >= heapSize) {
                return;
            }
            int least = l + 1 < heapSize && less(heap[l + 1], heap[l]) ? l + 1 : l;
            if (!less(heap[least], heap[i])) {
                return;
            }
            swap(i, least);
            i = least;
        }
    }

    private void swap(int i, int j) {
        int t = heap[i];
        heap[i] = heap[j];
        heap[j] = t;
    }

    private Batch flush() {
        Vector[] cols = new Vector[columns];
        Vector[] sources = new Vector[current.length];
        for (int c = 0; c < columns; c++) {
            for (int r = 0; r < current.length; r++) {
                sources[r] = current[r] == null ? null : current[r].column(c);
            }
            cols[c] = interleave(sources, pickRun, pickRow, picks);
        }
        Batch b = new Batch(picks, cols);
        picks = 0;
        return b;
    }

    /** Row {@code row[i]} of {@code sources[run[i]]} for each {@code i < n}, as one vector. */
    static Vector interleave(Vector[] sources, int[] run, int[] row, int n) {
        boolean anyNulls = false;
        Vector first = null;
        for (Vector v : sources) {
            if (v != null) {
                first = first == null ? v : first;
                anyNulls |= v.nulls() != null;
            }
        }
        boolean[] nulls = anyNulls ? new boolean[n] : null;
        if (anyNulls) {
            for (int i = 0; i < n; i++) {
                nulls[i] = sources[run[i]].isNull(row[i]);
            }
        }
        if (first instanceof LongVector) {
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = ((LongVector) sources[run[i]]).values()[row[i]];
            }
            return new LongVector(out, nulls, n);
        }
        if (first instanceof DoubleVector) {
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = ((DoubleVector) sources[run[i]]).values()[row[i]];
            }
            return new DoubleVector(out, nulls, n);
        }
        int[] offsets = new int[n + 1];
        for (int i = 0; i < n; i++) {
            offsets[i + 1] = offsets[i] + ((BytesVector) sources[run[i]]).length(row[i]);
        }
        byte[] data = new byte[offsets[n]];
        for (int i = 0; i < n; i++) {
            BytesVector s = (BytesVector) sources[run[i]];
            System.arraycopy(s.data(), s.start(row[i]), data, offsets[i], offsets[i + 1] - offsets[i]);
        }
        return new BytesVector(data, offsets, nulls, n);
    }
}
