package io.ferry.server.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.ScanBinder;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.vector.Batch;
import io.ferry.fabric.Fabric;
import io.ferry.server.cluster.Cluster;
import io.ferry.server.cluster.ClusterStorage;
import io.ferry.server.cluster.Member;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.sql.SessionSettings;
import io.ferry.sql.distributed.ShufflePlan;

/**
 * Runs a fragment's joins as a shuffle hash join ({@link ShufflePlan}, the baseline of I-Store DPE Fig. 7a) on the
 * nodes that run fragments: stage by stage, each node reads its share of a table's blocks (or its part of each
 * exchange a stage reads, from every node that holds one) and either splits its rows into parts it holds, one per
 * node, or — the last stage — sends its rows here. Stages that read only tables or finished exchanges run at once;
 * the parts are freed when the fragment ends, however it ends.
 */
final class ShuffleRunner {
    /** How long freeing a query's parts on a node may take before the coordinator stops waiting. */
    private static final Duration FREE_WAIT = Duration.ofSeconds(5);

    private final Cluster cluster;
    private final ClusterStorage storage;
    private final BufferAllocator allocator;
    private final Fabric fabric;

    ShuffleRunner(Cluster cluster, ClusterStorage storage, BufferAllocator allocator, Fabric fabric) {
        this.cluster = cluster;
        this.storage = storage;
        this.allocator = allocator;
        this.fabric = fabric;
    }

    /** A stage's run on one node, for sys.fragments. */
    record StageRun(int stage, String node, long blocks, double elapsedMillis) {
    }

    /** The nodes a shuffle runs on: compute servers and workers that are up, in a fixed order. */
    List<Member> runners() {
        List<Member> out = new ArrayList<>(cluster.up(m -> m.role().runsFragments() && m.channel().isOpen()));
        out.sort(Comparator.comparingInt(Member::id));
        return out;
    }

    /** Runs {@code plan} on {@code nodes} ({@link #runners}); the last stage's rows, from every node. */
    List<Batch> run(long queryId, AtomicInteger fragmentIds, ShufflePlan plan, List<Member> nodes, QueryContext ctx,
            SessionSettings session, Consumer<StageRun> record) {
        if (nodes.isEmpty()) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "execution = 'shuffle' runs on compute servers "
                    + "or workers, and none is up; SET execution = 'auto'");
        }
        int k = nodes.size();
        List<TableData> held = new ArrayList<>();
        List<Dispatch<Integer>> sent = new ArrayList<>();
        // per exchange, per node that ran its stage, per part: the blocks
        Map<Integer, List<List<List<BlockLocation>>>> parts = new HashMap<>();
        AtomicReference<FerryException> failed = new AtomicReference<>();
        QueryContext watched = ctx.stoppedBy(failed::get);
        List<Batch> out = new ArrayList<>();
        try {
            int next = 0;
            List<ShufflePlan.Stage> stages = plan.stages();
            while (next < stages.size()) {
                // a wave: the stages from here on whose exchanges are all filled
                int end = next;
                while (end < stages.size() && ready(stages.get(end), parts)) {
                    end++;
                }
                if (end == next) {
                    // a ShufflePlan lists every stage after those that fill what it reads: this is a bug, not a wait
                    throw new IllegalStateException("stage " + (next + 1) + " reads an exchange no earlier stage fills");
                }
                List<Dispatch<Integer>> wave = new ArrayList<>();
                for (int s = next; s < end; s++) {
                    ShufflePlan.Stage stage = stages.get(s);
                    byte[] encoded = PlanCodec.encode(stage.plan());
                    List<List<List<BlockLocation>>> perNode = scansPerNode(stage, nodes, parts, held);
                    for (int j = 0; j < k; j++) {
                        Dispatch<Integer> d = new Dispatch<>(s, nodes.get(j), perNode.get(j),
                                stage.last() ? 1 << 20 : 4096, allocator, fabric);
                        sent.add(d);
                        wave.add(d);
                        d.send(stage.last() ? MessageType.RUN_FRAGMENT : MessageType.RUN_EXCHANGE,
                                new FragmentRequest(queryId, fragmentIds.getAndIncrement(), encoded, perNode.get(j),
                                        d.region(), false, watched.remainingMillis(), session.prefetch(),
                                        stage.keys(), stage.last() ? 0 : k, null));
                        d.pending().whenComplete((reply, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, asFerry(Dispatch.unwrap(e)));
                            }
                        });
                    }
                }
                for (Dispatch<Integer> d : wave) {
                    ShufflePlan.Stage stage = stages.get(d.work);
                    if (stage.last()) {
                        out.addAll(d.collect(watched, stage.plan().types()));
                    } else {
                        parts.computeIfAbsent(stage.output(), e -> new ArrayList<>()).add(d.collectParts(watched));
                    }
                    long blocks = d.scans.stream().mapToLong(List::size).sum();
                    record.accept(new StageRun(d.work + 1, d.runner.name(), blocks, d.elapsedMillis()));
                }
                next = end;
            }
            return out;
        } catch (RuntimeException e) {
            for (Dispatch<Integer> d : sent) {
                d.cancel();
            }
            throw e;
        } finally {
            for (Dispatch<Integer> d : sent) {
                d.close();
            }
            for (TableData d : held) {
                d.close();
            }
            free(queryId, nodes);
        }
    }

    /** Whether every exchange {@code stage} reads has been filled. */
    private static boolean ready(ShufflePlan.Stage stage, Map<Integer, ?> parts) {
        List<PlanNode.Scan> scans = PlanCodec.scans(stage.plan());
        for (int c = 0; c < scans.size(); c++) {
            PlanNode.Scan scan = scans.get(c);
            int e = ShufflePlan.exchangeOf(scan);
            if (e >= 0 && !parts.containsKey(e)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Per node, per scan of the stage, the blocks it reads: part j of an exchange from every node that holds one, or
     * a share of a table's blocks — those a worker holds itself to that worker, the rest round-robin — or all of them,
     * for a build side every node reads whole.
     */
    private List<List<List<BlockLocation>>> scansPerNode(ShufflePlan.Stage stage, List<Member> nodes,
            Map<Integer, List<List<List<BlockLocation>>>> parts, List<TableData> held) {
        int k = nodes.size();
        List<List<List<BlockLocation>>> out = new ArrayList<>(k);
        for (int j = 0; j < k; j++) {
            out.add(new ArrayList<>());
        }
        List<PlanNode.Scan> scans = PlanCodec.scans(stage.plan());
        for (int c = 0; c < scans.size(); c++) {
            PlanNode.Scan scan = scans.get(c);
            int e = ShufflePlan.exchangeOf(scan);
            List<List<BlockLocation>> share = new ArrayList<>(k);
            for (int j = 0; j < k; j++) {
                share.add(new ArrayList<>());
            }
            if (e >= 0) {
                for (List<List<BlockLocation>> fromNode : parts.get(e)) {
                    for (int j = 0; j < k; j++) {
                        share.get(j).addAll(fromNode.get(j));
                    }
                }
            } else {
                Table table = (Table) scan.table();
                TableData data = table.snapshot();
                held.add(data);
                int spread = 0;
                for (int p : ScanBinder.blocksToRead(scan, scan.sample(), table, data)) {
                    Block block = data.blocks().get(p);
                    BlockLocation where = storage.locate(table.name(), block, p);
                    if (stage.whole()[c]) {
                        share.forEach(blocks -> blocks.add(where));
                    } else {
                        int owner = nodes.indexOf(storage.region(block).holder());
                        share.get(owner >= 0 ? owner : spread++ % k).add(where);
                    }
                }
            }
            for (int j = 0; j < k; j++) {
                out.get(j).add(share.get(j));
            }
        }
        return out;
    }

    /** Frees the query's parts on every node, waiting a little for each so that none outlives the query unseen. */
    private static void free(long queryId, List<Member> nodes) {
        Map<Member, Integer> all = new LinkedHashMap<>();
        nodes.forEach(m -> all.put(m, null));
        QueryRegions.freeOn(queryId, all, FREE_WAIT);
    }

    private static FerryException asFerry(RuntimeException e) {
        return e instanceof FerryException f ? f : new FerryException(SqlStates.INTERNAL_ERROR, "internal error: " + e, e);
    }
}
