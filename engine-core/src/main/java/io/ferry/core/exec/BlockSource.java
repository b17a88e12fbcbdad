package io.ferry.core.exec;

import io.ferry.core.storage.BlockReader;

/**
 * The blocks one scan reads in one execution, cut into morsels (one block each) that threads claim one at a time.
 * A source is bound by the query's {@link ScanBinder} and closed when the query ends.
 */
public interface BlockSource extends AutoCloseable {
    /** How many blocks this source hands out. */
    int blockCount();

    /**
     * Hands one block to {@code visitor}. Which block a morsel yields may depend on the order in which threads ask
     * (a prefetching stream hands out blocks in arrival order); every block is handed out exactly once over all
     * morsels.
     */
    void read(int morsel, BlockVisitor visitor);

    /**
     * True when a block's bytes are valid only during {@link #read} (a staging slot reused for the next block): the
     * executor then decodes whatever rows it keeps before the call returns.
     */
    default boolean transientBytes() {
        return false;
    }

    /**
     * Which blocks of {@code [from, to)} the threads read, as they ask: each morsel in the range once, unless the
     * source hands out work of its own accord (blocks claimed from work queues, where other nodes may take some of
     * this node's blocks and this node some of theirs, I-Store skew paper section 4); then the range is ignored and
     * every morsel the claims return is read.
     */
    default MorselClaims claims(int from, int to) {
        return MorselClaims.range(from, to);
    }

    @Override
    void close();

    /** Receives one block. */
    @FunctionalInterface
    interface BlockVisitor {
        /**
         * @param position the block's position in its table: sampling keys on it, so a sample does not depend on
         *                 where or in which order blocks are read
         */
        void visit(int position, BlockReader reader);
    }
}
