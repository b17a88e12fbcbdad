package io.ferry.server.cluster;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.BlockStorage;
import io.ferry.core.storage.BlockWriter;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.ZoneMap;
import io.ferry.core.vector.Batch;
import io.ferry.fabric.Completions;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireWriter;
import io.ferry.server.runtime.BlockLocation;

/**
 * The coordinator's block storage: blocks live in regions of memory servers and workers, placed round-robin over
 * them whatever table or partition they belong to (NAM-partitioning, I-Store section 3), so reads spread over every
 * node. The coordinator owns the allocation: it asks a node once for a large registered region and then places
 * blocks in its slots with one-sided WRITEs; the node stays passive. The coordinator's catalog maps every block to
 * its region and offset ({@link #locate}).
 */
public final class ClusterStorage implements BlockStorage, Cluster.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterStorage.class);

    /** One region a node registered for the coordinator's blocks. */
    public record RemoteRegion(int id, Member holder, RegionDescriptor descriptor, boolean sharedSlots) {
    }

    private final Cluster cluster;
    private final Peers peers;
    private final BufferAllocator allocator;
    private final int blockSize;
    private final long regionBytes;
    private final Duration timeout;
    private final List<RemoteRegion> regions = new ArrayList<>();
    /** Per holder (member id): free slots as {region id, offset}. */
    private final Map<Integer, ArrayDeque<long[]>> freeSlots = new HashMap<>();
    private ArrowBuf staging;
    private Region stagingRegion;
    private int nextHolder;

    public ClusterStorage(Cluster cluster, Peers peers, BufferAllocator allocator, int blockSize, Duration timeout) {
        this.cluster = cluster;
        this.peers = peers;
        this.allocator = allocator;
        this.blockSize = blockSize;
        this.regionBytes = Math.max(blockSize, (64L << 20) / blockSize * blockSize);
        this.timeout = timeout;
        cluster.addListener(this);
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public synchronized Block write(BlockWriter writer, Batch batch, int from, int count, ZoneMap zones,
            int partition, Placement placement) {
        long size = writer.sizeOf(batch, from, count);
        if (size > Integer.MAX_VALUE - 8) {
            throw new FerryException(SqlStates.NUMERIC_OUT_OF_RANGE, "a single row needs " + size
                    + " bytes, more than a block can hold");
        }
        List<Member> holders = cluster.up(m -> m.role().holdsBlocks());
        if (holders.isEmpty()) {
            throw new FerryException(SqlStates.INSUFFICIENT_RESOURCES, "no memory server or worker is up to hold "
                    + "table blocks; start one with: bin/ferry memory --coordinator " + cluster.address().getHostString()
                    + ":" + cluster.address().getPort());
        }
        // NAM: round-robin over every holder; PARTITION: partition p on holder p mod M (in join order of holders)
        Member holder = placement == Placement.PARTITION
                ? holders.get(Math.floorMod(partition, holders.size()))
                : holders.get(Math.floorMod(nextHolder++, holders.size()));
        RemoteRegion region;
        long offset;
        if (size <= blockSize) {
            long[] slot = takeSlot(holder);
            region = regions.get((int) slot[0]);
            offset = slot[1];
        } else {
            region = allocate(holder, size, false);
            offset = 0;
        }
        ensureStaging(size);
        int length = writer.write(batch, from, count, staging, 0, partition);
        try {
            Completions.await(peers.get(holder.hello().fabric()).write(stagingRegion, 0, region.descriptor(), offset,
                    length), timeout, "writing a block to " + holder.describe());
        } catch (RuntimeException e) {
            release(region, offset);
            throw e;
        }
        return new Block(this, region.id(), offset, length, count, null, zones, partition,
                new BlockReader(staging, 0).columnBounds());
    }

    private long[] takeSlot(Member holder) {
        ArrayDeque<long[]> free = freeSlots.computeIfAbsent(holder.id(), id -> new ArrayDeque<>());
        if (free.isEmpty()) {
            RemoteRegion r = allocate(holder, regionBytes, true);
            for (long s = regionBytes / blockSize - 1; s >= 0; s--) {
                free.push(new long[] {r.id(), s * blockSize});
            }
        }
        return free.pop();
    }

    private RemoteRegion allocate(Member holder, long bytes, boolean shared) {
        RegionDescriptor d = Completions.result(holder.channel().call(MessageType.ALLOCATE,
                new WireWriter().writeLong(bytes)), timeout, "allocating block memory on " + holder.describe())
                .readDescriptor();
        RemoteRegion r = new RemoteRegion(regions.size(), holder, d, shared);
        regions.add(r);
        return r;
    }

    private void ensureStaging(long size) {
        if (staging != null && staging.capacity() >= size) {
            return;
        }
        closeStaging();
        staging = allocator.buffer(Math.max(size, blockSize));
        stagingRegion = peers.fabric().register(staging, 0, (int) staging.capacity());
    }

    @Override
    public synchronized void free(Block block) {
        release(regions.get(block.regionId()), block.offset());
    }

    private void release(RemoteRegion region, long offset) {
        if (!region.holder().isUp()) {
            return; // its memory went with the node
        }
        if (region.sharedSlots()) {
            freeSlots.computeIfAbsent(region.holder().id(), id -> new ArrayDeque<>()).push(
                    new long[] {region.id(), offset});
        } else {
            region.holder().channel().call(MessageType.FREE, new WireWriter().writeInt(region.descriptor().key()));
        }
    }

    /** The region a block lives in. */
    public synchronized RemoteRegion region(Block block) {
        return regions.get(block.regionId());
    }

    /**
     * Where block {@code position} of a table is, failing with SQLSTATE 08006 naming the node if the node that
     * held it is down.
     */
    public BlockLocation locate(String table, Block block, int position) {
        RemoteRegion r = region(block);
        Member holder = r.holder();
        if (!holder.isUp()) {
            throw new FerryException(SqlStates.CONNECTION_FAILURE, "table '" + table + "' has blocks on "
                    + holder.describe() + ", which is down (" + holder.downReason() + "); if the node is only "
                    + "frozen or cut off, the table answers again once it is back; if its process died, restart it "
                    + "and load the table again");
        }
        return new BlockLocation(position, r.descriptor(), block.offset(), block.length(), block.columnBounds());
    }

    /**
     * A node that went down: its blocks fail in {@link #locate} while it is down. Its free slots are kept (no block
     * goes to a node that is down): if the same process comes back ({@link Cluster}), they and its blocks are its again.
     */
    @Override
    public void onDown(Member member) {
        LOG.info("blocks on {} are unavailable while it is down", member.describe());
    }

    private void closeStaging() {
        if (stagingRegion != null) {
            stagingRegion.close();
            stagingRegion = null;
        }
        if (staging != null) {
            staging.close();
            staging = null;
        }
    }

    @Override
    public synchronized void close() {
        closeStaging();
    }
}
