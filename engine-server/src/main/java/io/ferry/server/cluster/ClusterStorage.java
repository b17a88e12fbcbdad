package io.ferry.server.cluster;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
 *
 * <p>With {@code replicas} above one, each block is written to that many holders (the next ones in join order after
 * the one placement picks), and a query reads the first copy whose holder is up: with a memory server down, the
 * tables go on answering from the others. When a holder comes up — a node back after a crash, or a new one — and
 * when one has been down for {@code replaceAfter}, blocks with fewer copies on nodes that are up than asked for are
 * copied from a copy that is up ({@link #catchUp}).
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
    /** A copy of a block: a slot of a region. */
    private record Copy(RemoteRegion region, long offset) {
    }

    /** A live block's copies, the one it was first placed in first, and the CRC32C in its header. */
    private record Copies(int crc, int length, List<Copy> list) {
        /** The copies whose holders are up, in order: the first is the one reads use. */
        List<Copy> up() {
            return list.stream().filter(c -> c.region().holder().isUp()).toList();
        }

        Copies with(Copy more) {
            List<Copy> all = new ArrayList<>(list);
            all.add(more);
            return new Copies(crc, length, List.copyOf(all));
        }
    }

    private final int replicas;
    /** Every live block's copies, by the {@link #slot} it was first placed in (its {@link Block}'s region and offset). */
    private final Map<Long, Copies> copies = new HashMap<>();
    /** Catch-up copies blocks one at a time, through a buffer of its own ({@link #catchUp}). */
    private final Object copying = new Object();
    /** How long a holder stays down before its blocks are copied to other holders ({@link #onDown}). */
    public static final Duration REPLACE_AFTER = Duration.ofSeconds(30);

    private final ScheduledExecutorService repair = Executors.newSingleThreadScheduledExecutor(
            DataNode.daemon("ferry-replicas"));
    private final Duration replaceAfter;
    private ReadBuffer copyBuffer;
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
    private boolean warnedFewHolders;

    public ClusterStorage(Cluster cluster, Peers peers, BufferAllocator allocator, int blockSize, Duration timeout) {
        this(cluster, peers, allocator, blockSize, timeout, 1);
    }

    /** @param replicas on how many holders each block is kept (at most as many as are up when it is written) */
    public ClusterStorage(Cluster cluster, Peers peers, BufferAllocator allocator, int blockSize, Duration timeout,
            int replicas) {
        this(cluster, peers, allocator, blockSize, timeout, replicas, REPLACE_AFTER);
    }

    /** @param replaceAfter how long a holder is down before its blocks are copied to other holders */
    public ClusterStorage(Cluster cluster, Peers peers, BufferAllocator allocator, int blockSize, Duration timeout,
            int replicas, Duration replaceAfter) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, not " + replicas);
        }
        this.replicas = replicas;
        this.replaceAfter = replaceAfter;
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
        boolean few = holders.size() < replicas;
        if (few && !warnedFewHolders) { // once each time the holders up fall short
            LOG.warn("--replicas {} but {} memory server(s) or worker(s) up: blocks get {} copies until more join "
                    + "(sys.blocks.copies, ferry_blocks_short_of_copies)", replicas, holders.size(), holders.size());
        }
        warnedFewHolders = few;
        // NAM: round-robin over every holder; PARTITION: partition p on holder p mod M (in join order of holders);
        // further copies on the holders that follow
        int first = placement == Placement.PARTITION ? Math.floorMod(partition, holders.size())
                : Math.floorMod(nextHolder++, holders.size());
        ensureStaging(size);
        int length = writer.write(batch, from, count, staging, 0, partition);
        List<Copy> placed = new ArrayList<>();
        try {
            for (int i = 0; i < Math.min(replicas, holders.size()); i++) {
                try {
                    placed.add(place(holders.get((first + i) % holders.size()), size));
                } catch (RuntimeException e) {
                    if (i == 0) {
                        throw e;
                    }
                    LOG.warn("a copy of a block cannot be placed on {}: {}", holders.get((first + i)
                            % holders.size()).describe(), e.getMessage());
                }
            }
            List<CompletableFuture<?>> writes = new ArrayList<>();
            for (Copy c : placed) {
                writes.add(peers.get(c.region().holder().hello().fabric()).write(stagingRegion, 0,
                        c.region().descriptor(), c.offset(), length));
            }
            // a copy that cannot be written (its holder died meanwhile) is left out while another one was: the
            // block is short of copies until a holder comes up (catchUp)
            RuntimeException failed = null;
            for (int i = writes.size() - 1; i >= 0; i--) {
                try {
                    Completions.await(writes.get(i), timeout, "writing a block to "
                            + placed.get(i).region().holder().describe());
                } catch (RuntimeException e) {
                    failed = e;
                    Copy lost = placed.remove(i);
                    release(lost.region(), lost.offset());
                }
            }
            if (placed.isEmpty()) {
                throw failed;
            }
        } catch (RuntimeException e) {
            placed.forEach(c -> release(c.region(), c.offset()));
            throw e;
        }
        BlockReader written = new BlockReader(staging, 0);
        Copy at = placed.get(0);
        copies.put(slot(at.region().id(), at.offset()), new Copies(written.storedChecksum(), length,
                List.copyOf(placed)));
        return new Block(this, at.region().id(), at.offset(), length, count, null, zones, partition,
                written.columnBounds());
    }

    /** A slot for a block of {@code size} bytes on {@code holder}, or a region of its own if it is larger. */
    private Copy place(Member holder, long size) {
        if (size <= blockSize) {
            long[] slot = takeSlot(holder);
            return new Copy(regions.get((int) slot[0]), slot[1]);
        }
        return new Copy(allocate(holder, size, false), 0);
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
        for (Copy copy : copies.remove(slot(block.regionId(), block.offset())).list()) {
            release(copy.region(), copy.offset());
        }
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
        if (cluster.replaced(region.holder())) {
            return; // its memory went with the node's earlier process
        }
        if (region.sharedSlots()) {
            // also while its holder is down: if the same process comes back, the slot is free there (a block with a
            // copy there can be deleted meanwhile); if another process comes back, the member and its slots are gone
            freeSlots.computeIfAbsent(region.holder().id(), id -> new ArrayDeque<>()).push(
                    new long[] {region.id(), offset});
        } else if (region.holder().isUp()) {
            unheld.add(region.id());
            region.holder().channel().call(MessageType.FREE, new WireWriter().writeInt(region.descriptor().key()));
        }
    }

    /**
     * Reads a block back into the staging buffer, for a reader handed to {@code use} (writing a table's data file
     * on the coordinator, an export), from a copy whose holder is up: 08006 naming the node if none is.
     */
    @Override
    public synchronized void readBack(Block block, Consumer<BlockReader> use) {
        Copy c = serving(block);
        RemoteRegion r = c.region();
        if (!r.holder().isUp()) {
            throw new FerryException(SqlStates.CONNECTION_FAILURE, "a block to read back is on "
                    + r.holder().describe() + ", which is down (" + r.holder().downReason() + ")");
        }
        ensureStaging(block.length());
        Completions.await(peers.get(r.holder().hello().fabric()).read(r.descriptor(), c.offset(), stagingRegion, 0,
                block.length()), timeout, "reading a block back from " + r.holder().describe());
        use.accept(new BlockReader(staging, 0));
    }

    /**
     * Where each copy of a block is — node (by name and process), region, offset and checksum — what a restarted
     * coordinator adopts.
     */
    @Override
    public synchronized String address(Block block) {
        Copies c = copiesOf(block);
        List<BlockAddress> out = new ArrayList<>();
        for (Copy copy : c.list()) {
            RemoteRegion r = copy.region();
            RegionDescriptor d = r.descriptor();
            out.add(new BlockAddress(r.holder().name(), r.holder().hello().incarnation(), d.key(), d.address(),
                    d.length(), r.sharedSlots() ? blockSize : 0, copy.offset(), block.length(), c.crc()));
        }
        return BlockAddress.ofCopies(out);
    }

    /**
     * Adopts a block an earlier coordinator process placed: each copy whose node is up as the same process (its
     * memory kept) and that is whole and the one recorded (its header's CRC32C). With no such copy, 08006 or XX001,
     * and the restore reads the block's rows from the data directory instead; with fewer copies than replicas, the
     * block is copied again once the restore settles ({@link #catchUp}). Copies are read and decoded outside this
     * storage's lock, into a buffer of {@link #readers}, so the restore adopts on all its threads.
     */
    @Override
    public Block adopt(String address, TableSchema schema, Consumer<Batch> rows) {
        List<BlockAddress> all = BlockAddress.parseCopies(address);
        ReadBuffer buffer = reader(all.get(0).length());
        try {
            List<Copy> adopted = new ArrayList<>();
            Block block = null;
            RuntimeException failed = null;
            for (BlockAddress a : all) {
                BlockReader reader;
                Copy copy;
                try {
                    copy = copyToAdopt(a);
                    reader = readCopy(copy, a, buffer, schema.size());
                } catch (FerryException e) {
                    failed = failed == null ? e : failed;
                    continue;
                }
                adopted.add(copy);
                if (block == null) {
                    Batch batch = reader.batch(schema);
                    ZoneMap zones = ZoneMap.of(schema.types(), batch, 0, batch.rowCount());
                    rows.accept(batch);
                    block = new Block(this, copy.region().id(), copy.offset(), a.length(), batch.rowCount(), null,
                            zones, reader.partition(), reader.columnBounds());
                }
            }
            if (block == null) {
                throw failed;
            }
            synchronized (this) {
                for (Copy c : adopted) {
                    adopting.get(c.region().id()).add(c.offset());
                }
                copies.put(slot(block.regionId(), block.offset()), new Copies(all.get(0).crc(), block.length(),
                        List.copyOf(adopted)));
            }
            return block;
        } finally {
            synchronized (this) {
                readers.push(buffer);
            }
        }
    }

    /** A buffer of {@link #readers} that holds {@code length} bytes, taken by this thread until it pushes it back. */
    private ReadBuffer reader(int length) {
        ReadBuffer buffer;
        synchronized (this) {
            if (!adoptionOpen) {
                throw new IllegalStateException("blocks are adopted only while the catalog is restored");
            }
            buffer = readers.isEmpty() ? null : readers.pop();
        }
        if (buffer != null && buffer.bytes().capacity() >= length) {
            return buffer;
        }
        if (buffer != null) {
            buffer.close();
        }
        return ReadBuffer.of(allocator, peers, Math.max(length, blockSize));
    }

    /** The slot a copy to adopt is in, its region registered here: 08006 if its node is not up as the same process. */
    private synchronized Copy copyToAdopt(BlockAddress a) {
        Member holder = null;
        for (Member m : cluster.up(m -> m.role().holdsBlocks() && m.name().equals(a.node()))) {
            holder = m;
        }
        if (holder == null || !holder.hello().incarnation().equals(a.incarnation())) {
            throw new FerryException(SqlStates.CONNECTION_FAILURE, "node " + a.node() + (holder == null
                    ? " is not up" : " restarted and lost its memory"));
        }
        if (a.offset() < 0 || a.length() <= 0 || a.offset() + a.length() > a.regionLength()) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "block location " + a + " lies outside its region");
        }
        return new Copy(adoptRegion(holder, a), a.offset());
    }

    /** Reads a copy into {@code buffer} and checks it is whole and the block {@code a} recorded. */
    private BlockReader readCopy(Copy copy, BlockAddress a, ReadBuffer buffer, int columns) {
        Member holder = copy.region().holder();
        Completions.await(peers.get(holder.hello().fabric()).read(copy.region().descriptor(), a.offset(),
                buffer.region(), 0, a.length()), timeout, "reading back a block on " + holder.describe());
        BlockReader reader;
        try {
            reader = new BlockReader(buffer.bytes(), 0).verifyChecksum();
        } catch (RuntimeException e) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "the block at " + a + " is not whole ("
                    + e.getMessage() + ")");
        }
        if (reader.storedChecksum() != a.crc() || reader.length() != a.length() || reader.columnCount() != columns) {
            throw new FerryException(SqlStates.DATA_CORRUPTED, "another block was written at " + a);
        }
        return reader;
    }

    /** A registered buffer blocks to adopt are read into, one per restore thread at a time. */
    private record ReadBuffer(ArrowBuf bytes, Region region) implements AutoCloseable {
        static ReadBuffer of(BufferAllocator allocator, Peers peers, long capacity) {
            ArrowBuf bytes = allocator.buffer(capacity);
            try {
                return new ReadBuffer(bytes, peers.fabric().register(bytes, 0, (int) bytes.capacity()));
            } catch (RuntimeException e) {
                bytes.close();
                throw e;
            }
        }

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
        scheduleCatchUp(); // blocks adopted with fewer copies than there were
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
            BlockAddress.parseCopies(l).forEach(a -> missing.add(a.node()));
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

    /**
     * A holder that is up is told which of its regions to keep, once per process of it ({@link #retain}); blocks
     * short of copies are copied, on it among others ({@link #catchUp}).
     */
    @Override
    public void onUp(Member member) {
        if (member.role().holdsBlocks()) {
            retain(member);
            scheduleCatchUp();
        }
    }

    private void scheduleCatchUp() {
        if (replicas > 1) {
            try {
                repair.execute(this::catchUp);
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // closed: nothing to copy for
            }
        }
    }

    /**
     * Brings every block back to its copies (replication): a block with fewer copies on holders that are up than
     * {@code replicas} — its holder restarted and lost it, or was down when it was written — is read from a copy
     * that is up and written to a holder up that has none, the one that came back among them. Copies on a node that
     * restarted are forgotten. Blocks are copied one at a time outside the storage's lock, so queries, loads and
     * DML go on meanwhile; a block freed while being copied frees its new copy. Returns the blocks copied.
     */
    public int catchUp() {
        if (replicas == 1) {
            return 0;
        }
        synchronized (copying) {
            List<Long> keys;
            synchronized (this) {
                if (settling) {
                    return 0;
                }
                keys = new ArrayList<>(copies.keySet());
            }
            long t0 = System.nanoTime();
            int copied = 0;
            long bytes = 0;
            for (long key : keys) {
                Copy from;
                Copy to;
                int length;
                synchronized (this) {
                    Copies c = forgetLost(key);
                    List<Copy> up = c == null ? List.of() : c.up();
                    if (up.isEmpty() || up.size() >= replicas) {
                        continue;
                    }
                    Member target = null;
                    for (Member m : cluster.up(m -> m.role().holdsBlocks())) {
                        if (c.list().stream().noneMatch(x -> x.region().holder() == m)) {
                            target = m;
                            break;
                        }
                    }
                    if (target == null) {
                        continue;
                    }
                    from = up.get(0);
                    length = c.length();
                    try {
                        to = place(target, length);
                    } catch (RuntimeException e) {
                        LOG.warn("cannot place a copy of a block on {}: {}", target.describe(), e.getMessage());
                        continue;
                    }
                }
                try {
                    copy(from, to, length);
                } catch (RuntimeException e) {
                    LOG.warn("cannot copy a block from {} to {}: {}", from.region().holder().describe(),
                            to.region().holder().describe(), e.getMessage());
                    synchronized (this) {
                        release(to.region(), to.offset());
                    }
                    continue;
                }
                synchronized (this) {
                    Copies c = copies.get(key);
                    if (c == null) {
                        release(to.region(), to.offset()); // freed while it was copied
                        continue;
                    }
                    copies.put(key, c.with(to));
                }
                copied++;
                bytes += length;
            }
            if (copied > 0) {
                LOG.info("copied {} blocks ({} bytes) to bring them back to {} copies in {} ms", copied, bytes,
                        replicas, (System.nanoTime() - t0) / 1_000_000);
            }
            return copied;
        }
    }

    /** A block's copies without those on nodes that restarted since (their memory is gone); null if it was freed. */
    private Copies forgetLost(long key) {
        Copies c = copies.get(key);
        if (c == null) {
            return null;
        }
        List<Copy> kept = c.list().stream().filter(x -> !cluster.replaced(x.region().holder())).toList();
        if (kept.isEmpty() || kept.size() == c.list().size()) {
            return c;
        }
        Copies left = new Copies(c.crc(), c.length(), kept);
        copies.put(key, left);
        return left;
    }

    /** Copies a block's bytes from one holder's slot to another's through {@link #copyBuffer}. */
    private void copy(Copy from, Copy to, int length) {
        if (copyBuffer == null || copyBuffer.bytes().capacity() < length) {
            if (copyBuffer != null) {
                copyBuffer.close();
            }
            copyBuffer = null;
            copyBuffer = ReadBuffer.of(allocator, peers, Math.max(length, blockSize));
        }
        Member source = from.region().holder();
        Member target = to.region().holder();
        Completions.await(peers.get(source.hello().fabric()).read(from.region().descriptor(), from.offset(),
                copyBuffer.region(), 0, length), timeout, "reading a block's copy on " + source.describe());
        Completions.await(peers.get(target.hello().fabric()).write(copyBuffer.region(), 0, to.region().descriptor(),
                to.offset(), length), timeout, "writing a block's copy to " + target.describe());
    }

    /** Blocks with fewer copies on holders that are up than replicas asks: what one more lost node may cost. */
    public synchronized int shortOfCopies() {
        int missing = 0;
        for (Copies c : copies.values()) {
            if (c.up().size() < replicas) {
                missing++;
            }
        }
        return missing;
    }

    /** On how many holders each block is kept. */
    public int replicas() {
        return replicas;
    }

    /** How many copies of {@code block} are on holders that are up. */
    public synchronized int copiesUp(Block block) {
        return copiesOf(block).up().size();
    }

    /** Every copy of a block of this storage ({@link #write} and {@link #adopt} record them). */
    private Copies copiesOf(Block block) {
        return requireNonNull(copies.get(slot(block.regionId(), block.offset())), "a block this storage did not place");
    }

    /** The copy of {@code block} reads use: the first whose holder is up, else the first. */
    private synchronized Copy serving(Block block) {
        Copies c = copiesOf(block);
        List<Copy> up = c.up();
        return up.isEmpty() ? c.list().get(0) : up.get(0);
    }

    /** The region reads of a block use: of its first copy on a holder that is up, else of its first. */
    public RemoteRegion region(Block block) {
        return serving(block).region();
    }

    /** The nodes that hold copies of a block, the one reads use first. */
    public synchronized List<String> holders(Block block) {
        RemoteRegion reads = region(block);
        List<String> out = new ArrayList<>(List.of(reads.holder().name()));
        for (Copy copy : copiesOf(block).list()) {
            if (copy.region() != reads) {
                out.add(copy.region().holder().name());
            }
        }
        return out;
    }

    /**
     * Whether no copy of {@code block} can come back: every node that held one restarted since (a new process under
     * its name joined), so its memory is gone.
     */
    public synchronized boolean lost(Block block) {
        return copiesOf(block).list().stream().allMatch(copy -> cluster.replaced(copy.region().holder()));
    }

    /**
     * Where block {@code position} of a table is — its first copy on a holder that is up — failing with SQLSTATE
     * 08006 naming the node if no holder of a copy is up.
     */
    public BlockLocation locate(String table, Block block, int position) {
        Copy c = serving(block);
        Member holder = c.region().holder();
        if (!holder.isUp()) {
            throw new FerryException(SqlStates.CONNECTION_FAILURE, "table '" + table + "' has blocks on "
                    + holder.describe() + ", which is down (" + holder.downReason() + ")" + (replicas > 1
                            ? ", with no copy on a node that is up" : "") + "; if the node is only "
                    + "frozen or cut off, the table answers again once it is back; if its process died, restart it "
                    + (keepsFiles ? "(the coordinator then reads the table back from its data directory)"
                            : "and load the table again"));
        }
        return new BlockLocation(position, c.region().descriptor(), c.offset(), block.length(), block.columnBounds());
    }

    /**
     * A node that went down: its blocks fail in {@link #locate} while it is down, or are read from their other copies.
     * Its free slots are kept (no block goes to a node that is down): if the same process comes back
     * ({@link Cluster}), they and its blocks are its again. With replicas, if it is still down {@link #REPLACE_AFTER}
     * later, its blocks are copied to the other holders up that have none ({@link #catchUp}), so a cluster with a
     * spare memory server is back to its copies without waiting for the node; if it then comes back, its copies are
     * kept as extra ones.
     */
    @Override
    public void onDown(Member member) {
        LOG.info("blocks on {} are unavailable while it is down{}", member.describe(), replicas > 1
                ? "; their other copies are read" : "");
        if (replicas > 1 && member.role().holdsBlocks()) {
            try {
                repair.schedule(() -> {
                    if (!member.isUp()) {
                        catchUp();
                    }
                }, replaceAfter.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // closed
            }
        }
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
    public void close() {
        repair.shutdownNow();
        try {
            repair.awaitTermination(timeout.toMillis() * 2, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (copying) {
            if (copyBuffer != null) {
                copyBuffer.close();
                copyBuffer = null;
            }
        }
        synchronized (this) {
            while (!readers.isEmpty()) {
                readers.pop().close();
            }
            closeStaging();
        }
    }
}
