package io.ferry.core.storage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.Batch;

/**
 * Off-heap home of all blocks of one node: large regions (each under 2 GiB, the limit an RDMA memory region
 * can have) cut into fixed-size slots, one block per slot. Regions are what the fabric registers; a block is
 * named by its region and offset. A block larger than a slot (a row wider than the block size) gets a region
 * of its own.
 */
public final class BlockStore implements BlockStorage, AutoCloseable {
    public static final long MAX_REGION_BYTES = (1L << 31) - (1L << 20);

    private final BufferAllocator allocator;
    private final int blockSize;
    private final int slotsPerRegion;
    private final List<Region> regions = new ArrayList<>();
    private final ArrayDeque<long[]> freeSlots = new ArrayDeque<>();
    private long liveBlocks;
    private long liveBytes;

    /** A registered-memory candidate: one contiguous off-heap buffer. */
    public record Region(int id, ArrowBuf buffer, boolean sharedSlots) {
    }

    public BlockStore(BufferAllocator allocator, int blockSize, long regionBytes) {
        if (blockSize < BlockFormat.headerSize(1) + 64) {
            throw new IllegalArgumentException("block size " + blockSize + " is too small");
        }
        this.allocator = allocator;
        this.blockSize = blockSize;
        long region = Math.min(Math.max(regionBytes, blockSize), MAX_REGION_BYTES);
        this.slotsPerRegion = (int) (region / blockSize);
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    /**
     * Takes a slot (or, for a block larger than a slot, a region of its own) under the store's lock, and encodes the
     * rows into it outside the lock, so that threads loading or restoring tables encode their blocks side by side.
     */
    @Override
    public Block write(BlockWriter writer, Batch batch, int from, int count, ZoneMap zones, int partition,
            Placement placement) {
        long size = writer.sizeOf(batch, from, count);
        Region region;
        long offset;
        synchronized (this) {
            if (size <= blockSize) {
                long[] slot = freeSlots.poll();
                if (slot == null) {
                    region = newRegion((long) slotsPerRegion * blockSize, true);
                    for (int s = slotsPerRegion - 1; s >= 1; s--) {
                        freeSlots.push(new long[] {region.id(), (long) s * blockSize});
                    }
                    offset = 0;
                } else {
                    region = regions.get((int) slot[0]);
                    offset = slot[1];
                }
            } else {
                if (size > MAX_REGION_BYTES) {
                    throw new FerryException(SqlStates.NUMERIC_OUT_OF_RANGE, "a single row needs " + size
                            + " bytes, more than a block can hold");
                }
                region = newRegion(size, false);
                offset = 0;
            }
            liveBlocks++;
        }
        int length;
        try {
            length = writer.write(batch, from, count, region.buffer(), offset, partition);
        } catch (RuntimeException | Error e) {
            free(region, offset, 0);
            throw e;
        }
        synchronized (this) {
            liveBytes += length;
        }
        return new Block(this, region.id(), offset, length, count, region.buffer(), zones, partition,
                new BlockReader(region.buffer(), offset).columnBounds());
    }

    private Region newRegion(long bytes, boolean shared) {
        ArrowBuf buf;
        try {
            buf = allocator.buffer(bytes);
        } catch (org.apache.arrow.memory.OutOfMemoryException e) {
            throw new FerryException(SqlStates.OUT_OF_MEMORY, "storage memory is exhausted (" + allocator.getLimit()
                    + " bytes allowed): drop tables or start Ferry with a larger --memory", e);
        }
        Region r = new Region(regions.size(), buf, shared);
        regions.add(r);
        return r;
    }

    @Override
    public synchronized void free(Block block) {
        free(regions.get(block.regionId()), block.offset(), block.length());
    }

    private synchronized void free(Region region, long offset, int length) {
        liveBlocks--;
        liveBytes -= length;
        if (region.sharedSlots()) {
            freeSlots.push(new long[] {region.id(), offset});
        } else {
            region.buffer().close();
            regions.set(region.id(), new Region(region.id(), allocator.getEmpty(), false));
        }
    }

    public synchronized List<Region> regions() {
        return List.copyOf(regions);
    }

    public synchronized long liveBlocks() {
        return liveBlocks;
    }

    public synchronized long liveBytes() {
        return liveBytes;
    }

    @Override
    public synchronized void close() {
        for (Region r : regions) {
            r.buffer().close();
        }
        regions.clear();
        freeSlots.clear();
    }
}
