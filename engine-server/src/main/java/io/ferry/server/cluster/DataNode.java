package io.ferry.server.cluster;

import static java.util.Objects.requireNonNull;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.BlockSource;
import io.ferry.core.exec.HashPartitioner;
import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.QueryExecutor;
import io.ferry.core.exec.QueryMemory;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.ipc.BatchIpc;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.fabric.Completions;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.Fabrics;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.server.cluster.control.ControlChannel;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireReader;
import io.ferry.server.cluster.control.WireWriter;
import io.ferry.server.runtime.BlockLocation;
import io.ferry.server.runtime.FabricBlockSource;
import io.ferry.server.runtime.FragmentRequest;
import io.ferry.server.runtime.QueryRegions;
import io.ferry.server.runtime.StealingBlockSource;
import io.ferry.server.runtime.WorkQueues;
import io.ferry.sql.EngineConfig;

/**
 * A memory server, compute server or worker (DESIGN.md, "Processes and roles"). It joins the coordinator's control
 * plane and then only answers it: memory-holding roles allocate and register regions the coordinator fills with
 * blocks one-sidedly and never run query code for reads of them (data shipping); roles that compute run plan
 * fragments on blocks — in their own memory or streamed from memory servers — and write the LZ4-compressed Arrow
 * result into a region the coordinator registered (function shipping).
 */
public final class DataNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DataNode.class);
    /** Bytes of the region the coordinator reads to measure the link when the node joins. */
    static final int PROBE_BYTES = 4 << 20;
    /** A result is written in pieces of this size, this many in flight. */
    private static final int WRITE_PIECE = 4 << 20;
    private static final int WRITES_IN_FLIGHT = 4;

    /**
     * How a node starts.
     *
     * @param name        unique in the cluster (a restart under the same name rejoins)
     * @param host        the address the fabric endpoint listens on
     * @param fabricPort  its port (0: any free one)
     * @param advertise   the host other nodes reach it at (null: {@code host})
     * @param coordinator the coordinator's control-plane address
     * @param memory      bytes of block memory to offer (memory and worker roles)
     * @param queryMemory bytes one fragment's operators may use
     * @param spillDirectory where a fragment's hash aggregations, sorts and joins spill beyond half of
     *        {@code queryMemory}; null: they do not, and fail with 53200
     */
    public record Options(Role role, String name, String host, int fabricPort, String advertise,
            InetSocketAddress coordinator, int threads, long memory, long queryMemory, Fabrics.Kind fabric,
            Duration timeout, ClusterSecret secret, ControlTls controlTls, Path spillDirectory) {
        public Options {
            requireNonNull(role, "role is null");
            requireNonNull(name, "name is null");
            requireNonNull(coordinator, "coordinator is null");
            if (role == Role.COORDINATOR) {
                throw new IllegalArgumentException("a data node cannot be the coordinator");
            }
        }

        /** Spilling to the JVM's temporary directory. */
        public Options(Role role, String name, String host, int fabricPort, String advertise,
                InetSocketAddress coordinator, int threads, long memory, long queryMemory, Fabrics.Kind fabric,
                Duration timeout, ClusterSecret secret, ControlTls controlTls) {
            this(role, name, host, fabricPort, advertise, coordinator, threads, memory, queryMemory, fabric, timeout,
                    secret, controlTls, EngineConfig.defaultSpillDirectory());
        }

        /** These options, spilling to {@code dir} (null: not at all). */
        public Options withSpillDirectory(Path dir) {
            return new Options(role, name, host, fabricPort, advertise, coordinator, threads, memory, queryMemory,
                    fabric, timeout, secret, controlTls, dir);
        }

        /** Without a cluster secret. */
        public Options(Role role, String name, String host, int fabricPort, String advertise,
                InetSocketAddress coordinator, int threads, long memory, long queryMemory, Fabrics.Kind fabric,
                Duration timeout) {
            this(role, name, host, fabricPort, advertise, coordinator, threads, memory, queryMemory, fabric, timeout,
                    null, null);
        }

        /** With a cluster secret, and plain TCP to the coordinator. */
        public Options(Role role, String name, String host, int fabricPort, String advertise,
                InetSocketAddress coordinator, int threads, long memory, long queryMemory, Fabrics.Kind fabric,
                Duration timeout, ClusterSecret secret) {
            this(role, name, host, fabricPort, advertise, coordinator, threads, memory, queryMemory, fabric, timeout,
                    secret, null);
        }
    }

    private record HeldRegion(ArrowBuf buffer, Region region) {
        /** Deregisters the region and frees its memory; returns the bytes freed. */
        long release() {
            long bytes = buffer.capacity();
            region.close();
            buffer.close();
            return bytes;
        }
    }

    /** A fragment's identity: its query, and which of the query's fragments it is. */
    private record FragmentKey(long queryId, int fragmentId) {
    }

    /** A fragment this node runs or whose result it holds. */
    private static final class Fragment {
        final AtomicBoolean cancelled = new AtomicBoolean();
        volatile byte[] result;
    }

    private final Options options;
    private final BufferAllocator allocator;
    private final Fabric fabric;
    private final Peers peers;
    private final QueryExecutor executor;
    private final ExecutorService work;
    private final ScheduledExecutorService scheduler;
    private final AffinityCpuLoad cpu = AffinityCpuLoad.open();
    private final Map<Integer, HeldRegion> regions = new ConcurrentHashMap<>();
    /** Fragments running or holding a result, by (query, fragment): several of one query may run here at once. */
    private final Map<FragmentKey, Fragment> fragments = new ConcurrentHashMap<>();
    private final QueryRegions queryRegions;
    private final BusyClock running = new BusyClock();
    private final HeldRegion probe;
    private final ControlClient control;
    private volatile int nodeId = -1;

    private DataNode(Options options) {
        this.options = options;
        this.allocator = new RootAllocator(options.role().holdsBlocks() ? options.memory() + (256L << 20) : 1L << 30);
        Fabric f = null;
        QueryExecutor ex = null;
        try {
            f = Fabrics.open(options.fabric(), options.host(), options.fabricPort(),
                    options.advertise() == null ? options.host() : options.advertise(), 2, options.secret());
            ex = new QueryExecutor(options.threads());
        } catch (RuntimeException e) {
            if (f != null) {
                f.close();
            }
            allocator.close();
            throw e;
        }
        this.fabric = f;
        this.executor = ex;
        this.peers = new Peers(fabric, options.timeout());
        this.queryRegions = new QueryRegions(fabric, allocator, options.role().label() + " " + options.name());
        this.work = Executors.newCachedThreadPool(daemon("ferry-node-work"));
        this.scheduler = Executors.newScheduledThreadPool(1, daemon("ferry-node-control"));
        ArrowBuf probeBuf = allocator.buffer(PROBE_BYTES);
        for (int i = 0; i < PROBE_BYTES; i += 8) {
            probeBuf.setLong(i, i * 0x9E3779B97F4A7C15L);
        }
        this.probe = new HeldRegion(probeBuf, fabric.register(probeBuf, 0, PROBE_BYTES));
        Calibration rates = Calibrator.measure(allocator);
        NodeHello hello = new NodeHello(options.name(), options.role(), UUID.randomUUID().toString(),
                fabric.address(), fabric.provider(), options.threads(),
                options.role().holdsBlocks() ? options.memory() : 0, rates, probe.region().descriptor());
        this.control = new ControlClient(options.coordinator(), hello, new Receiver(), this::load, scheduler,
                options.timeout(), id -> nodeId = id, options.secret(), options.controlTls());
    }

    /** Starts the node; it keeps trying to join the coordinator until it is closed. */
    public static DataNode start(Options options) {
        DataNode node = new DataNode(options);
        node.control.start();
        LOG.info("{} {} started: fabric {} at {}, {} threads{}", options.role().label(), options.name(),
                node.fabric.provider(), node.fabric.address(), options.threads(),
                options.role().holdsBlocks() ? ", " + options.memory() + " bytes of block memory" : "");
        return node;
    }

    public Options options() {
        return options;
    }

    public boolean joined() {
        return control.joined();
    }

    public int nodeId() {
        return nodeId;
    }

    /** CPU load on the cores this node may run on, so a pinned node is not charged with its neighbours' work. */
    private NodeLoad load() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long used = usedMemory();
        long free = options.role().holdsBlocks() ? Math.max(0, options.memory() - used) : 0;
        long cpuNanos = os.getProcessCpuTime();
        AffinityCpuLoad.Sample s = cpu == null ? null : cpu.sample(cpuNanos);
        if (s == null) {
            return new NodeLoad(Math.max(0, os.getCpuLoad()), Math.max(0, os.getProcessCpuLoad()), cpuNanos,
                    running.running(), running.busyFraction(), used, free, os.getAvailableProcessors(),
                    fabric.registeredRegions());
        }
        return new NodeLoad(s.systemCpu(), s.processCpu(), cpuNanos, running.running(), running.busyFraction(), used,
                free, s.cores(), fabric.registeredRegions());
    }

    private final class Receiver implements ControlChannel.Receiver {
        @Override
        public void onMessage(ControlChannel channel, ControlChannel.Message m) {
            switch (m.type()) {
                case MessageType.ALLOCATE -> answer(channel, m, () -> allocate(m.reader()));
                case MessageType.FREE -> answer(channel, m, () -> free(m.reader()));
                case MessageType.RETAIN -> answer(channel, m, () -> retain(m.reader()));
                case MessageType.RUN_FRAGMENT, MessageType.RUN_EXCHANGE -> {
                    // the request says which: a stage of a shuffle join (parts > 0) holds its rows here
                    Fragment fragment = register(m);
                    answer(channel, m, () -> run(FragmentRequest.decode(m.reader()), fragment));
                }
                case MessageType.FREE_QUERY_REGIONS -> answer(channel, m, () -> {
                    // the query's id, and optionally the key of the one region to free (a gather's work queues)
                    WireReader r = m.reader();
                    long queryId = r.readLong();
                    if (r.remaining() >= 4) {
                        queryRegions.free(queryId, r.readInt());
                    } else {
                        queryRegions.free(queryId);
                    }
                    r.end();
                    return new WireWriter();
                });
                case MessageType.ALLOCATE_QUEUES -> answer(channel, m, () -> {
                    WireReader r = m.reader();
                    long queryId = r.readLong();
                    long[] words = new long[r.readCount(8)];
                    for (int i = 0; i < words.length; i++) {
                        words[i] = r.readLong();
                    }
                    r.end();
                    return new WireWriter().writeDescriptor(queryRegions.holdWords(queryId, words));
                });
                case MessageType.WRITE_RESULT -> answer(channel, m, () -> writeHeld(m.reader()));
                case MessageType.CANCEL -> cancel(m.reader().readLong());
                default -> channel.fail(m, SqlStates.FEATURE_NOT_SUPPORTED, "node " + options.name()
                        + " does not understand control message type " + m.type() + "; run the same Ferry version "
                        + "on every node");
            }
        }

        @Override
        public void onClose(ControlChannel channel) {
            // Fragments of a lost coordinator cannot deliver their results: stop them, and drop what they hold.
            for (Fragment f : fragments.values()) {
                f.cancelled.set(true);
            }
            fragments.clear();
            queryRegions.close();
        }
    }

    /** Runs a call's work off the network thread and answers with its result or its error. */
    private void answer(ControlChannel channel, ControlChannel.Message m, java.util.function.Supplier<WireWriter> job) {
        work.execute(() -> {
            try {
                channel.reply(m, job.get());
            } catch (FerryException e) {
                channel.fail(m, e.sqlState(), e.getMessage());
            } catch (CompletionException e) {
                if (e.getCause() instanceof FerryException f) {
                    // a call this node made failed, such as a read from a memory server that died: its own SQLSTATE
                    // (08006), not an internal error (NamClusterIT, a memory server killed mid-query)
                    channel.fail(m, f.sqlState(), f.getMessage());
                } else {
                    internalError(channel, m, e);
                }
            } catch (RuntimeException | Error e) {
                internalError(channel, m, e);
            }
        });
    }

    private void internalError(ControlChannel channel, ControlChannel.Message m, Throwable e) {
        LOG.error("control request {} failed", m.type(), e);
        channel.fail(m, SqlStates.INTERNAL_ERROR, "node " + options.name() + " failed: " + e);
    }

    private WireWriter allocate(WireReader r) {
        long bytes = r.readLong();
        r.end();
        if (!options.role().holdsBlocks()) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, options.role().label() + " " + options.name()
                    + " holds no blocks");
        }
        if (bytes <= 0 || bytes > Integer.MAX_VALUE) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "a region of " + bytes + " bytes cannot be "
                    + "registered (1 byte to 2 GiB)");
        }
        long used = usedMemory();
        if (used + bytes > options.memory()) {
            throw new FerryException(SqlStates.OUT_OF_MEMORY, "node " + options.name() + " has " + (options.memory()
                    - used) + " of its " + options.memory() + " bytes of block memory left, " + bytes
                    + " needed: add memory servers or start them with a larger --memory");
        }
        ArrowBuf buf;
        try {
            buf = allocator.buffer(bytes);
        } catch (OutOfMemoryException e) {
            throw new FerryException(SqlStates.OUT_OF_MEMORY, "node " + options.name() + " cannot allocate " + bytes
                    + " bytes of block memory: raise -XX:MaxDirectMemorySize (FERRY_DIRECT_MEMORY) or --memory", e);
        }
        Region region;
        try {
            region = fabric.register(buf, 0, (int) bytes);
        } catch (RuntimeException e) {
            buf.close();
            throw e;
        }
        regions.put(region.descriptor().key(), new HeldRegion(buf, region));
        return new WireWriter().writeDescriptor(region.descriptor());
    }

    /** The bytes of block regions this node holds for the coordinator. */
    long blockMemory() {
        return usedMemory();
    }

    private long usedMemory() {
        long used = 0;
        for (HeldRegion h : regions.values()) {
            used += h.buffer().capacity();
        }
        return used;
    }

    private WireWriter free(WireReader r) {
        int key = r.readInt();
        r.end();
        HeldRegion h = regions.remove(key);
        if (h != null) {
            h.release();
        }
        return new WireWriter();
    }

    /**
     * Keeps the block regions the coordinator names and frees the others: a coordinator that restarted adopted what
     * its data directory still named and tells this node so; the rest would otherwise hold memory nobody reads.
     */
    private WireWriter retain(WireReader r) {
        Set<Integer> keep = new HashSet<>();
        for (int i = r.readCount(4); i > 0; i--) {
            keep.add(r.readInt());
        }
        r.end();
        long freed = 0;
        for (Integer key : List.copyOf(regions.keySet())) {
            if (!keep.contains(key)) {
                HeldRegion h = regions.remove(key);
                if (h != null) {
                    freed += h.release();
                }
            }
        }
        if (freed > 0) {
            LOG.info("freed {} bytes of block regions the coordinator no longer holds", freed);
        }
        return new WireWriter().writeLong(freed);
    }

    /** The bytes of a block in this node's own memory, or null. */
    private ArrowBuf localBytes(BlockLocation b) {
        if (!b.region().node().equals(fabric.address())) {
            return null;
        }
        ArrowBuf part = queryRegions.bytes(b.region().key());
        if (part != null) {
            b.region().checkRange(b.offset(), b.length());
            return part;
        }
        HeldRegion h = regions.get(b.region().key());
        if (h == null) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "node " + options.name() + " holds no region "
                    + b.region().key() + "; it may have restarted since the table was loaded");
        }
        b.region().checkRange(b.offset(), b.length());
        return h.buffer();
    }

    /**
     * Registers a RUN_FRAGMENT's fragment on the control connection's own thread, before the work thread takes it up:
     * a CANCEL the coordinator sends later on the same connection is handled after this, so it always finds the
     * fragment, even one still queued. Null if the node runs no fragments or the request is too short to name its
     * query (decoding it reports that).
     */
    private Fragment register(ControlChannel.Message m) {
        if (!options.role().runsFragments()) {
            return null;
        }
        FragmentKey key;
        try {
            WireReader r = m.reader();
            key = new FragmentKey(r.readLong(), r.readInt());
        } catch (RuntimeException e) {
            return null;
        }
        Fragment fragment = new Fragment();
        fragments.put(key, fragment);
        return fragment;
    }

    private WireWriter run(FragmentRequest request, Fragment fragment) {
        if (!options.role().runsFragments()) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "memory server " + options.name()
                    + " runs no query code; ship data from it instead");
        }
        if (fragment.cancelled.get()) {
            throw new FerryException(SqlStates.QUERY_CANCELED, "query " + request.queryId() + " was cancelled before "
                    + "its fragment started on " + options.name());
        }
        running.start();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        boolean keep = false;
        try {
            PlanNode plan = PlanCodec.decode(request.plan());
            List<PlanNode.Scan> scans = PlanCodec.scans(plan);
            if (scans.size() != request.scans().size()) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the fragment has " + scans.size()
                        + " scans but the request lists blocks for " + request.scans().size());
            }
            Map<PlanNode.Scan, List<BlockLocation>> blocks = new IdentityHashMap<>();
            for (int i = 0; i < scans.size(); i++) {
                blocks.put(scans.get(i), request.scans().get(i));
            }
            FragmentRequest.Stealing stealing = request.stealing();
            PlanNode.Scan shared = stealing == null ? null : scans.get(stealing.scan());
            StealingBlockSource[] stole = new StealingBlockSource[1];
            QueryContext ctx = new QueryContext(fragment.cancelled::get, request.timeoutMillis(),
                    new QueryMemory(options.queryMemory(), options.spillDirectory()))
                    .withBinder((scan, sample) -> {
                        if (scan != shared) {
                            return bind(blocks.get(scan), scan.columns(), sample, request.prefetch());
                        }
                        stole[0] = new StealingBlockSource(blocks.get(scan), scan.columns(), new WorkQueues(
                                stealing.queues(), stealing.own(), peers::get, options.timeout()), this::localBytes,
                                peers, allocator, request.prefetch(), options.timeout());
                        return stole[0];
                    });
            List<Batch> out = executor.execute(plan, ctx);
            if (request.parts() > 0) {
                return exchange(request, fragment, out, plan.types());
            }
            long rows = Batch.totalRows(out);
            byte[] result = BatchIpc.write(out, plan.types(), request.compress(), allocator);
            boolean written = result.length <= request.result().length();
            if (written) {
                write(result, request.result());
            } else {
                fragment.result = result;
                keep = true;
            }
            int[] claimed = stole[0] == null ? new int[0] : stole[0].claimed();
            int stolen = stole[0] == null ? 0 : stole[0].queues().stolen();
            return new FragmentRequest.Reply(result.length, written, rows, os.getProcessCpuTime() - cpu0,
                    System.nanoTime() - t0, claimed, stolen).encode();
        } catch (FerryException e) {
            // whose limit it was: each node has its own --query-memory
            throw SqlStates.OUT_OF_MEMORY.equals(e.sqlState()) ? new FerryException(e.sqlState(), "on "
                    + options.role().label() + " " + options.name() + ": " + e.getMessage(), e) : e;
        } finally {
            running.stop();
            if (!keep) {
                fragments.remove(new FragmentKey(request.queryId(), request.fragmentId()), fragment);
            }
        }
    }

    /** A shuffle stage's rows split into parts held here as blocks; the reply lists each part's blocks. */
    private WireWriter exchange(FragmentRequest request, Fragment fragment, List<Batch> rows,
            List<FerryType> types) {
        List<List<BlockLocation>> parts = queryRegions.hold(request.queryId(),
                new HashPartitioner(request.splitBy(), request.parts()).split(rows), types);
        // a CANCEL that came while the stage ran freed what the query held then, not these
        if (fragment.cancelled.get()) {
            queryRegions.free(request.queryId());
            throw new FerryException(SqlStates.QUERY_CANCELED, "query " + request.queryId() + " was cancelled "
                    + "while " + options.name() + " ran a stage of its shuffle join");
        }
        return QueryRegions.encode(parts);
    }

    private BlockSource bind(List<BlockLocation> blocks, int[] columns, SampleSpec sample, int prefetch) {
        List<BlockLocation> kept = new ArrayList<>();
        for (BlockLocation b : blocks) {
            if (SampleSpec.reads(sample, b.position())) {
                kept.add(b);
            }
        }
        return new FabricBlockSource(kept, columns, this::localBytes, peers, allocator, prefetch, options.timeout());
    }

    /**
     * Writes a result one-sidedly into the coordinator's region (the paper's RDMA WRITE of the result), in pieces with
     * a few in flight, so that the timeout bounds a stall rather than the whole transfer: 130 MB over a 100 Mbit/s
     * link takes ten seconds while it keeps moving.
     */
    private void write(byte[] result, RegionDescriptor target) {
        if (result.length == 0) {
            return;
        }
        try (ArrowBuf buf = allocator.buffer(result.length)) {
            buf.setBytes(0, result);
            try (Region local = fabric.register(buf, 0, result.length)) {
                Peer peer = peers.get(target.node());
                String what = "writing a " + result.length + "-byte result to the coordinator";
                ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
                try {
                    for (int at = 0; at < result.length; at += WRITE_PIECE) {
                        if (inFlight.size() == WRITES_IN_FLIGHT) {
                            Completions.await(inFlight.poll(), options.timeout(), what);
                        }
                        inFlight.add(peer.write(local, at, target, at, Math.min(WRITE_PIECE, result.length - at)));
                    }
                    while (!inFlight.isEmpty()) {
                        Completions.await(inFlight.poll(), options.timeout(), what);
                    }
                } finally {
                    // the region is deregistered on the way out: let writes still in flight finish or fail first
                    for (CompletableFuture<Void> w : inFlight) {
                        try {
                            Completions.await(w, options.timeout(), what);
                        } catch (RuntimeException ignored) {
                            // the first failure is already on its way up
                        }
                    }
                }
            }
        }
    }

    private WireWriter writeHeld(WireReader r) {
        long queryId = r.readLong();
        int fragmentId = r.readInt();
        RegionDescriptor target = r.readDescriptor();
        r.end();
        Fragment f = fragments.remove(new FragmentKey(queryId, fragmentId));
        if (f == null || f.result == null) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "node " + options.name()
                    + " holds no result of fragment " + fragmentId + " of query " + queryId + " (cancelled, or the "
                    + "coordinator reconnected)");
        }
        if (f.result.length > target.length()) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "the result of query " + queryId + " has "
                    + f.result.length + " bytes, the region " + target.length());
        }
        write(f.result, target);
        return new WireWriter();
    }

    /** Cancels every fragment of the query this node runs or holds. */
    private void cancel(long queryId) {
        fragments.entrySet().removeIf(e -> {
            if (e.getKey().queryId() != queryId) {
                return false;
            }
            e.getValue().cancelled.set(true);
            return true;
        });
        queryRegions.free(queryId);
    }

    @Override
    public void close() {
        control.close();
        scheduler.shutdownNow();
        work.shutdownNow();
        try {
            work.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.close();
        peers.close();
        queryRegions.close();
        for (Integer key : List.copyOf(regions.keySet())) {
            regions.remove(key).release();
        }
        probe.release();
        fabric.close();
        allocator.close();
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
