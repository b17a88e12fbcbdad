package io.ferry.server.cluster;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

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
import io.ferry.core.types.TableSchema;
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
    /** The CRC32C in each live block's header, by {@link #slot}: what its {@link #address} records. */
    private final Map<Long, Integer> checksums = new HashMap<>();
    /** Regions adopted from an earlier coordinator, by id, with the offsets of their adopted blocks, until {@link #settle}. */
    private final Map<Integer, Set<Long>> adopting = new HashMap<>();
    /** Incarnations of the holders told which regions to keep ({@link #retain}); none before {@link #settle}. */
    private final Set<String> settled = new HashSet<>();
    private boolean settling = true;
    private boolean adoptionOpen = true;
    private boolean keepOnNodes;
    private volatile boolean keepsFiles;
    /** Regions that hold no block of this coordinator's: left out of what holders keep. */
    private final Set<Integer> unheld = new HashSet<>();
    /** Buffers of blocks being adopted, taken by one thread at a time; closed once the restore adopted all it could. */
    private final ArrayDeque<ReadBuffer> readers = new ArrayDeque<>();
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
        BlockReader written = new BlockReader(staging, 0);
        checksums.put(slot(region.id(), offset), written.storedChecksum());
        return new Block(this, region.id(), offset, length, count, null, zones, partition, written.columnBounds());
    }

    private static long slot(int regionId, long offset) {
        return (long) regionId << 32 | offset;
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
        checksums.remove(slot(block.regionId(), block.offset()));
        release(regions.get(block.regionId()), block.offset());
    }

    /** Whether the coordinator keeps its tables' rows in a data directory, and so reads lost blocks back itself. */
    public void keepsFiles(boolean keeps) {
        keepsFiles = keeps;
    }

    /**
     * From now on, blocks freed leave the nodes' memory as it is: a coordinator that keeps a data directory stops
     * without freeing its tables' blocks, so that its next process adopts them.
     */
    public synchronized void keepBlocksOnNodes() {
        keepOnNodes = true;
    }

    private void release(RemoteRegion region, long offset) {
        if (keepOnNodes) {
            return;
        }
        Set<Long> adopted = adopting.get(region.id());
        if (adopted != null) {
            adopted.remove(offset); // its free slots are counted when the restore settles
            return;
        }
        if (!region.holder().isUp()) {
            return; // its memory went with the node
        }
        if (region.sharedSlots()) {
            freeSlots.computeIfAbsent(region.holder().id(), id -> new ArrayDeque<>()).push(
                    new long[] {region.id(), offset});
        } else {
            unheld.add(region.id());
            region.holder().channel().call(MessageType.FREE, new WireWriter().writeInt(region.descriptor().key()));
        }
    }

    /**
     * Reads a block back into the staging buffer, for a reader handed to {@code use} (writing a table's data file
     * on the coordinator, an export): 08006 naming the node if it is down.
     */
    @Override
    public synchronized void readBack(Block block, Consumer<BlockReader> use) {
        RemoteRegion r = regions.get(block.regionId());
        if (!r.holder().isUp()) {
            throw new FerryException(SqlStates.CONNECTION_FAILURE, "a block to read back is on "
                    + r.holder().describe() + ", which is down (" + r.holder().downReason() + ")");
        }
        ensureStaging(block.length());
        Completions.await(peers.get(r.holder().hello().fabric()).read(r.descriptor(), block.offset(), stagingRegion, 0,
                block.length()), timeout, "reading a block back from " + r.holder().describe());
        use.accept(new BlockReader(staging, 0));
    }

    /** A block's node (by name and process), region, offset and checksum: what a restarted coordinator adopts. */
    @Override
    public synchronized String address(Block block) {
        RemoteRegion r = regions.get(block.regionId());
        Integer crc = checksums.get(slot(r.id(), block.offset()));
        if (crc == null) {
            return null;
        }
        RegionDescriptor d = r.descriptor();
        return new BlockAddress(r.holder().name(), r.holder().hello().incarnation(), d.key(), d.address(), d.length(),
                r.sharedSlots() ? blockSize : 0, block.offset(), block.length(), crc).toString();
    }

    /**
     * Adopts a block an earlier coordinator process placed, if the node that held it is up as the same process (its
     * memory kept) and the block there is whole and the one recorded (its header's CRC32C); otherwise 08006 or
     * XX001, and the restore reads the block's rows from the data directory instead. The block is read and decoded
     * outside this storage's lock, into a buffer of {@link #readers}, so the restore adopts on all its threads.
     */
    @Override
    public Block adopt(String address, TableSchema schema, Consumer<Batch> rows) {
        BlockAddress a = BlockAddress.parse(address);
        RemoteRegion region;
        Member holder;
        ReadBuffer buffer;
        synchronized (this) {
            holder = null;
            for (Member m : cluster.up(m -> m.role().holdsBlocks() && m.name().equals(a.node()))) {
                holder = m;
            }
            if (holder == null || !holder.hello().incarnation().equals(a.incarnation())) {
                throw new FerryException(SqlStates.CONNECTION_FAILURE, "node " + a.node() + (holder == null
                        ? " is not up" : " restarted and lost its memory"));
            }
            if (!adoptionOpen) {
                throw new IllegalStateException("blocks are adopted only while the catalog is restored");
            }
            if (a.offset() < 0 || a.length() <= 0 || a.offset() + a.length() > a.regionLength()) {
                throw new FerryException(SqlStates.DATA_CORRUPTED, "block location " + address
                        + " lies outside its region");
            }
            region = adoptRegion(holder, a);
            buffer = readers.isEmpty() ? null : readers.pop();
        }
        if (buffer == null || buffer.bytes().capacity() < a.length()) {
            if (buffer != null) {
                buffer.close();
            }
            ArrowBuf bytes = allocator.buffer(Math.max(a.length(), blockSize));
            try {
                buffer = new ReadBuffer(bytes, peers.fabric().register(bytes, 0, (int) bytes.capacity()));
            } catch (RuntimeException e) {
                bytes.close();
                throw e;
            }
        }
        try {
            Completions.await(peers.get(holder.hello().fabric()).read(region.descriptor(), a.offset(),
                    buffer.region(), 0, a.length()), timeout, "reading back a block on " + holder.describe());
            BlockReader reader;
            try {
                reader = new BlockReader(buffer.bytes(), 0).verifyChecksum();
            } catch (RuntimeException e) {
                throw new FerryException(SqlStates.DATA_CORRUPTED, "the block at " + address + " is not whole ("
                        + e.getMessage() + ")");
            }
            if (reader.storedChecksum() != a.crc() || reader.length() != a.length()
                    || reader.columnCount() != schema.size()) {
                throw new FerryException(SqlStates.DATA_CORRUPTED, "another block was written at " + address);
            }
            Batch batch = reader.batch(schema);
            ZoneMap zones = ZoneMap.of(schema.types(), batch, 0, batch.rowCount());
            rows.accept(batch);
            Block block = new Block(this, region.id(), a.offset(), a.length(), batch.rowCount(), null, zones,
                    reader.partition(), reader.columnBounds());
            synchronized (this) {
                adopting.get(region.id()).add(a.offset());
                checksums.put(slot(region.id(), a.offset()), a.crc());
            }
            return block;
        } finally {
            synchronized (this) {
                readers.push(buffer);
            }
        }
    }

    /** A registered buffer blocks to adopt are read into, one per restore thread at a time. */
    private record ReadBuffer(ArrowBuf bytes, Region region) implements AutoCloseable {
        @Override
        public void close() {
            region.close();
            bytes.close();
        }
    }

    /** The region a block to adopt lives in, registered here the first time one of its blocks is adopted. */
    private RemoteRegion adoptRegion(Member holder, BlockAddress a) {
        for (RemoteRegion r : regions) {
            if (r.holder() == holder && r.descriptor().key() == a.key()) {
                return r;
            }
        }
        RemoteRegion r = new RemoteRegion(regions.size(), holder, new RegionDescriptor(holder.hello().fabric(),
                a.base(), a.regionLength(), a.key()), a.slotSize() == blockSize);
        regions.add(r);
        adopting.put(r.id(), new HashSet<>());
        return r;
    }

    /**
     * Ends the restore: the slots of adopted regions that no adopted block fills are free again, adopted regions of
     * one large block that was not adopted are freed, and every holder up is told which of its regions this
     * coordinator holds ({@link MessageType#RETAIN}): it frees the others, left by an earlier coordinator process.
     * Holders that join later are told when they are up.
     */
    public void settle() {
        List<Member> holders;
        synchronized (this) {
            adopted();
            settling = false;
            holders = cluster.up(m -> m.role().holdsBlocks());
        }
        for (Member m : holders) {
            retain(m);
        }
    }

    /** The slots of adopted regions that no adopted block fills are free from now on. */
    @Override
    public synchronized void adopted() {
        for (Map.Entry<Integer, Set<Long>> e : adopting.entrySet()) {
            RemoteRegion r = regions.get(e.getKey());
            if (r.sharedSlots()) {
                ArrayDeque<long[]> free = freeSlots.computeIfAbsent(r.holder().id(), id -> new ArrayDeque<>());
                for (long s = r.descriptor().length() / blockSize - 1; s >= 0; s--) {
                    if (!e.getValue().contains(s * blockSize)) {
                        free.push(new long[] {r.id(), s * blockSize});
                    }
                }
            } else if (e.getValue().isEmpty()) {
                unheld.add(r.id()); // its one block was not adopted: the holder frees it when told what to keep
            }
        }
        adopting.clear();
        adoptionOpen = false;
        while (!readers.isEmpty()) {
            readers.pop().close();
        }
    }

    /**
     * Tells a holder which of its regions are this coordinator's, once per process of it: a node that outlived an
     * earlier coordinator frees what that one placed and this one did not adopt, rather than keep it unreachable.
     */
    private synchronized void retain(Member holder) {
        if (settling || !holder.isUp() || !settled.add(holder.hello().incarnation())) {
            return;
        }
        WireWriter keys = new WireWriter();
        List<Integer> kept = new ArrayList<>();
        for (RemoteRegion r : regions) {
            if (r.holder() == holder && !unheld.contains(r.id())) {
                kept.add(r.descriptor().key());
            }
        }
        keys.writeInt(kept.size());
        kept.forEach(keys::writeInt);
        try {
            long freed = Completions.result(holder.channel().call(MessageType.RETAIN, keys), timeout,
                    "telling " + holder.describe() + " which regions to keep").readLong();
            if (freed > 0) {
                LOG.info("{} freed {} bytes of blocks an earlier coordinator process left there", holder.describe(),
                        freed);
            }
        } catch (RuntimeException e) {
            settled.remove(holder.hello().incarnation());
            LOG.warn("cannot tell {} which regions to keep: {}", holder.describe(), e.getMessage());
        }
    }

    /**
     * Waits until every node that holds blocks of {@code locations} is up again, or {@code wait} passed; returns
     * the names of those that are not.
     */
    public Set<String> awaitHolders(List<String> locations, Duration wait) throws InterruptedException {
        Set<String> missing = new TreeSet<>();
        for (String l : locations) {
            missing.add(BlockAddress.parse(l).node());
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            for (Member m : cluster.up(m -> m.role().holdsBlocks())) {
                missing.remove(m.name());
            }
            if (missing.isEmpty() || System.nanoTime() > deadline) {
                return missing;
            }
            Thread.sleep(50);
        }
    }

    /** A holder that is up is told which of its regions to keep, once per process of it ({@link #retain}). */
    @Override
    public void onUp(Member member) {
        if (member.role().holdsBlocks()) {
            retain(member);
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
                    + (keepsFiles ? "(the coordinator then reads the table back from its data directory)"
                            : "and load the table again"));
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
        while (!readers.isEmpty()) {
            readers.pop().close();
        }
        closeStaging();
    }
}
