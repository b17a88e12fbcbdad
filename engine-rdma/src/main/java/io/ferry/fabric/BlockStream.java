package io.ferry.fabric;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Reads a sequence of remote blocks through one peer, keeping up to {@code depth} READs in flight (I-Store
 * section 4.2, figure 5): the reads of the next blocks are posted without waiting, and the stream waits for a
 * block's completion only when the caller asks for that block. Blocks land in a registered staging buffer of
 * {@code depth} slots; the block {@link #next()} returns stays valid until the following call, when its slot is
 * reused for the block {@code depth} places further on.
 */
public final class BlockStream implements AutoCloseable {
    /** A block in another node's registered memory. */
    public record BlockRef(RegionDescriptor region, long offset, int length) {
    }

    private final Peer peer;
    private final List<BlockRef> blocks;
    private final int depth;
    private final int slotSize;
    private final Duration timeout;
    private final ArrowBuf staging;
    private final Region region;
    private final CompletableFuture<?>[] inFlight;
    private int posted;
    private int returned;

    /**
     * @param slotSize the largest block's length
     * @param timeout how long one block may take to arrive before the stream fails
     */
    public BlockStream(Fabric fabric, Peer peer, BufferAllocator allocator, List<BlockRef> blocks, int depth,
            int slotSize, Duration timeout) {
        if (depth < 1) {
            throw new IllegalArgumentException("prefetch depth must be at least 1, got " + depth);
        }
        for (BlockRef b : blocks) {
            if (b.length() > slotSize) {
                throw new IllegalArgumentException("block of " + b.length() + " bytes exceeds the slot size " + slotSize);
            }
        }
        this.peer = peer;
        this.blocks = List.copyOf(blocks);
        this.depth = depth;
        this.slotSize = slotSize;
        this.timeout = timeout;
        long bytes = (long) depth * slotSize;
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("staging of " + depth + " x " + slotSize + " bytes exceeds 2 GiB");
        }
        this.staging = allocator.buffer(bytes);
        Region r;
        try {
            r = fabric.register(staging, 0, (int) bytes);
        } catch (RuntimeException e) {
            staging.close();
            throw e;
        }
        this.region = r;
        this.inFlight = new CompletableFuture<?>[depth];
        while (posted < Math.min(depth, this.blocks.size())) {
            post();
        }
    }

    private void post() {
        BlockRef b = blocks.get(posted);
        inFlight[posted % depth] = peer.read(b.region(), b.offset(), region, (long) (posted % depth) * slotSize,
                b.length());
        posted++;
    }

    /** Reads posted and not yet handed out. */
    public int inFlight() {
        return posted - returned;
    }

    /** The next block's bytes, or null after the last block. */
    public ArrowBuf next() {
        if (returned > 0 && posted < blocks.size()) {
            post(); // the slot of the block handed out last is free again
        }
        if (returned == blocks.size()) {
            return null;
        }
        int slot = returned % depth;
        BlockRef b = blocks.get(returned);
        Completions.await(inFlight[slot], timeout, "reading block " + returned + " (" + b.length() + " bytes) from "
                + b.region().node());
        inFlight[slot] = null;
        returned++;
        return staging.slice((long) slot * slotSize, b.length());
    }

    /**
     * Deregisters the staging buffer first, so a read still in flight can no longer land in it (providers drop
     * or fail operations on deregistered regions), waits for those reads to end, then frees the buffer.
     */
    @Override
    public void close() {
        try {
            region.close();
            for (CompletableFuture<?> f : inFlight) {
                if (f != null) {
                    try {
                        Completions.await(f, timeout, "draining a block read");
                    } catch (FabricException e) {
                        // Abandoned reads may fail now that their target is deregistered; that is expected.
                    }
                }
            }
        } finally {
            staging.close();
        }
    }
}
