package io.ferry.core.storage;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.ArrowBuf;

/**
 * One block of a table, living in a slot of a {@link BlockStore} region. Reference-counted: every table version
 * that lists the block holds one reference, and the slot returns to the store when the last one goes.
 */
public final class Block {
    private final BlockStore store;
    private final BlockStore.Region region;
    private final long offset;
    private final int length;
    private final int rows;
    private final AtomicInteger refs = new AtomicInteger(1);

    Block(BlockStore store, BlockStore.Region region, long offset, int length, int rows) {
        this.store = store;
        this.region = region;
        this.offset = offset;
        this.length = length;
        this.rows = rows;
    }

    /** The region's buffer; the block starts at {@link #offset()}. */
    public ArrowBuf buffer() {
        return region.buffer();
    }

    public int regionId() {
        return region.id();
    }

    public long offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    public int rowCount() {
        return rows;
    }

    public BlockReader reader() {
        return new BlockReader(region.buffer(), offset);
    }

    public Block retain() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException("block already released");
        }
        return this;
    }

    public void release() {
        int left = refs.decrementAndGet();
        if (left == 0) {
            store.free(this, region);
        } else if (left < 0) {
            throw new IllegalStateException("block released twice");
        }
    }
}
