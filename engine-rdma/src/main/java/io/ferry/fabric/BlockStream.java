package io.ferry.fabric;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.SqlStates;

/**
 * Reads a sequence of remote blocks, keeping up to {@code depth} READs in flight (I-Store section 4.2, figure 5): the
 * reads of the next blocks are posted without waiting, and the stream waits for a block's completion only when the
 * caller asks for that block. Blocks land in a registered staging buffer of {@code depth} slots.
 *
 * <p>The blocks come from a {@link BlockFeed}, pulled one at a time as slots free up: a fixed list, or blocks
 * claimed from work queues as the stream goes (I-Store skew paper section 4), each from whichever node holds it. A
 * block still being claimed holds its slot, and its read is posted when the claim lands: a freed slot never makes a
 * reader wait for a round trip while other blocks have landed.
 *
 * <p>Several threads may share a stream: {@link #take()} hands out the blocks in order, each as a {@link Lease}
 * whose bytes stay valid until it is closed; closing it frees the slot, and the next block's read goes into it at
 * once. {@link #next()} is the single-reader form: the block it returns stays valid until the following call. A
 * reader holding a lease must close it before it takes another, or the stream can run out of slots.
 */
public final class BlockStream implements AutoCloseable {
    /**
     * A block in another node's registered memory, or some ranges of it: {@code ranges} holds (from, length) pairs
     * relative to {@code offset}, read one after the other into the block's slot (one READ each), and
     * {@code length} is their sum; null reads {@code length} bytes from {@code offset} in one READ. {@code tag} is
     * the feed's name for the block, handed back with it ({@link Lease#tag()}). A block in this node's own memory
     * ({@link #inPlace}) is not read at all: its lease hands out its bytes where they are.
     */
    public record BlockRef(RegionDescriptor region, long offset, int length, int[] ranges, int tag, ArrowBuf local) {
        public BlockRef(RegionDescriptor region, long offset, int length, int[] ranges, int tag) {
            this(region, offset, length, ranges, tag, null);
        }

        public BlockRef(RegionDescriptor region, long offset, int length) {
            this(region, offset, length, null, -1, null);
        }

        /**
         * The {@code length} bytes at {@code offset} of {@code bytes}, memory of this node: handed out in place,
         * without a read or a copy (I-Store's local-access optimization). The stream does not own {@code bytes}.
         */
        public static BlockRef inPlace(ArrowBuf bytes, long offset, int length, int tag) {
            return new BlockRef(null, offset, length, null, tag, bytes);
        }

        /** Where the block is, for messages. */
        String where() {
            return local != null ? "this node's memory" : region.node().toString();
        }
    }

    /**
     * Where a stream's blocks come from, pulled one at a time as staging slots free up. A block may be known only
     * later (claimed from a work queue over the network): the stream reserves the slot, and posts the block's read
     * when its future completes, so the readers go on with the blocks that have landed meanwhile.
     */
    @FunctionalInterface
    public interface BlockFeed {
        /**
         * The next block to read, or a null result when there are no more; once one result is null, every later
         * one is too. The futures may complete in any order: the stream hands the blocks out in the order it asked.
         */
        CompletableFuture<BlockRef> next();

        /** The blocks of {@code blocks} in order, each tagged with its index. */
        static BlockFeed of(List<BlockRef> blocks) {
            java.util.Iterator<BlockRef> it = blocks.iterator();
            int[] index = {0};
            return () -> {
                if (!it.hasNext()) {
                    return CompletableFuture.completedFuture(null);
                }
                BlockRef b = it.next();
                return CompletableFuture.completedFuture(new BlockRef(b.region(), b.offset(), b.length(), b.ranges(),
                        index[0]++, b.local()));
            };
        }
    }

    private final Function<NodeAddress, Peer> peers;
    private final BlockFeed feed;
    private final int slotSize;
    private final Duration timeout;
    private final ArrowBuf staging;
    private final Region region;
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    /** The blocks asked of the feed, in order: each known once its future completes, null after the last. */
    private final List<CompletableFuture<BlockRef>> blocks = new ArrayList<>();
    /** Per block posted: its staging slot. */
    private final List<Integer> slotOf = new ArrayList<>();
    /** Per block asked for: its read once the block is known, from then until it is handed out. */
    private final List<CompletableFuture<?>> reads = new ArrayList<>();
    /** Whether the feed is known to have no more blocks (or the stream is closed): it is not asked again. */
    private boolean fed;
    private int taken;
    private Lease last;

    /**
     * @param slotSize the largest block's length
     * @param timeout how long one block may take to arrive (or to find a free slot) before the stream fails
     */
    public BlockStream(Fabric fabric, Peer peer, BufferAllocator allocator, List<BlockRef> blocks, int depth,
            int slotSize, Duration timeout) {
        this(fabric, node -> peer, allocator, BlockFeed.of(checked(blocks, slotSize)), depth, slotSize, timeout);
    }

    /**
     * @param peers    the peer to read a block through, by the node that holds it
     * @param slotSize the largest block the feed may give
     * @param timeout  how long one block may take to arrive (or to find a free slot) before the stream fails
     */
    public BlockStream(Fabric fabric, Function<NodeAddress, Peer> peers, BufferAllocator allocator, BlockFeed feed,
            int depth, int slotSize, Duration timeout) {
        if (depth < 1) {
            throw new IllegalArgumentException("prefetch depth must be at least 1, got " + depth);
        }
        this.peers = peers;
        this.feed = feed;
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
        for (int slot = 0; slot < depth; slot++) {
            freeSlots.add(slot);
        }
        try {
            synchronized (this) {
                postWhileSlotsAreFree();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static List<BlockRef> checked(List<BlockRef> blocks, int slotSize) {
        for (BlockRef b : blocks) {
            if (b.length() > slotSize) {
                throw new IllegalArgumentException("block of " + b.length() + " bytes exceeds the slot size " + slotSize);
            }
        }
        return List.copyOf(blocks);
    }

    private void postWhileSlotsAreFree() {
        while (!freeSlots.isEmpty() && !fed) {
            CompletableFuture<BlockRef> b = feed.next();
            if (b.isDone() && !b.isCompletedExceptionally() && b.join() == null) {
                fed = true;
                break;
            }
            int slot = freeSlots.poll();
            long into = (long) slot * slotSize;
            blocks.add(b);
            slotOf.add(slot);
            reads.add(b.thenCompose(ref -> ref == null ? CompletableFuture.completedFuture(null) : read(ref, into)));
        }
        notifyAll();
    }

    private CompletableFuture<?> read(BlockRef b, long into) {
        if (b.local() != null) {
            return CompletableFuture.completedFuture(null);
        }
        if (b.length() > slotSize) {
            throw new IllegalArgumentException("block of " + b.length() + " bytes exceeds the slot size " + slotSize);
        }
        Peer peer = peers.apply(b.region().node());
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
        return blocks.size() - taken;
    }

    /**
     * The next block, waiting until its bytes have landed; null after the last block. Close the lease when done
     * with the bytes.
     */
    public Lease take() {
        int index;
        CompletableFuture<?> read;
        CompletableFuture<BlockRef> block;
        synchronized (this) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (taken == blocks.size()) {
                if (fed) {
                    return null;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw FabricException.timedOut("finding a free staging slot for block " + taken, timeout);
                }
                try {
                    wait(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new FabricException(SqlStates.QUERY_CANCELED, "interrupted while waiting for block "
                            + taken);
                }
            }
            index = taken++;
            read = reads.get(index);
            block = blocks.get(index);
        }
        BlockRef known = block.getNow(null);
        Completions.await(read, timeout, "reading block " + index + (known == null ? "" : " (" + known.length()
                + " bytes) from " + known.where()));
        BlockRef b = block.join();
        synchronized (this) {
            reads.set(index, null);
            if (b == null) {
                // the feed's end, found after its slot was reserved: every later block is null too
                fed = true;
                taken = blocks.size();
                notifyAll();
                return null;
            }
            return new Lease(index, slotOf.get(index), b);
        }
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
                fed = true; // nothing more is pulled from the feed
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
        private final BlockRef block;
        private boolean closed;

        private Lease(int index, int slot, BlockRef block) {
            this.index = index;
            this.slot = slot;
            this.block = block;
        }

        /** The block's position in the stream: the how-manyth block the feed gave. */
        public int index() {
            return index;
        }

        /** The ranges of the block that were read, one after the other; null when it was read whole. */
        public int[] ranges() {
            return block.ranges();
        }

        /** The feed's tag of the block (for a list, its index in the list). */
        public int tag() {
            return block.tag();
        }

        public ArrowBuf bytes() {
            return block.local() != null ? block.local().slice(block.offset(), block.length())
                    : staging.slice((long) slot * slotSize, block.length());
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
