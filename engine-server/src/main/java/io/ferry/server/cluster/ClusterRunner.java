package io.ferry.server.cluster;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.BatchStream;
import io.ferry.core.exec.BlockSource;
import io.ferry.core.exec.Distribution;
import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.exec.ScanBinder;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.vector.Batch;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.distributed.ShufflePlan;
import io.ferry.sql.distributed.WorkAssignment;
import io.ferry.sql.QueryRunner;
import io.ferry.sql.SessionSettings;

/**
 * Runs statements across the cluster (ship-or-not section II): the plan is split where it crosses the network
 * ({@link Distribution}); at each gather the blocks of the divided table are grouped into units of work — a worker's
 * own blocks, or a memory server's blocks shared among the compute servers — and for every unit the cost model
 * ({@link ShippingModel}) or the session's {@code shipping} setting picks function shipping (the unit's node runs the
 * fragment and writes its result into a region registered here) or data shipping (this node streams the blocks with
 * prefetched one-sided reads and runs the fragment itself). The coordinator merges everything (final aggregation).
 */
public final class ClusterRunner implements QueryRunner {
    /** Queries whose fragments sys.fragments keeps. */
    private static final int KEPT_FRAGMENTS = 1000;

    private final FerryEngine engine;
    private final Cluster cluster;
    private final ClusterStorage storage;
    private final Peers peers;
    private final BufferAllocator allocator;
    private final Calibration rates;
    private final Duration timeout;
    private final AtomicLong queryIds = new AtomicLong();
    /** Build-side blocks sent to nodes with their fragments, and those co-partitioning left out (what it saved). */
    private final AtomicLong buildBlocksSent = new AtomicLong();
    private final AtomicLong buildBlocksSpared = new AtomicLong();
    private final Map<String, AtomicInteger> runningPerTable = new ConcurrentHashMap<>();
    private final Deque<FragmentRecord> recent = new ArrayDeque<>();
    private final ShuffleRunner shuffles;

    /** A unit of work at a gather and how it was shipped. */
    public record FragmentRecord(long queryId, String table, String node, String mode, String reason, long rows,
            long bytes, long resultBytes, boolean compressed, double fsMillis, double dsMillis, double elapsedMillis,
            double nodeCpuMillis) {
    }

    private static final class Unit {
        final Member holder;
        final Member runner; // null: only the coordinator can run it
        final List<BlockLocation> blocks = new ArrayList<>();
        long rows;
        long bytes;
        boolean function;
        boolean compress; // the node's result, if it runs the fragment
        String reason;
        ShippingModel.Inputs inputs;
        ShippingModel.Costs costs;
        /** How the partitions were assigned to compute servers, when they were ({@link #assigned}); else null. */
        String assignment;

        Unit(Member holder, Member runner) {
            this.holder = holder;
            this.runner = runner;
        }

        String node() {
            return runner == null ? holder.name() : runner.name();
        }

        /** The same work for another compute server, after {@link #runner} was lost. */
        Unit movedTo(Member other, boolean compressed) {
            Unit u = new Unit(holder, other);
            u.blocks.addAll(blocks);
            u.rows = rows;
            u.bytes = bytes;
            u.function = true;
            u.compress = compressed;
            u.inputs = inputs;
            u.costs = costs;
            u.assignment = assignment;
            u.reason = "run again: " + runner.name() + " was lost while running it";
            return u;
        }
    }

    public ClusterRunner(FerryEngine engine, Cluster cluster, ClusterStorage storage, Peers peers,
            BufferAllocator allocator, Calibration rates, Duration timeout) {
        this.engine = engine;
        this.cluster = cluster;
        this.storage = storage;
        this.peers = peers;
        this.allocator = allocator;
        this.rates = rates;
        this.timeout = timeout;
        this.shuffles = new ShuffleRunner(cluster, storage, allocator, peers.fabric());
    }

    @Override
    public BatchStream run(PlanNode plan, QueryContext ctx, SessionSettings session) {
        long queryId = queryIds.incrementAndGet();
        // a query's fragments are numbered across all its gathers: a node tells them apart by (query, fragment)
        AtomicInteger fragmentIds = new AtomicInteger();
        PlanNode split = Distribution.split(plan);
        QueryContext distributed = ctx.withBinder((scan, sample) -> bindWhole(scan, sample, session.prefetch()))
                .withGatherer((gather, c) -> gather(queryId, fragmentIds, gather, c, session));
        return engine.executor().stream(split, distributed);
    }

    @Override
    public List<String> explain(PlanNode plan, SessionSettings session) {
        List<String> lines = new ArrayList<>();
        collectGathers(Distribution.split(plan), lines, session);
        return lines;
    }

    private void collectGathers(PlanNode node, List<String> lines, SessionSettings session) {
        if (node instanceof PlanNode.Gather g) {
            PlanNode fragment = Distribution.fixSamples(g.fragment());
            PlanNode.Scan scan = Distribution.partitionedScan(fragment);
            Table table = (Table) scan.table();
            ShufflePlan shuffle = shuffled(fragment, session);
            if (shuffle != null) {
                int k = shuffles.runners().size();
                lines.add("gather " + table.name() + " (" + fragment.getClass().getSimpleName() + " as a shuffle join "
                        + "in " + shuffle.stages().size() + " stages on " + k + " nodes, execution=shuffle)");
                for (String line : shuffle.describe(k)) {
                    lines.add("  " + line);
                }
                return;
            }
            try (TableData data = table.snapshot()) {
                int[] read = scan.zones().keep(SampleSpec.keptBlocks(scan.sample(), data.blocks().size()),
                        data.blocks());
                List<Unit> units = units(fragment, scan, table, data, read, session,
                        restrictions(fragment, scan, session));
                lines.add("gather " + table.name() + " (" + fragment.getClass().getSimpleName() + " on " + units.size()
                        + " units, shipping=" + session.shipping().name().toLowerCase(java.util.Locale.ROOT)
                        + ", execution=" + session.execution().name().toLowerCase(java.util.Locale.ROOT) + ")");
                if (session.execution() == SessionSettings.Execution.SHUFFLE) {
                    lines.add("  no join here splits by key (none, or only build sides that are aggregates or VALUES):"
                            + " gathered");
                }
                if (!units.isEmpty() && units.get(0).assignment != null) {
                    lines.add("  partitions assigned to compute servers: " + units.get(0).assignment);
                }
                for (Unit u : units) {
                    lines.add("  " + u.node() + ": " + (u.function ? "function" : "data") + " shipping — " + u.reason
                            + (u.costs == null ? "" : "; " + ShippingModel.describe(u.inputs, u.costs)));
                }
            }
            return;
        }
        for (PlanNode input : node.inputs()) {
            collectGathers(input, lines, session);
        }
    }

    /** A scan of a whole table, streamed here from wherever its blocks are. */
    private BlockSource bindWhole(PlanNode.Scan scan, SampleSpec sample, int prefetch) {
        Table table = (Table) scan.table();
        TableData data = table.snapshot();
        try {
            List<BlockLocation> blocks = locations(table, data, ScanBinder.blocksToRead(scan, sample, table, data));
            return holding(data, new FabricBlockSource(blocks, null, peers, allocator, prefetch, timeout));
        } catch (RuntimeException e) {
            data.close();
            throw e;
        }
    }

    private List<BlockLocation> locations(Table table, TableData data, int[] positions) {
        List<BlockLocation> out = new ArrayList<>(positions.length);
        for (int p : positions) {
            out.add(storage.locate(table.name(), data.blocks().get(p), p));
        }
        return out;
    }

    /** A source that also releases a table version when closed. */
    private static BlockSource holding(TableData data, BlockSource source) {
        return new BlockSource() {
            @Override
            public int blockCount() {
                return source.blockCount();
            }

            @Override
            public void read(int morsel, BlockVisitor visitor) {
                source.read(morsel, visitor);
            }

            @Override
            public boolean transientBytes() {
                return source.transientBytes();
            }

            @Override
            public void close() {
                try {
                    source.close();
                } finally {
                    data.close();
                }
            }
        };
    }

    /** Groups the divided table's blocks at positions {@code read} into units and decides each unit's shipping mode. */
    private List<Unit> units(PlanNode fragment, PlanNode.Scan scan, Table table, TableData data, int[] read,
            SessionSettings session, Map<PlanNode.Scan, CoPartitioning.Restriction> restricted) {
        List<Member> computes = cluster.up(m -> m.role() == Role.COMPUTE);
        List<Unit> assigned = assigned(scan, table, data, read, computes, restricted);
        if (assigned != null) {
            return decideAll(assigned, fragment, scan, table, session);
        }
        Map<Integer, Unit> byHolder = new LinkedHashMap<>();
        Map<String, Unit> byRunner = new LinkedHashMap<>();
        int spread = 0;
        for (int p : read) {
            Block block = data.blocks().get(p);
            Member holder = storage.region(block).holder();
            BlockLocation where = storage.locate(table.name(), block, p);
            Unit unit;
            if (holder.role() == Role.WORKER) {
                unit = byHolder.computeIfAbsent(holder.id(), id -> new Unit(holder, holder));
            } else if (!computes.isEmpty()) {
                // A memory server's blocks are shared among the compute servers, block by block.
                Member runner = computes.get(spread++ % computes.size());
                unit = byRunner.computeIfAbsent(holder.id() + "/" + runner.id(), k -> new Unit(holder, runner));
            } else {
                unit = byHolder.computeIfAbsent(holder.id(), id -> new Unit(holder, null));
            }
            unit.blocks.add(where);
            unit.rows += block.rowCount();
            unit.bytes += block.length();
        }
        List<Unit> units = new ArrayList<>(byHolder.values());
        units.addAll(byRunner.values());
        return decideAll(units, fragment, scan, table, session);
    }

    /**
     * Units by partition combination (I-Store DPE section 4.1): when the divided table's blocks all lie on memory
     * servers and its joins are co-partitioned with their build tables ({@link CoPartitioning}), each compute server
     * gets a set of the probe table's partitions by {@link WorkAssignment#best} — all their blocks, from whichever
     * memory server holds them — and so reads only the build parts those partitions meet. Null when that does not
     * apply (no compute server, a worker holding blocks, nothing co-partitioned).
     */
    private List<Unit> assigned(PlanNode.Scan scan, Table table, TableData data, int[] read, List<Member> computes,
            Map<PlanNode.Scan, CoPartitioning.Restriction> restricted) {
        if (computes.isEmpty() || read.length == 0 || restricted.isEmpty()) {
            return null;
        }
        for (int p : read) {
            if (storage.region(data.blocks().get(p)).holder().role() != Role.MEMORY) {
                return null;
            }
        }
        PartitionScheme scheme = table.partitioning();
        List<String> domains = new ArrayList<>();
        for (PartitionScheme.Key k : scheme.keys()) {
            if (restricted.values().stream().anyMatch(r -> r.domain().equals(k.domain()))) {
                domains.add(k.domain());
            }
        }
        int[] parts = new int[domains.size()];
        int cells = 1;
        for (int d = 0; d < parts.length; d++) {
            parts[d] = scheme.keyFor(domains.get(d)).parts();
            cells *= parts[d];
        }
        long[] cellBytes = new long[cells];
        int[] cellOf = new int[read.length];
        for (int i = 0; i < read.length; i++) {
            Block b = data.blocks().get(read[i]);
            int cell = 0;
            for (int d = 0; d < parts.length; d++) {
                cell = cell * parts[d] + scheme.digit(b.partition(), domains.get(d));
            }
            cellOf[i] = cell;
            cellBytes[cell] += b.length();
        }
        long[][] builds = new long[parts.length][];
        for (int d = 0; d < parts.length; d++) {
            builds[d] = new long[parts[d]];
        }
        for (CoPartitioning.Restriction r : restricted.values()) {
            Table build = (Table) r.build().table();
            int d = domains.indexOf(r.domain());
            try (TableData bd = build.snapshot()) {
                for (Block b : bd.blocks()) {
                    builds[d][build.partitioning().digit(b.partition(), r.domain())] += b.length();
                }
            }
        }
        WorkAssignment plan = WorkAssignment.best(new WorkAssignment.Input(parts, cellBytes, builds,
                computes.size()));
        int[] server = new int[cells];
        for (int s = 0; s < plan.servers().size(); s++) {
            for (int cell : plan.servers().get(s)) {
                server[cell] = s;
            }
        }
        String described = String.format(java.util.Locale.ROOT, "%s over %s (%d cells), %,d build bytes read "
                + "twice or more, busiest server %,d bytes (max/mean %.2f)", plan.method(), domains, cells,
                plan.replicated(), plan.busiest(), plan.imbalance());
        Map<Integer, Unit> byServer = new LinkedHashMap<>();
        for (int i = 0; i < read.length; i++) {
            Block block = data.blocks().get(read[i]);
            Member holder = storage.region(block).holder();
            int s = server[cellOf[i]];
            Unit unit = byServer.computeIfAbsent(s, k -> new Unit(holder, computes.get(k)));
            unit.assignment = described;
            unit.blocks.add(storage.locate(table.name(), block, read[i]));
            unit.rows += block.rowCount();
            unit.bytes += block.length();
        }
        return new ArrayList<>(byServer.values());
    }

    private List<Unit> decideAll(List<Unit> units, PlanNode fragment, PlanNode.Scan scan, Table table,
            SessionSettings session) {
        int concurrent = runningPerTable.computeIfAbsent(table.name(), t -> new AtomicInteger()).get() + 1;
        // Data-shipped units all run on the coordinator at once, so each is priced with its share of the
        // coordinator's cores: more workers mean less data per worker and a busier coordinator, and favour
        // function shipping (ship-or-not section II-A).
        double coordCores = engine.config().threads() / (double) concurrent / Math.max(1, units.size());
        // BERNOULLI reads every row and keeps this share; SYSTEM has kept whole blocks above (section II-B.1)
        SampleSpec sample = scan.sample();
        double rowFraction = sample != null && sample.method() == SampleSpec.Method.BERNOULLI
                ? sample.percent() / 100 : 1;
        for (Unit u : units) {
            decide(u, fragment, table, session, coordCores, concurrent, rowFraction);
        }
        return units;
    }

    private void decide(Unit u, PlanNode fragment, Table table, SessionSettings session, double coordCores,
            int concurrent, double rowFraction) {
        if (u.runner == null) {
            u.function = false;
            u.reason = "memory server " + u.holder.name() + " runs no query code and no compute server is up";
            return;
        }
        NodeHello w = u.runner.hello();
        // Fragments this coordinator has running there now, not the last heartbeat's count: back-to-back queries
        // would find the previous one's fragment in it and price the node at half its cores.
        double workerCores = u.runner.availableCores() / (1 + u.runner.fragmentsInFlight());
        long resultRows = ResultEstimate.rows(fragment, table, Math.round(u.rows * rowFraction));
        long resultBytes = ResultEstimate.bytes(fragment, resultRows);
        long groups = ResultEstimate.groups(fragment, resultRows);
        boolean compress = compress(session, u.runner);
        u.compress = compress;
        double link = Math.min(u.runner.bytesPerSecond(), u.holder.bytesPerSecond());
        u.inputs = new ShippingModel.Inputs(u.rows, rowFraction, u.bytes, u.blocks.size(), session.prefetch(),
                resultRows, resultBytes,
                groups,
                compress ? ResultEstimate.LZ4_RATIO : 1.0, Math.max(1, link), u.runner.latencySeconds(),
                new ShippingModel.Node(coordCores, engine.config().threads(), rates.aggRowsPerSecond(groups),
                        rates.bernoulliRowsPerSecond()),
                new ShippingModel.Node(workerCores, w.threads(), w.rates().aggRowsPerSecond(groups),
                        w.rates().bernoulliRowsPerSecond()),
                w.rates().lz4BytesPerSecond(),
                Math.min(rates.ipcBytesPerSecond(), w.rates().ipcBytesPerSecond()), concurrent);
        u.costs = ShippingModel.price(u.inputs);
        switch (session.shipping()) {
            case FUNCTION -> {
                u.function = true;
                u.reason = "forced by SET shipping = 'function'";
            }
            case DATA -> {
                u.function = false;
                u.reason = "forced by SET shipping = 'data'";
            }
            default -> {
                u.function = u.costs.functionWins();
                u.reason = u.function ? "cheaper: the result is small next to the data or the coordinator is busy"
                        : "cheaper: the result is large or the node is busy";
            }
        }
    }

    /** Whether results from {@code node} are compressed: the setting, or on when LZ4 outruns the link. */
    private boolean compress(SessionSettings session, Member node) {
        return switch (session.compression()) {
            case ON -> true;
            case OFF -> false;
            case AUTO -> node.hello().rates().lz4BytesPerSecond() > node.bytesPerSecond();
        };
    }

    private List<Batch> gather(long queryId, AtomicInteger fragmentIds, PlanNode.Gather gather, QueryContext ctx,
            SessionSettings session) {
        PlanNode fragment = Distribution.fixSamples(gather.fragment());
        PlanNode.Scan divided = Distribution.partitionedScan(fragment);
        Table table = (Table) divided.table();
        ShufflePlan shuffle = shuffled(fragment, session);
        if (shuffle != null) {
            int stages = shuffle.stages().size();
            try {
                return shuffles.run(queryId, fragmentIds, shuffle, ctx, session, run -> remember(new FragmentRecord(
                        queryId, table.name(), run.node(), "shuffle", "stage " + run.stage() + " of " + stages
                        + " of a shuffle join (SET execution = 'shuffle'), " + run.blocks() + " blocks read", 0, 0, 0,
                        false, Double.NaN, Double.NaN, run.elapsedMillis(), Double.NaN)));
            } catch (RuntimeException e) {
                throw named(e);
            }
        }
        AtomicInteger running = runningPerTable.computeIfAbsent(table.name(), t -> new AtomicInteger());
        List<TableData> held = new ArrayList<>();
        List<Dispatch<Unit>> dispatched = new ArrayList<>();
        running.incrementAndGet();
        try {
            TableData data = table.snapshot();
            held.add(data);
            Map<PlanNode.Scan, CoPartitioning.Restriction> restricted = restrictions(fragment, divided, session);
            List<Unit> units = units(fragment, divided, table, data,
                    ScanBinder.blocksToRead(divided, divided.sample(), table, data), session, restricted);
            List<PlanNode.Scan> scans = PlanCodec.scans(fragment);
            List<List<BlockLocation>> whole = new ArrayList<>();
            List<TableData> builds = new ArrayList<>();
            for (PlanNode.Scan s : scans) {
                if (s == divided) {
                    whole.add(null);
                    builds.add(null);
                } else {
                    Table t = (Table) s.table();
                    TableData d = t.snapshot();
                    held.add(d);
                    builds.add(d);
                    whole.add(locations(t, d, ScanBinder.blocksToRead(s, s.sample(), t, d)));
                }
            }
            byte[] encoded = null;
            List<BlockLocation> here = new ArrayList<>();
            List<Unit> hereUnits = new ArrayList<>();
            // The first node to fail stops the whole query at once: the coordinator's own part and the waits for
            // the other nodes check it, so a lost node fails the query in moments, not when the slowest is done.
            AtomicReference<FerryException> failed = new AtomicReference<>();
            ctx = ctx.stoppedBy(failed::get);
            for (Unit u : units) {
                if (u.function) {
                    if (encoded == null) {
                        encoded = PlanCodec.encode(fragment);
                    }
                    List<List<BlockLocation>> unitScans = restricted.isEmpty() ? whole
                            : buildsFor(u, table, data, scans, whole, builds, restricted);
                    countBuilds(whole, unitScans);
                    Dispatch<Unit> d = dispatch(queryId, fragmentIds.getAndIncrement(), u, encoded, unitScans, session,
                            ctx);
                    dispatched.add(d);
                    d.pending().whenComplete((reply, e) -> {
                        if (e != null && !retries(d, session)) {
                            failed.compareAndSet(null, named(Dispatch.unwrap(e)));
                        }
                    });
                } else {
                    here.addAll(u.blocks);
                    hereUnits.add(u);
                }
            }
            List<Batch> out = new ArrayList<>();
            if (!here.isEmpty() || dispatched.isEmpty()) {
                long t0 = System.nanoTime();
                QueryContext local = ctx.withGatherer(null).withBinder((scan, sample) -> scan == divided
                        ? new FabricBlockSource(here, null, peers, allocator, session.prefetch(), timeout)
                        : bindWhole(scan, sample, session.prefetch()));
                out.addAll(engine.executor().execute(fragment, local));
                double ms = (System.nanoTime() - t0) / 1e6;
                for (Unit u : hereUnits) {
                    record(queryId, table, u, "data", 0, ms, 0);
                }
            }
            // by index: a unit run again after its compute server was lost joins the list (closed with the rest)
            for (int i = 0, sent = dispatched.size(); i < sent; i++) {
                Dispatch<Unit> d = dispatched.get(i);
                try {
                    out.addAll(collect(queryId, table, d, ctx, fragment));
                } catch (RuntimeException e) {
                    if (!retries(d, session)) {
                        throw e;
                    }
                    out.addAll(runAgain(queryId, fragmentIds, table, d, encoded, fragment, divided, session, ctx,
                            dispatched));
                }
            }
            return out;
        } catch (RuntimeException e) {
            for (Dispatch<Unit> d : dispatched) {
                d.cancel();
            }
            throw named(e);
        } finally {
            running.decrementAndGet();
            for (Dispatch<Unit> d : dispatched) {
                d.close();
            }
            for (TableData d : held) {
                d.close();
            }
        }
    }

    private List<Batch> collect(long queryId, Table table, Dispatch<Unit> d, QueryContext ctx, PlanNode fragment) {
        List<Batch> got = d.collect(ctx, fragment.types());
        record(queryId, table, d.work, "function", d.reply().resultBytes(), d.elapsedMillis(),
                d.reply().cpuNanos() / 1e6);
        return got;
    }

    /**
     * Whether a failed unit runs again: its node was a compute server (it held nothing, so its work can move; I-Store
     * DPE section 2), its control connection is gone (the node, not its work, failed), it is the unit's first run and
     * {@code SET retry} is on.
     */
    private static boolean retries(Dispatch<Unit> d, SessionSettings session) {
        return session.retry() == SessionSettings.Retry.ON && !d.retry && d.runner.role() == Role.COMPUTE
                && !d.runner.channel().isOpen();
    }

    /**
     * Runs a lost compute server's unit once more: on the least busy compute server still up, or here, reading the
     * same blocks, when none is. Its partial result joins the others as if the first run had delivered it.
     */
    private List<Batch> runAgain(long queryId, AtomicInteger fragmentIds, Table table, Dispatch<Unit> lost,
            byte[] plan,
            PlanNode fragment, PlanNode.Scan divided, SessionSettings session, QueryContext ctx,
            List<Dispatch<Unit>> dispatched) {
        Member gone = lost.runner;
        Member other = cluster.up(m -> m.role() == Role.COMPUTE && m.id() != gone.id() && m.channel().isOpen())
                .stream().min(java.util.Comparator.comparingInt(Member::fragmentsInFlight)).orElse(null);
        if (other != null) {
            Unit moved = lost.work.movedTo(other, compress(session, other));
            List<List<BlockLocation>> scans = new ArrayList<>(lost.scans);
            scans.replaceAll(blocks -> blocks == lost.work.blocks ? null : blocks);
            Dispatch<Unit> again = dispatch(queryId, fragmentIds.getAndIncrement(), moved, plan, scans, session, ctx);
            again.retry = true;
            dispatched.add(again);
            return collect(queryId, table, again, ctx, fragment);
        }
        Unit here = lost.work.movedTo(lost.work.holder, false);
        here.function = false;
        here.reason = "run again here: " + gone.name() + " was lost and no other compute server is up";
        List<PlanNode.Scan> scans = PlanCodec.scans(fragment);
        Map<PlanNode.Scan, List<BlockLocation>> blocks = new java.util.IdentityHashMap<>();
        for (int i = 0; i < scans.size(); i++) {
            blocks.put(scans.get(i), lost.scans.get(i));
        }
        long t0 = System.nanoTime();
        List<Batch> out = engine.executor().execute(fragment, ctx.withGatherer(null).withBinder((scan, sample) ->
                new FabricBlockSource(blocks.get(scan), null, peers, allocator, session.prefetch(), timeout)));
        record(queryId, table, here, "data", 0, (System.nanoTime() - t0) / 1e6, 0);
        return out;
    }

    /**
     * The shuffle stages of a fragment under {@code SET execution = 'shuffle'}; null when the setting is another, or
     * no join of the fragment splits by key (it has none, or only joins with an aggregate or VALUES as build side):
     * there is nothing to shuffle, and it runs gathered, as EXPLAIN says.
     */
    private static ShufflePlan shuffled(PlanNode fragment, SessionSettings session) {
        return session.execution() == SessionSettings.Execution.SHUFFLE ? ShufflePlan.of(fragment) : null;
    }

    /**
     * The build scans co-partitioning restricts, as {@code SET execution} allows: none for 'gather'; for
     * 'pipelined', some or the query fails (0A000), rather than running as it would have anyway.
     */
    private static Map<PlanNode.Scan, CoPartitioning.Restriction> restrictions(PlanNode fragment,
            PlanNode.Scan divided, SessionSettings session) {
        if (session.execution() == SessionSettings.Execution.GATHER) {
            return Map.of();
        }
        Map<PlanNode.Scan, CoPartitioning.Restriction> restricted = CoPartitioning.of(fragment, divided);
        if (restricted.isEmpty() && session.execution() == SessionSettings.Execution.PIPELINED
                && hasJoin(fragment)) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "execution = 'pipelined' runs joins of "
                    + "co-partitioned tables, and this query's reading of " + ((Table) divided.table()).name()
                    + " joins none on their partitioning columns (same domain, as many parts); partition the tables "
                    + "alike (CREATE TABLE ... WITH (partition_by = ...)), or SET execution = 'auto'");
        }
        return restricted;
    }

    private static boolean hasJoin(PlanNode node) {
        if (node instanceof PlanNode.Join) {
            return true;
        }
        for (PlanNode input : node.inputs()) {
            if (hasJoin(input)) {
                return true;
            }
        }
        return false;
    }

    private void countBuilds(List<List<BlockLocation>> whole, List<List<BlockLocation>> sent) {
        for (int i = 0; i < whole.size(); i++) {
            if (whole.get(i) != null) {
                buildBlocksSent.addAndGet(sent.get(i).size());
                buildBlocksSpared.addAndGet(whole.get(i).size() - sent.get(i).size());
            }
        }
    }

    /** Build-side blocks sent with fragments so far, and those co-partitioned joins spared ({@link CoPartitioning}). */
    public long[] buildBlocks() {
        return new long[] {buildBlocksSent.get(), buildBlocksSpared.get()};
    }

    /**
     * The blocks each scan of the fragment reads on unit {@code u}: a build table co-partitioned with the probe
     * table only in the parts the unit's probe blocks are in ({@link CoPartitioning}), any other whole.
     */
    private static List<List<BlockLocation>> buildsFor(Unit u, Table probe, TableData probeData,
            List<PlanNode.Scan> scans, List<List<BlockLocation>> whole, List<TableData> builds,
            Map<PlanNode.Scan, CoPartitioning.Restriction> restricted) {
        List<List<BlockLocation>> out = new ArrayList<>(whole.size());
        for (int i = 0; i < scans.size(); i++) {
            CoPartitioning.Restriction r = restricted.get(scans.get(i));
            if (r == null) {
                out.add(whole.get(i));
                continue;
            }
            boolean[] needed = CoPartitioning.neededParts(probe, probeData.blocks(), u.blocks, r.domain());
            out.add(CoPartitioning.restrict((Table) scans.get(i).table(), builds.get(i).blocks(), whole.get(i),
                    r.domain(), needed));
        }
        return out;
    }

    private Dispatch<Unit> dispatch(long queryId, int fragmentId, Unit u, byte[] plan,
            List<List<BlockLocation>> whole, SessionSettings session, QueryContext ctx) {
        List<List<BlockLocation>> scans = new ArrayList<>(whole.size());
        for (List<BlockLocation> w : whole) {
            scans.add(w == null ? u.blocks : w);
        }
        long estimate = u.inputs == null ? 1 << 16 : u.inputs.resultBytes();
        int capacity = (int) Math.min(256L << 20, Math.max(64L << 10, estimate + estimate / 2 + 4096));
        Dispatch<Unit> d = new Dispatch<>(u, u.runner, scans, capacity, allocator, peers.fabric());
        d.send(MessageType.RUN_FRAGMENT, new FragmentRequest(queryId, fragmentId, plan, scans, d.region(),
                u.compress, ctx.remainingMillis(), session.prefetch()));
        return d;
    }

    /** Adds which node a fabric failure came from, when the message names only its address. */
    private FerryException named(RuntimeException e) {
        if (!(e instanceof FerryException f)) {
            return new FerryException(SqlStates.INTERNAL_ERROR, "internal error: " + e, e);
        }
        String msg = String.valueOf(f.getMessage());
        for (Member m : cluster.members()) {
            if (msg.contains(m.hello().fabric().toString()) && !msg.contains(m.name())) {
                return new FerryException(f.sqlState(), m.describe() + " failed during the query: " + msg, f);
            }
        }
        return f;
    }

    private void record(long queryId, Table table, Unit u, String mode, long resultBytes, double elapsed,
            double cpu) {
        boolean compressed = "function".equals(mode) && u.compress;
        FragmentRecord r = new FragmentRecord(queryId, table.name(), u.node(), mode, u.reason, u.rows, u.bytes,
                resultBytes, compressed, u.costs == null ? Double.NaN : u.costs.functionShipping() * 1e3,
                u.costs == null ? Double.NaN : u.costs.dataShipping() * 1e3, elapsed, cpu);
        remember(r);
    }

    private void remember(FragmentRecord r) {
        synchronized (recent) {
            recent.addLast(r);
            while (recent.size() > KEPT_FRAGMENTS) {
                recent.removeFirst();
            }
        }
    }

    /** The most recent units of work, oldest first (sys.fragments). */
    public List<FragmentRecord> recentFragments() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }
}
