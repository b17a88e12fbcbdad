package io.ferry.core.storage;

import java.util.function.Consumer;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.TableSchema;
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

    /** Reads a block that is not in this node's memory back into a buffer of its own, and hands a reader of it to {@code use}. */
    default void readBack(Block block, Consumer<BlockReader> use) {
        throw new IllegalStateException("block " + block.regionId() + ":" + block.offset() + " is not in a storage "
                + "that reads blocks back");
    }

    /**
     * Where {@code block} lives, as text from which a later process, after this one died, can {@linkplain #adopt
     * adopt} it where it is: blocks in other nodes' memory outlive the coordinator that placed them. Null for a
     * block that dies with this process (the default: this node's own memory).
     */
    default String address(Block block) {
        return null;
    }

    /**
     * Takes the block at {@code address} (what {@link #address} said of it in an earlier process) as a block of this
     * storage, holding one reference, after reading it back and checking that it is whole and the same block (its
     * CRC32C); its rows, decoded as columns of {@code schema}, are handed to {@code rows} (a restored table's
     * statistics and keys are gathered from them). Fails with a {@link FerryException} when the block is not there
     * any more (its node restarted and lost its memory, or is not back): the caller reads its rows from disk instead.
     */
    default Block adopt(String address, TableSchema schema, Consumer<Batch> rows) {
        throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "this storage adopts no blocks");
    }

    /**
     * The restore adopted every block it could ({@link #adopt}): what is left of the regions they are in may hold new
     * blocks from now on, such as the rows of files whose blocks were gone.
     */
    default void adopted() {
    }
}
