package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;

/**
 * Rows split by a hash of their key columns into {@link #PARTS} spill files, so that each part can later be
 * processed on its own within the query's memory: equal keys always land in one part (the partitioned hash
 * aggregation and hash join of out-of-core engines, as DuckDB's). A part that is still too large is split again one
 * {@code level} deeper, by a differently mixed hash ({@link HashPartitioner}).
 */
final class SpillPartitions {
    static final int PARTS = 32;
    /** Rows a part collects before they are written as one chunk: a chunk has a fixed cost (its Arrow stream). */
    private static final int CHUNK_ROWS = 16_384;

    private final SpillSpace space;
    private final List<FerryType> types;
    private final HashPartitioner partitioner;
    private final SpillFile[] files = new SpillFile[PARTS];
    private final List<List<Batch>> pending = new ArrayList<>();
    private final long[] pendingRows = new long[PARTS];

    SpillPartitions(SpillSpace space, List<FerryType> types, int[] keys, int level) {
        this.space = space;
        this.types = types;
        this.partitioner = new HashPartitioner(keys, PARTS, level);
        for (int p = 0; p < PARTS; p++) {
            pending.add(new ArrayList<>());
        }
    }

    /** Adds each part's rows of {@code batches} to its file, a chunk at a time. */
    void add(List<Batch> batches) {
        List<List<Batch>> split = partitioner.split(batches);
        for (int p = 0; p < PARTS; p++) {
            List<Batch> rows = split.get(p);
            if (rows.isEmpty()) {
                continue;
            }
            List<Batch> chunk = null;
            synchronized (this) {
                pending.get(p).addAll(rows);
                pendingRows[p] += Batch.totalRows(rows);
                if (pendingRows[p] >= CHUNK_ROWS) {
                    chunk = take(p);
                }
            }
            if (chunk != null) {
                file(p).append(chunk);
            }
        }
    }

    private List<Batch> take(int p) {
        List<Batch> chunk = new ArrayList<>(pending.get(p));
        pending.get(p).clear();
        pendingRows[p] = 0;
        return chunk;
    }

    private synchronized SpillFile file(int p) {
        if (files[p] == null) {
            files[p] = space.create(types);
        }
        return files[p];
    }

    /** Part {@code p}'s file with every row added so far, or null when no row went there; call once adding ended. */
    SpillFile part(int p) {
        List<Batch> chunk;
        synchronized (this) {
            chunk = take(p);
        }
        if (!chunk.isEmpty()) {
            file(p).append(chunk);
        }
        synchronized (this) {
            return files[p];
        }
    }

    synchronized void delete() {
        for (int p = 0; p < PARTS; p++) {
            pending.get(p).clear();
            SpillFile f = files[p];
            if (f != null) {
                f.delete();
            }
        }
    }
}
