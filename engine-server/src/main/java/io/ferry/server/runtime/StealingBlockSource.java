package io.ferry.server.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.exec.BlockSource;
import io.ferry.core.exec.MorselClaims;
import io.ferry.core.storage.BlockFormat;
import io.ferry.core.storage.BlockReader;
import io.ferry.fabric.BlockStream;
import io.ferry.server.cluster.Peers;

/**
 * The blocks of a scan whose work is shared through {@link WorkQueues}: a block is read only once this node has
 * claimed it, from its own queue or by stealing from another's (I-Store skew paper section 4), so a node that
 * finishes early takes work from a straggler instead of waiting for it. Claims are made ahead of the threads, as
 * the prefetching stream frees a slot, so stealing costs no round trip the scan waits for; each block is read from
 * whichever memory server holds it, only the columns the scan needs.
 */
public final class StealingBlockSource implements BlockSource {
    private final List<BlockLocation> blocks;
    private final int[] columns;
    private final WorkQueues queues;
    private final BlockStream stream;
    /** Blocks claimed, landed and handed to a thread, until it reads them: by block index. */
    private final Map<Integer, BlockStream.Lease> taken = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Integer> claimed = new ConcurrentLinkedQueue<>();

    /**
     * @param blocks every block of the scan, on every node: the queues' elements index it
     */
    public StealingBlockSource(List<BlockLocation> blocks, int[] columns, WorkQueues queues, Peers peers,
            BufferAllocator allocator, int depth, Duration timeout) {
        this.blocks = List.copyOf(blocks);
        this.columns = columns;
        this.queues = queues;
        int slot = 1;
        for (BlockLocation b : blocks) {
            slot = Math.max(slot, b.readBytes(columns));
        }
        this.stream = new BlockStream(peers.fabric(), peers::get, allocator, this::claimNext, depth, slot, timeout);
    }

    private BlockStream.BlockRef claimNext() {
        int e = queues.claim();
        if (e < 0) {
            return null;
        }
        claimed.add(e);
        return blocks.get(e).ref(columns, e);
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
        taken.values().forEach(BlockStream.Lease::close);
        taken.clear();
        stream.close();
    }
}
