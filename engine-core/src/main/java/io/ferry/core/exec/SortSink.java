package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;

/**
 * Collects a thread's rows for a sort, reserved against the query's memory; with a LIMIT, keeps only its best
 * {@code limit} rows as it goes (top-N).
 */
public final class SortSink implements Sink {
    private final List<SortKey> keys;
    private final List<FerryType> types;
    private final long limit;
    private final QueryMemory memory;
    private List<Batch> batches = new ArrayList<>();
    private long rows;
    private long reserved;

    /** @param limit the rows the sort keeps at most (offset and fetch), or Long.MAX_VALUE */
    public SortSink(List<SortKey> keys, List<FerryType> types, long limit, QueryMemory memory) {
        this.keys = keys;
        this.types = types;
        this.limit = limit;
        this.memory = memory;
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
        }
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
