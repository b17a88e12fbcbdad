package io.ferry.fabric;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.SqlStates;

/**
 * Reads a sequence of remote blocks through one peer, keeping up to {@code depth} READs in flight (I-Store
 * section 4.2, figure 5): the reads of the next blocks are posted without waiting, and the stream waits for a
 * block's completion only when the caller asks for that block. Blocks land in a registered staging buffer of
 * {@code depth} slots.
 *
 * <p>Several threads may share a stream: {@link #take()} hands out the blocks in order, each as a {@link Lease}
 * whose bytes stay valid until it is closed; closing it frees the slot, and the next unposted block's read goes
 * into it at once. {@link #next()} is the single-reader form: the block it returns stays valid until the following
 * call. A reader holding a lease must close it before it takes another, or the stream can run out of slots.
 */
public final class BlockStream implements AutoCloseable {
    /**
     * A block in another node's registered memory, or some ranges of it: {@code ranges} holds (from, length) pairs
     * relative to {@code offset}, read one after the other into the block's slot (one READ each), and
     * {@code length} is their sum; null reads {@code length} bytes from {@code offset} in one READ.
     */
    public record BlockRef(RegionDescriptor region, long offset, int length, int[] ranges) {
        public BlockRef(RegionDescriptor region, long offset, int length) {
            this(region, offset, length, null);
        }
    }

    private final Peer peer;
    private final List<BlockRef> blocks;
    private final int slotSize;
    private final Duration timeout;
    private final ArrowBuf staging;
    private final Region region;
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    /** Per block: its staging slot once its read is posted, else -1. */
    private final int[] slotOf;
    /** Per block: its read, from posting until it is handed out. */
    private final CompletableFuture<?>[] reads;
    private int posted;
    private int taken;
    private Lease last;

    /**
     * @param slotSize the largest block's length
     * @param timeout how long one block may take to arrive (or to find a free slot) before the stream fails
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
        this.slotOf = new int[this.blocks.size()];
        Arrays.fill(slotOf, -1);
        this.reads = new CompletableFuture<?>[this.blocks.size()];
        for (int slot = 0; slot < depth; slot++) {
            freeSlots.add(slot);
        }
        synchronized (this) {
            postWhileSlotsAreFree();
        }
    }

    private void postWhileSlotsAreFree() {
        while (!freeSlots.isEmpty() && posted < blocks.size()) {
            int slot = freeSlots.poll();
            BlockRef b = blocks.get(posted);
            slotOf[posted] = slot;
            reads[posted] = read(b, (long) slot * slotSize);
            posted++;
        }
        notifyAll();
    }

    private CompletableFuture<?> read(BlockRef b, long into) {
        if (b.ranges() == null) {
            return peer.read(b.region(), b.offset(), region, into, b.length());
        }
        int[] ranges = b.ranges();
        CompletableFuture<?>[] parts = new CompletableFuture<?>[ranges.length / 2];
        long at = into;
        for (int r = 0; r < ranges.length; r += 2) {
            parts[r / 2] = peer.read(b.region(), b.offset() + ranges[r], region, at, ranges[r + 1]);
            at += ranges[r + 1];
        }
        return parts.length == 1 ? parts[0] : CompletableFuture.allOf(parts);
    }

    /** Reads posted and not yet handed out. */
    public synchronized int inFlight() {
        return posted - taken;
    }

    /** How many blocks the stream reads in all. */
    public int size() {
        return blocks.size();
    }

    /**
     * The next block, waiting until its bytes have landed; null after the last block. Close the lease when done
     * with the bytes.
     */
    public Lease take() {
        int index;
        CompletableFuture<?> read;
        synchronized (this) {
            if (taken == blocks.size()) {
                return null;
            }
            index = taken++;
            long deadline = System.nanoTime() + timeout.toNanos();
            while (slotOf[index] < 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw FabricException.timedOut("finding a free staging slot for block " + index + " from "
                            + blocks.get(index).region().node(), timeout);
                }
                try {
                    wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new FabricException(SqlStates.QUERY_CANCELED, "interrupted while waiting for block "
                            + index);
                }
            }
            read = reads[index];
        }
        BlockRef b = blocks.get(index);
        Completions.await(read, timeout, "reading block " + index + " (" + b.length() + " bytes) from "
                + b.region().node());
        synchronized (this) {
            reads[index] = null;
        }
        return new Lease(index, slotOf[index]);
    }

    /** The next block's bytes, or null after the last block; valid until the following call. Single reader only. */
    public ArrowBuf next() {
        if (last != null) {
            last.close();
        }
        last = take();
        return last == null ? null : last.bytes();
    }

    private synchronized void release(int slot) {
        freeSlots.add(slot);
        postWhileSlotsAreFree();
    }

    /**
     * Deregisters the staging buffer first, so a read still in flight can no longer land in it (providers drop
     * or fail operations on deregistered regions), waits for those reads to end, then frees the buffer.
     */
    @Override
    public void close() {
        try {
            region.close();
            List<CompletableFuture<?>> pending = new ArrayList<>();
            synchronized (this) {
                for (CompletableFuture<?> f : reads) {
                    if (f != null) {
                        pending.add(f);
                    }
                }
            }
            for (CompletableFuture<?> f : pending) {
                try {
                    Completions.await(f, timeout, "draining a block read");
                } catch (FabricException e) {
                    // Abandoned reads may fail now that their target is deregistered; that is expected.
                }
            }
        } finally {
            staging.close();
        }
    }

    /** One block handed out by {@link #take()}: its bytes stay valid until {@link #close()}. */
    public final class Lease implements AutoCloseable {
        private final int index;
        private final int slot;
        private boolean closed;

        private Lease(int index, int slot) {
            this.index = index;
            this.slot = slot;
        }

        /** The block's position in the stream's list. */
        public int index() {
            return index;
        }

        public ArrowBuf bytes() {
            return staging.slice((long) slot * slotSize, blocks.get(index).length());
        }

        /** Frees the block's slot for the next read. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                release(slot);
            }
        }
    }
}
