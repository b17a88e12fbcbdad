package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;
import io.ferry.core.vector.Vector;

/**
 * Collects a thread's rows for a sort, reserved against the query's memory; with a LIMIT, keeps only its best
 * {@code limit} rows as it goes (top-N). When the query's memory runs short, it sorts what it holds and writes it (its
 * best {@code limit} rows) to disk as a sorted run, and starts again empty: the runs are merged at the end
 * ({@link RunMerger}), an external merge sort.
 */
public final class SortSink implements Sink {
    /** Rows per chunk of a run on disk, and per batch of a run merged: one chunk of each run is read at a time. */
    private static final int RUN_BATCH_ROWS = 16 * Vector.MAX_ROWS;

    private final List<SortKey> keys;
    private final List<FerryType> types;
    private final long limit;
    private final QueryMemory memory;
    private final SpillSpace spill;
    private final List<SpillFile> runs = new ArrayList<>();
    private List<Batch> batches = new ArrayList<>();
    private long rows;
    private long reserved;

    /**
     * @param limit the rows the sort keeps at most (offset and fetch), or Long.MAX_VALUE
     * @param spill where sorted runs go when memory runs short (if the memory has a spill directory)
     */
    public SortSink(List<SortKey> keys, List<FerryType> types, long limit, QueryMemory memory, SpillSpace spill) {
        this.keys = keys;
        this.types = types;
        this.limit = limit;
        this.memory = memory;
        this.spill = spill;
    }

    @Override
    public void consume(Batch batch) {
        batches.add(batch);
        rows += batch.rowCount();
        long bytes = 16L * batch.rowCount() * Math.max(1, types.size());
        memory.reserve(bytes);
        reserved += bytes;
        if (limit < Integer.MAX_VALUE && rows > Math.max(2 * limit, 8192)) {
            Batch top = best();
            batches = new ArrayList<>(List.of(top));
            rows = top.rowCount();
        } else if (memory.shouldSpill(() -> reserved)) {
            SpillFile run = spill.create(types);
            for (Batch b : sorted()) {
                run.append(List.of(b));
            }
            runs.add(run);
            batches = new ArrayList<>();
            rows = 0;
            memory.release(reserved);
            reserved = 0;
        }
    }

    /** The rows held, sorted, the best {@code limit} of them. */
    private Batch best() {
        Batch merged = BatchConcat.concat(batches, types);
        int keep = (int) Math.min(limit, merged.rowCount());
        return merged.gather(Sorter.order(merged, keys), keep);
    }

    /** {@link #best} as a sorted run, in batches of at most {@link #RUN_BATCH_ROWS} rows. */
    List<Batch> sorted() {
        if (rows == 0) {
            return List.of();
        }
        Batch sorted = best();
        List<Batch> out = new ArrayList<>();
        for (int from = 0; from < sorted.rowCount(); from += RUN_BATCH_ROWS) {
            out.add(sorted.slice(from, RUN_BATCH_ROWS));
        }
        return out;
    }

    /** The sorted runs written to disk, in the order they were written. */
    public List<SpillFile> runs() {
        return runs;
    }

    @Override
    public boolean keepsRows() {
        return true;
    }

    /** The rows kept, their reservation given back. */
    public List<Batch> drain() {
        memory.release(reserved);
        reserved = 0;
        return batches;
    }
}
