package io.ferry.server.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.exec.BlockSource;
import io.ferry.core.storage.BlockFormat;
import io.ferry.core.storage.BlockReader;
import io.ferry.fabric.BlockStream;
import io.ferry.fabric.FabricException;
import io.ferry.fabric.NodeAddress;
import io.ferry.server.cluster.Peers;

/**
 * The blocks of one scan read through the fabric: blocks in this node's own memory are read in place (I-Store's
 * LocOpt), every other node's through one prefetching {@link BlockStream} per node, so reads from all nodes are in
 * flight at once and the threads of the scan share them. Morsels alternate between the nodes. A remote block is read
 * as the header and the columns the scan needs ({@link BlockFormat#readRanges}), not whole.
 */
public final class FabricBlockSource implements BlockSource {
    private final List<BlockLocation> local = new ArrayList<>();
    /** The region buffer of each local block, in {@link #local}'s order. */
    private final List<ArrowBuf> localBuffers = new ArrayList<>();
    private final AtomicInteger nextLocal = new AtomicInteger();
    private final List<List<BlockLocation>> remote = new ArrayList<>();
    private final List<BlockStream> streams = new ArrayList<>();
    /** Per morsel: -1 for a local block, else the index of the stream that supplies it. */
    private final int[] sourceOf;

    /**
     * @param columns the columns the scan reads
     * @param localBytes the bytes of a block in this node's memory, or null if the block is not here
     */
    public FabricBlockSource(List<BlockLocation> blocks, int[] columns, Function<BlockLocation, ArrowBuf> localBytes,
            Peers peers, BufferAllocator allocator, int depth, Duration timeout) {
        Map<NodeAddress, List<BlockLocation>> byNode = new LinkedHashMap<>();
        for (BlockLocation b : blocks) {
            ArrowBuf here = localBytes == null ? null : localBytes.apply(b);
            if (here != null) {
                local.add(b);
                localBuffers.add(here);
            } else {
                byNode.computeIfAbsent(b.region().node(), n -> new ArrayList<>()).add(b);
            }
        }
        try {
            for (Map.Entry<NodeAddress, List<BlockLocation>> e : byNode.entrySet()) {
                List<BlockStream.BlockRef> refs = new ArrayList<>();
                int slot = 0;
                for (BlockLocation b : e.getValue()) {
                    BlockStream.BlockRef ref = b.ref(columns, -1);
                    refs.add(ref);
                    slot = Math.max(slot, ref.length());
                }
                BlockStream stream;
                try {
                    stream = new BlockStream(peers.fabric(), peers.get(e.getKey()), allocator, refs,
                            Math.min(depth, refs.size()), slot, timeout);
                } catch (FabricException ex) {
                    peers.forget(e.getKey());
                    throw ex;
                }
                remote.add(e.getValue());
                streams.add(stream);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.sourceOf = interleave();
    }

    /** Round robin over the local blocks and each node's stream, so every source is drained at the same pace. */
    private int[] interleave() {
        int total = local.size();
        int[] left = new int[streams.size()];
        for (int s = 0; s < left.length; s++) {
            left[s] = remote.get(s).size();
            total += left[s];
        }
        int[] out = new int[total];
        int localLeft = local.size();
        int n = 0;
        while (n < total) {
            if (localLeft > 0) {
                out[n++] = -1;
                localLeft--;
            }
            for (int s = 0; s < left.length; s++) {
                if (left[s] > 0) {
                    out[n++] = s;
                    left[s]--;
                }
            }
        }
        return out;
    }

    @Override
    public int blockCount() {
        return sourceOf.length;
    }

    @Override
    public void read(int morsel, BlockVisitor visitor) {
        int s = sourceOf[morsel];
        if (s < 0) {
            int i = nextLocal.getAndIncrement();
            BlockLocation b = local.get(i);
            visitor.visit(b.position(), new BlockReader(localBuffers.get(i), b.offset()));
            return;
        }
        try (BlockStream.Lease lease = streams.get(s).take()) {
            BlockLocation b = remote.get(s).get(lease.index());
            if (lease.ranges() != null) {
                BlockFormat.relocate(lease.bytes(), 0, lease.ranges());
            }
            visitor.visit(b.position(), new BlockReader(lease.bytes(), 0));
        }
    }

    @Override
    public boolean transientBytes() {
        return !streams.isEmpty();
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (BlockStream s : streams) {
            try {
                s.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        streams.clear();
        if (first != null) {
            throw first;
        }
    }
}
