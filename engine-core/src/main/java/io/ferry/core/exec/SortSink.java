package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
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
     * @param spill where sorted runs go when memory runs short; null or disabled: nowhere
     */
    public SortSink(List<SortKey> keys, List<FerryType> types, long limit, QueryMemory memory, SpillSpace spill) {
        this.keys = keys;
        this.types = types;
        this.limit = limit;
        this.memory = memory;
        this.spill = spill != null && spill.enabled() ? spill : null;
    }

    @Override
    public void consume(Batch batch) {
        batches.add(batch);
        rows += batch.rowCount();
        long bytes = 16L * batch.rowCount() * Math.max(1, types.size());
        memory.reserve(bytes);
        reserved += bytes;
        if (limit < Integer.MAX_VALUE && rows > Math.max(2 * limit, 8192)) {
            Batch merged = BatchConcat.concat(batches, types);
            int[] order = Sorter.order(merged, keys);
            int keep = (int) Math.min(limit, order.length);
            Batch top = merged.gather(Arrays.copyOf(order, keep), keep);
            batches = new ArrayList<>(List.of(top));
            rows = keep;
        } else if (spill != null && memory.shouldSpill(reserved)) {
            SpillFile run = spill.create(types);
            List<Batch> chunk = new ArrayList<>();
            for (Batch b : sorted()) {
                chunk.add(b);
                if (chunk.size() == 16) {
                    run.append(chunk);
                    chunk.clear();
                }
            }
            run.append(chunk);
            runs.add(run);
            batches = new ArrayList<>();
            rows = 0;
            memory.release(reserved);
            reserved = 0;
        }
    }

    /** The rows held (the best {@code limit}), sorted, in batches of at most {@link Vector#MAX_ROWS} rows. */
    List<Batch> sorted() {
        if (rows == 0) {
            return List.of();
        }
        Batch merged = BatchConcat.concat(batches, types);
        int keep = (int) Math.min(limit, merged.rowCount());
        Batch sorted = merged.gather(Sorter.order(merged, keys), keep);
        List<Batch> out = new ArrayList<>();
        for (int from = 0; from < sorted.rowCount(); from += Vector.MAX_ROWS) {
            out.add(sorted.slice(from, Vector.MAX_ROWS));
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
