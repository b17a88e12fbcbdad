package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;

/**
 * A thread's share of a join's build side, each batch reserved against the query's memory as it arrives (I-Store DPE
 * section 4.2: the build partitions a node streams in must fit it), so a build side too large fails with 53200
 * rather than exhausting the heap. The reservation lasts until {@link #release()}.
 */
public final class BuildSink implements Sink {
    private final List<Batch> batches = new ArrayList<>();
    private final QueryMemory memory;
    private final long perRow;
    private final GraceJoin grace;
    private long reserved;

    /**
     * @param perRow what a row is reckoned to take ({@link #bytesPerRow})
     * @param grace where the rows go when memory runs short (if the memory has a spill directory)
     */
    BuildSink(QueryMemory memory, long perRow, GraceJoin grace) {
        this.memory = memory;
        this.perRow = perRow;
        this.grace = grace;
    }

    /** What a build row of these columns is reckoned to take in memory, hash table included. */
    static long bytesPerRow(List<FerryType> types) {
        return 16L * Math.max(1, types.size());
    }

    @Override
    public void consume(Batch batch) {
        long bytes = perRow * batch.rowCount();
        memory.reserve(bytes);
        reserved += bytes;
        batches.add(batch);
        if (memory.shouldSpill(() -> reserved)) {
            spill();
        }
    }

    /** Moves the rows held to disk ({@link GraceJoin}), giving back their reservation. */
    void spill() {
        grace.spillBuild(batches);
        batches.clear();
        release();
    }

    @Override
    public boolean keepsRows() {
        return true;
    }

    public List<Batch> batches() {
        return batches;
    }

    /** Gives back what the rows reserved: call once the hash table built from them is gone. */
    public void release() {
        memory.release(reserved);
        reserved = 0;
    }
}
