package io.ferry.core.storage;

import io.ferry.core.vector.Batch;

/**
 * Where a node's tables keep their blocks: this node's own memory ({@link BlockStore}), or, on a cluster's
 * coordinator, slots in the memory of memory servers and workers.
 */
public interface BlockStorage {
    /** Bytes per block. */
    int blockSize();

    /**
     * Writes rows {@code [from, from + count)} of a batch as a new block, holding one reference, with {@code zones}
     * their zone map; the rows are of table partition {@code partition}, placed as {@code placement} says.
     */
    Block write(BlockWriter writer, Batch batch, int from, int count, ZoneMap zones, int partition,
            Placement placement);

    /** Takes back a block's space once its last reference is gone. */
    void free(Block block);
}
