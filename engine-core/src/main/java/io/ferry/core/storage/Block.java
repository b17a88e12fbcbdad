package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.arrow.memory.ArrowBuf;

/**
 * One block of a table: {@code length} bytes at {@code offset} of region {@code regionId} of its
 * {@link BlockStorage}. The region is in this node's memory ({@link #isLocal()}: {@link #buffer()} holds it) or in
 * another node's, where the storage knows how to reach it. Reference-counted: every table version that lists the
 * block holds one reference, and the space returns to the storage when the last one goes.
 */
public final class Block {
    private final BlockStorage storage;
    private final int regionId;
    private final long offset;
    private final int length;
    private final int rows;
    private final ArrowBuf buffer;
    private final ZoneMap zones;
    private final int partition;
    private final int[] bounds;
    private final AtomicInteger refs = new AtomicInteger(1);

    /**
     * @param buffer the region's buffer when it is in this node's memory, else null
     * @param zones  the zone map of the block's rows
     * @param partition the table partition its rows belong to ({@link PartitionScheme}; 0 when unpartitioned)
     * @param bounds where its header and columns end ({@link BlockReader#columnBounds()})
     */
    public Block(BlockStorage storage, int regionId, long offset, int length, int rows, ArrowBuf buffer,
            ZoneMap zones, int partition, int[] bounds) {
        this.storage = requireNonNull(storage, "storage is null");
        this.regionId = regionId;
        this.offset = offset;
        this.length = length;
        this.rows = rows;
        this.buffer = buffer;
        this.zones = requireNonNull(zones, "zones is null");
        this.partition = partition;
        this.bounds = bounds.clone();
        if (bounds[bounds.length - 1] != length) {
            throw new IllegalArgumentException("column bounds end at " + bounds[bounds.length - 1] + " in a block of "
                    + length + " bytes");
        }
        if (zones.rowCount() != rows) {
            throw new IllegalArgumentException("a block of " + rows + " rows with the zone map of " + zones.rowCount());
        }
    }

    public boolean isLocal() {
        return buffer != null;
    }

    /** The region's buffer (the block starts at {@link #offset()}); only for a block in this node's memory. */
    public ArrowBuf buffer() {
        if (buffer == null) {
            throw new IllegalStateException("block " + regionId + ":" + offset + " lives on another node");
        }
        return buffer;
    }

    public int regionId() {
        return regionId;
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

    /** Per column, the NULL count and value range of the block's rows: what a scan skips the block by. */
    public ZoneMap zones() {
        return zones;
    }

    /** The table partition the block's rows belong to (0 for an unpartitioned table). */
    public int partition() {
        return partition;
    }

    /** Where its header and each column end, from the block's start ({@link BlockReader#columnBounds()}). */
    public int[] columnBounds() {
        return bounds.clone();
    }

    /** The bytes a scan of {@code columns} reads of this block when it is on another node ({@link BlockFormat#readRanges}). */
    public int readBytes(int[] columns) {
        return BlockFormat.rangeBytes(BlockFormat.readRanges(bounds, columns));
    }

    /** Reads the block in place; only for a block in this node's memory. */
    public BlockReader reader() {
        return new BlockReader(buffer(), offset);
    }

    /**
     * Hands a reader of the block to {@code use}: in place for a block in this node's memory, else over a copy its
     * storage reads back, valid only while {@code use} runs.
     */
    public void read(Consumer<BlockReader> use) {
        if (isLocal()) {
            use.accept(reader());
        } else {
            storage.readBack(this, use);
        }
    }

    /** Where the block lives, as a later process can adopt it ({@link BlockStorage#address}); null if it dies with this one. */
    public String address() {
        return storage.address(this);
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
            storage.free(this);
        } else if (left < 0) {
            throw new IllegalStateException("block released twice");
        }
    }
}
