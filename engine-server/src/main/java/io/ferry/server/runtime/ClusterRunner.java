package io.ferry.server.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.BatchStream;
import io.ferry.core.exec.BlockSource;
import io.ferry.core.exec.MorselClaims;
import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.exec.ScanBinder;
import io.ferry.core.exec.Spine;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.vector.Batch;
import io.ferry.server.cluster.Calibration;
import io.ferry.server.cluster.Cluster;
import io.ferry.server.cluster.ClusterStorage;
import io.ferry.server.cluster.Member;
import io.ferry.server.cluster.Peers;
import io.ferry.server.cluster.Role;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;
import io.ferry.sql.QueryRunner;
import io.ferry.sql.SessionSettings;
import io.ferry.sql.distributed.Fragments;
import io.ferry.sql.distributed.ShippingModel;
import io.ferry.sql.distributed.ShufflePlan;

/**
 * Runs statements across the cluster, the coordinator's side of distributed execution. The plan is split where it
 * crosses the network ({@link Fragments}); at each gather, {@link JoinPlanner} decides how the fragment's joins run
 * (gathered, pipelined over co-partitioned tables, or as a shuffle join run by {@link ShuffleRunner}) and
 * {@link UnitPlanner} cuts the blocks into units and ships each by function (the unit's node runs the fragment and
 * writes its result into a region registered here, {@link Dispatch}) or by data (this node streams the blocks with
 * prefetched one-sided reads and runs the fragment itself). A unit lost with its compute server runs once more
 * elsewhere. The coordinator merges everything (final aggregation); {@link FragmentLog} keeps what each unit did.
 */
public final class ClusterRunner implements QueryRunner {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRunner.class);
    private final FerryEngine engine;
    private final Cluster cluster;
    private final ClusterStorage storage;
    private final Peers peers;
    private final BufferAllocator allocator;
    private final Duration timeout;
    private final AtomicLong queryIds = new AtomicLong();
    /** Build-side blocks sent to nodes with their fragments, and those co-partitioning left out (what it saved). */
    private final AtomicLong buildBlocksSent = new AtomicLong();
    private final AtomicLong buildBlocksSpared = new AtomicLong();
    private final FragmentLog log = new FragmentLog();
    private final UnitPlanner planner;
    private final ShuffleRunner shuffles;
    private final JoinPlanner joinPlanner;

    public ClusterRunner(FerryEngine engine, Cluster cluster, ClusterStorage storage, Peers peers,
            BufferAllocator allocator, Calibration rates, Duration timeout) {
        this.engine = engine;
        this.cluster = cluster;
        this.storage = storage;
        this.peers = peers;
        this.allocator = allocator;
        this.timeout = timeout;
        this.planner = new UnitPlanner(engine, cluster, storage, rates);
        this.shuffles = new ShuffleRunner(cluster, storage, allocator, peers.fabric());
        this.joinPlanner = new JoinPlanner(planner, shuffles);
    }

    @Override
    public BatchStream run(PlanNode plan, QueryContext ctx, SessionSettings session) {
        long queryId = queryIds.incrementAndGet();
        log.started(queryId, QueryLog.current());
        // a query's fragments are numbered across all its gathers: a node tells them apart by (query, fragment)
        AtomicInteger fragmentIds = new AtomicInteger();
        PlanNode split = Fragments.split(plan);
        QueryContext distributed = ctx.withBinder((scan, sample) -> bindWhole(scan, sample, session.prefetch()))
                .withGatherer((gather, c) -> gather(queryId, fragmentIds, gather, c, session));
        return engine.executor().stream(split, distributed);
    }

    @Override
    public List<String> explain(PlanNode plan, SessionSettings session) {
        List<String> lines = new ArrayList<>();
        collectGathers(Fragments.split(plan), lines, session);
        return lines;
    }

    private void collectGathers(PlanNode node, List<String> lines, SessionSettings session) {
        if (node instanceof PlanNode.Gather g) {
            PlanNode fragment = Fragments.fixSamples(g.fragment());
            PlanNode.Scan scan = Spine.scan(fragment);
            Table table = (Table) scan.table();
            try (TableData data = table.snapshot()) {
                int[] read = JoinPlanner.keptBlocks(scan, data);
                JoinPlanner.JoinPlan joins = joinPlanner.plan(fragment, scan, table, data, read, session);
                if (joins.shuffle() != null) {
                    int k = shuffles.runners().size();
                    lines.add("gather " + table.name() + " (" + fragment.getClass().getSimpleName() + " as a shuffle "
                            + "join in " + joins.shuffle().stages().size() + " stages on " + k + " nodes, execution="
                            + name(session.execution()) + ")");
                    if (joins.auto() != null) {
                        lines.add("  " + joins.auto().describe());
                    }
                    for (String line : joins.shuffle().describe(k)) {
                        lines.add("  " + line);
                    }
                    return;
                }
                List<Unit> units = planner.units(fragment, scan, table, data, read, session, joins.restricted());
                lines.add("gather " + table.name() + " (" + fragment.getClass().getSimpleName() + " on " + units.size()
                        + " units, shipping=" + name(session.shipping()) + ", execution=" + name(session.execution())
                        + ")");
                if (joins.auto() != null) {
                    lines.add("  " + joins.auto().describe());
                }
                if (session.execution() == SessionSettings.Execution.PIPELINED && joins.restricted().isEmpty()
                        && JoinPlanner.hasJoin(fragment)) {
                    lines.add("  no join here is co-partitioned with " + table.name() + " (same domain, as many "
                            + "parts): gathered");
                }
                if (session.execution() == SessionSettings.Execution.SHUFFLE) {
                    lines.add("  no join here splits by key (none, or only build sides that are aggregates or VALUES):"
                            + " gathered");
                }
                if (!units.isEmpty() && units.get(0).assignment != null) {
                    lines.add("  partitions assigned to compute servers: " + units.get(0).assignment);
                }
                String noSteal = StealPlan.whyNot(units, scan, !joins.restricted().isEmpty(), session);
                if (noSteal == null) {
                    lines.add("  " + StealPlan.describe(units));
                } else if (session.steal() == SessionSettings.Steal.ON) {
                    lines.add("  " + noSteal);
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
            List<BlockLocation> blocks = planner.locations(table, data, ScanBinder.blocksToRead(scan, sample, table, data));
            return holding(data, new FabricBlockSource(blocks, scan.columns(), null, peers, allocator, prefetch,
                    timeout));
        } catch (RuntimeException e) {
            data.close();
            throw e;
        }
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
            public MorselClaims claims(int from, int to) {
                return source.claims(from, to);
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

    /**
     * Runs a gather; if a node holding blocks is lost while it runs and the blocks are kept on more than one node
     * ({@code --replicas}), once more — nothing of it has reached the client yet — reading the copies on the nodes
     * still up. Without a copy up, the second run fails at once with 08006 naming the node.
     */
    private List<Batch> gather(long queryId, AtomicInteger fragmentIds, PlanNode.Gather gather, QueryContext ctx,
            SessionSettings session) {
        List<Member> holders = cluster.up(m -> m.role().holdsBlocks());
        try {
            return gatherOnce(queryId, fragmentIds, gather, ctx, session);
        } catch (FerryException e) {
            Member lost = storage.replicas() > 1 && session.retry() == SessionSettings.Retry.ON
                    && SqlStates.CONNECTION_FAILURE.equals(e.sqlState()) ? lostAmong(holders) : null;
            if (lost == null) {
                throw e;
            }
            LOG.info("query {}: {} was lost while it ran ({}); running it again on the copies of its blocks",
                    queryId, lost.describe(), e.getMessage());
            return gatherOnce(queryId, fragmentIds, gather, ctx, session);
        }
    }

    /**
     * One of {@code nodes} that is down now, waiting a moment for the control plane to mark it so: a killed node's
     * fabric connection may fail a read before its control connection is seen closed, and reads go to a copy only
     * once its holder is down.
     */
    private static Member lostAmong(List<Member> nodes) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (true) {
            for (Member m : nodes) {
                if (!m.isUp()) {
                    return m;
                }
            }
            if (System.nanoTime() > deadline) {
                return null;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    private List<Batch> gatherOnce(long queryId, AtomicInteger fragmentIds, PlanNode.Gather gather, QueryContext ctx,
            SessionSettings session) {
        PlanNode fragment = Fragments.fixSamples(gather.fragment());
        PlanNode.Scan divided = Spine.scan(fragment);
        Table table = (Table) divided.table();
        // one version of the table for deciding how the joins run and for running them
        TableData data = table.snapshot();
        JoinPlanner.JoinPlan joins;
        try {
            joins = joinPlanner.plan(fragment, divided, table, data, JoinPlanner.keptBlocks(divided, data), session);
        } catch (RuntimeException e) {
            data.close();
            throw e;
        }
        if (joins.shuffle() != null) {
            data.close(); // the shuffle takes its own snapshots, stage by stage
            String why = joins.auto() == null ? "SET execution = 'shuffle'" : "chosen by execution = 'auto'";
            return shuffle(queryId, fragmentIds, table, joins.shuffle(), why, ctx, session);
        }
        AtomicInteger running = planner.running(table.name());
        List<TableData> held = new ArrayList<>(List.of(data));
        List<Dispatch<Unit>> dispatched = new ArrayList<>();
        StealPlan steals = null;
        running.incrementAndGet();
        try {
            Map<PlanNode.Scan, CoPartitioning.Restriction> restricted = joins.restricted();
            List<Unit> units = planner.units(fragment, divided, table, data,
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
                    whole.add(planner.locations(t, d, ScanBinder.blocksToRead(s, s.sample(), t, d)));
                }
            }
            steals = StealPlan.whyNot(units, divided, !restricted.isEmpty(), session) == null
                    ? StealPlan.allocate(queryId, units, timeout) : null;
            int dividedAt = indexOf(scans, divided);
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
                    FragmentRequest.Stealing stealing = steals != null && steals.shares(u)
                            ? steals.stealing(u, dividedAt) : null;
                    Dispatch<Unit> d = dispatch(queryId, fragmentIds.getAndIncrement(), u, encoded, unitScans,
                            stealing == null ? u.blocks : steals.blocks(), stealing, session, ctx);
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
                out.addAll(runHere(queryId, table, fragment, divided, here, hereUnits, ctx, session));
            }
            // units that shared work: the blocks each ran, and a lost one, whose claimed blocks run again here
            List<int[]> delivered = new ArrayList<>();
            Dispatch<Unit> lostSharing = null;
            // by index: a unit run again after its compute server was lost joins the list (closed with the rest)
            for (int i = 0, sent = dispatched.size(); i < sent; i++) {
                Dispatch<Unit> d = dispatched.get(i);
                try {
                    out.addAll(collect(queryId, table, d, ctx, fragment));
                    delivered.add(d.reply().claimed());
                } catch (RuntimeException e) {
                    if (!retries(d, session)) {
                        throw e;
                    }
                    if (steals != null && steals.shares(d.work)) {
                        lostSharing = d;
                        continue;
                    }
                    out.addAll(runAgain(queryId, fragmentIds, table, d, encoded, fragment, divided, session, ctx,
                            dispatched));
                }
            }
            if (lostSharing != null) {
                Unit again = new Unit(lostSharing.work.holder, null);
                again.blocks.addAll(steals.missing(delivered));
                again.reason = "run again here: " + lostSharing.runner.name() + " was lost with " + again.blocks.size()
                        + " blocks it had claimed from the work queues";
                out.addAll(runHere(queryId, table, fragment, divided, again.blocks, List.of(again), ctx, session));
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
            if (steals != null) {
                steals.close();
            }
            for (TableData d : held) {
                d.close();
            }
        }
    }

    /** Runs {@code units}' blocks of the divided scan here, reading them from wherever they are. */
    private List<Batch> runHere(long queryId, Table table, PlanNode fragment, PlanNode.Scan divided,
            List<BlockLocation> blocks, List<Unit> units, QueryContext ctx, SessionSettings session) {
        long t0 = System.nanoTime();
        QueryContext local = ctx.withGatherer(null).withBinder((scan, sample) -> scan == divided
                ? new FabricBlockSource(blocks, scan.columns(), null, peers, allocator, session.prefetch(), timeout)
                : bindWhole(scan, sample, session.prefetch()));
        List<Batch> out = engine.executor().execute(fragment, local);
        double ms = (System.nanoTime() - t0) / 1e6;
        for (Unit u : units) {
            log.unit(queryId, table, u, "data", 0, ms, 0);
        }
        return out;
    }

    private static int indexOf(List<PlanNode.Scan> scans, PlanNode.Scan scan) {
        for (int i = 0; i < scans.size(); i++) {
            if (scans.get(i) == scan) {
                return i;
            }
        }
        throw new IllegalStateException("the divided scan is not among the fragment's scans");
    }

    private List<Batch> collect(long queryId, Table table, Dispatch<Unit> d, QueryContext ctx, PlanNode fragment) {
        List<Batch> got = d.collect(ctx, fragment.types());
        if (d.reply().claimed().length > 0) {
            d.work.reason = d.work.reason + String.format(java.util.Locale.ROOT, "; ran %d blocks through the work "
                    + "queues, %d of them stolen from other units' queues", d.reply().claimed().length,
                    d.reply().stolen());
        }
        log.unit(queryId, table, d.work, "function", d.reply().resultBytes(), d.elapsedMillis(),
                d.reply().cpuNanos() / 1e6);
        return got;
    }

    /**
     * Runs a fragment as a shuffle join on the nodes up now; if a compute server among them is lost and {@code SET
     * retry} is on, once more on those still up — a lost node's parts went with it, so every stage runs again.
     */
    private List<Batch> shuffle(long queryId, AtomicInteger fragmentIds, Table table, ShufflePlan plan, String why,
            QueryContext ctx, SessionSettings session) {
        List<Member> nodes = shuffles.runners();
        List<Member> holders = cluster.up(m -> m.role().holdsBlocks());
        try {
            return shuffles.run(queryId, fragmentIds, plan, nodes, ctx, session, run -> log.add(
                    stageRecord(queryId, table, plan, run, why)));
        } catch (RuntimeException e) {
            Member lost = nodes.stream().filter(m -> m.role() == Role.COMPUTE && !m.channel().isOpen()).findFirst()
                    .orElse(null);
            if (lost == null && storage.replicas() > 1 && e instanceof FerryException f
                    && SqlStates.CONNECTION_FAILURE.equals(f.sqlState())) {
                lost = lostAmong(holders); // its blocks are read from their copies on the second run
            }
            List<Member> rest = shuffles.runners();
            if (lost == null || session.retry() != SessionSettings.Retry.ON || rest.isEmpty()) {
                throw named(e);
            }
            String again = "run again: " + lost.name() + " was lost while running it; " + why;
            try {
                return shuffles.run(queryId, fragmentIds, plan, rest, ctx, session, run -> log.add(
                        stageRecord(queryId, table, plan, run, again)));
            } catch (RuntimeException second) {
                throw named(second);
            }
        }
    }

    private FragmentRecord stageRecord(long queryId, Table table, ShufflePlan plan, ShuffleRunner.StageRun run,
            String why) {
        return new FragmentRecord(queryId, log.statementOf(queryId), table.name(), run.node(), "shuffle", why + ": stage " + run.stage() + " of "
                + plan.stages().size() + " of a shuffle join, " + run.blocks() + " blocks read", 0, 0, 0, false,
                Double.NaN, Double.NaN, run.elapsedMillis(), Double.NaN);
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
            Unit moved = lost.work.movedTo(other, planner.compress(session, other));
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
                new FabricBlockSource(blocks.get(scan), scan.columns(), null, peers, allocator, session.prefetch(),
                        timeout)));
        log.unit(queryId, table, here, "data", 0, (System.nanoTime() - t0) / 1e6, 0);
        return out;
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
        return dispatch(queryId, fragmentId, u, plan, whole, u.blocks, null, session, ctx);
    }

    /**
     * @param divided  the divided scan's blocks: the unit's own, or under stealing every sharing unit's
     * @param stealing the work queues the unit claims its blocks from, or null
     */
    private Dispatch<Unit> dispatch(long queryId, int fragmentId, Unit u, byte[] plan,
            List<List<BlockLocation>> whole, List<BlockLocation> divided, FragmentRequest.Stealing stealing,
            SessionSettings session, QueryContext ctx) {
        List<List<BlockLocation>> scans = new ArrayList<>(whole.size());
        for (List<BlockLocation> w : whole) {
            scans.add(w == null ? divided : w);
        }
        long estimate = u.inputs == null ? 1 << 16 : u.inputs.resultBytes();
        int capacity = (int) Math.min(256L << 20, Math.max(64L << 10, estimate + estimate / 2 + 4096));
        Dispatch<Unit> d = new Dispatch<>(u, u.runner, scans, capacity, allocator, peers.fabric());
        d.send(MessageType.RUN_FRAGMENT, new FragmentRequest(queryId, fragmentId, plan, scans, d.region(),
                u.compress, ctx.remainingMillis(), session.prefetch(), new int[0], 0, stealing));
        return d;
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The most recent units of work, oldest first (sys.fragments). */
    public List<FragmentRecord> recentFragments() {
        return log.recent();
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
}
