package io.ferry.server.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.exec.BlockSource;
import io.ferry.core.exec.MorselClaims;
import io.ferry.core.storage.BlockFormat;
import io.ferry.core.storage.BlockReader;
import io.ferry.fabric.BlockStream;
import io.ferry.fabric.NodeAddress;
import io.ferry.server.cluster.Peers;

/**
 * The blocks of a scan whose work is shared through {@link WorkQueues}: a block is read only once this node has
 * claimed it, from its own queue or by stealing from another's (I-Store skew paper section 4), so a node that
 * finishes early takes work from a straggler instead of waiting for it. Claims are made ahead of the threads, as
 * the prefetching stream frees a slot, and asynchronously, one at a time: a slot waits for its claim and then its
 * read while the threads work on the blocks that have landed, so stealing costs no round trip the scan waits for
 * (under a CPU quota, a claim's reply can wait for the node's next period). Each block is read from whichever
 * node holds it, only the columns the scan needs — or, on a worker, run in place when it is the worker's own.
 */
public final class StealingBlockSource implements BlockSource {
    private final List<BlockLocation> blocks;
    private final int[] columns;
    private final WorkQueues queues;
    /** The bytes of a block in this node's own memory, or null: such a block is run in place, not read. */
    private final Function<BlockLocation, ArrowBuf> localBytes;
    private final BlockStream stream;
    /** Blocks claimed, landed and handed to a thread, until it reads them: by block index. */
    private final Map<Integer, BlockStream.Lease> taken = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Integer> claimed = new ConcurrentLinkedQueue<>();
    /** The stream's slots waiting for a block, in the order the stream asked: each gets the next claim. */
    private final ArrayDeque<CompletableFuture<BlockStream.BlockRef>> waiting = new ArrayDeque<>();
    /** Whether a claim is in flight (claims go one at a time), and whether the queues turned out empty. */
    private boolean claiming;
    private boolean drained;

    /**
     * @param blocks     every block of the scan, on every node: the queues' elements index it
     * @param localBytes the bytes of a block in this node's memory (a worker's), or null if the block is not here:
     *                   such a block, claimed, is run where it is (I-Store's local-access optimization)
     */
    public StealingBlockSource(List<BlockLocation> blocks, int[] columns, WorkQueues queues,
            Function<BlockLocation, ArrowBuf> localBytes, Peers peers, BufferAllocator allocator, int depth,
            Duration timeout) {
        this.blocks = List.copyOf(blocks);
        this.columns = columns;
        this.queues = queues;
        this.localBytes = localBytes;
        int slot = 1;
        Set<NodeAddress> holders = new HashSet<>();
        for (BlockLocation b : blocks) {
            slot = Math.max(slot, b.readBytes(columns));
            holders.add(b.region().node());
        }
        // connected here, not on first use: a claim lands on a network thread, which posts the block's read and
        // must not wait there for a connection that thread itself would have to make
        holders.remove(peers.fabric().address());
        holders.forEach(peers::get);
        this.stream = new BlockStream(peers.fabric(), peers::get, allocator, this::claimNext, depth, slot, timeout);
    }

    /** The stream's next block: the next element this node claims, as a future. */
    private CompletableFuture<BlockStream.BlockRef> claimNext() {
        CompletableFuture<BlockStream.BlockRef> slot = new CompletableFuture<>();
        synchronized (this) {
            if (!drained) {
                waiting.add(slot);
                claimMore();
                return slot;
            }
        }
        slot.complete(null);
        return slot;
    }

    private synchronized void claimMore() {
        if (!claiming && !waiting.isEmpty()) {
            claiming = true;
            queues.claimAsync().whenComplete(this::landed);
        }
    }

    /** A claim's result: the oldest waiting slot gets the block, or every slot learns that none are left. */
    private void landed(Integer element, Throwable error) {
        List<CompletableFuture<BlockStream.BlockRef>> done = new ArrayList<>();
        synchronized (this) {
            claiming = false;
            if (error == null && element >= 0) {
                claimed.add(element);
                CompletableFuture<BlockStream.BlockRef> slot = waiting.poll();
                if (slot != null) { // else the scan was closed while this claim was in flight
                    done.add(slot);
                }
            } else {
                done.addAll(drain());
            }
        }
        // completing runs the slots' reads: outside the lock
        for (CompletableFuture<BlockStream.BlockRef> slot : done) {
            if (error != null) {
                slot.completeExceptionally(error);
                continue;
            }
            try {
                slot.complete(element >= 0 ? ref(element) : null);
            } catch (RuntimeException e) {
                slot.completeExceptionally(e);
            }
        }
        claimMore();
    }

    /** No more claims: the slots still waiting, each to learn that no block is coming (or why). */
    private synchronized List<CompletableFuture<BlockStream.BlockRef>> drain() {
        drained = true;
        List<CompletableFuture<BlockStream.BlockRef>> out = new ArrayList<>(waiting);
        waiting.clear();
        return out;
    }

    private BlockStream.BlockRef ref(int element) {
        BlockLocation b = blocks.get(element);
        ArrowBuf here = localBytes.apply(b);
        return here != null ? BlockStream.BlockRef.inPlace(here, b.offset(), b.length(), element)
                : b.ref(columns, element);
    }

    @Override
    public int blockCount() {
        return blocks.size();
    }

    /** The blocks this node claims, as they land; the range is not this node's to choose. */
    @Override
    public MorselClaims claims(int from, int to) {
        return () -> {
            BlockStream.Lease lease = stream.take();
            if (lease == null) {
                return -1;
            }
            taken.put(lease.tag(), lease);
            return lease.tag();
        };
    }

    @Override
    public void read(int morsel, BlockVisitor visitor) {
        BlockStream.Lease lease = taken.remove(morsel);
        if (lease == null) {
            throw new IllegalStateException("block " + morsel + " was not claimed by this node");
        }
        try (lease) {
            if (lease.ranges() != null) {
                BlockFormat.relocate(lease.bytes(), 0, lease.ranges());
            }
            visitor.visit(blocks.get(morsel).position(), new BlockReader(lease.bytes(), 0));
        }
    }

    @Override
    public boolean transientBytes() {
        return true;
    }

    /** The blocks this node claimed (by index in the scan's list): what it ran, once its fragment has ended. */
    public int[] claimed() {
        return claimed.stream().mapToInt(Integer::intValue).toArray();
    }

    public WorkQueues queues() {
        return queues;
    }

    @Override
    public void close() {
        // no more claims: a scan that ends early (an error, a cancel, a LIMIT) leaves the rest to the others
        drain().forEach(slot -> slot.complete(null));
        taken.values().forEach(BlockStream.Lease::close);
        taken.clear();
        stream.close();
    }
}
