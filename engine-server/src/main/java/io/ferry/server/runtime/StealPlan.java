package io.ferry.server.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.exec.PlanNode;
import io.ferry.fabric.Completions;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.server.cluster.Member;
import io.ferry.server.cluster.Role;
import io.ferry.server.cluster.control.MessageType;
import io.ferry.server.cluster.control.WireWriter;
import io.ferry.sql.SessionSettings;

/**
 * The work queues of one gathered scan under {@code SET steal = 'on'} (I-Store skew paper section 4): every unit a
 * compute server or a worker runs gets a queue of its blocks, kept as one word on the unit's memory server (the one
 * holding its blocks, or its partition's) or on the worker itself, and the units' fragments read the scan's blocks
 * only as they claim them — their own first, then stolen from the fullest other queue — so nodes that finish early
 * take work from a straggler. A worker runs the blocks it holds in place and reads the others. The words are freed
 * when the gather ends, however it ends.
 */
final class StealPlan implements AutoCloseable {
    private static final Duration FREE_WAIT = Duration.ofSeconds(2);

    private final long queryId;
    /** Every sharing unit's blocks, in units' order: the queues' elements index this list. */
    private final List<BlockLocation> blocks = new ArrayList<>();
    private final List<WorkQueues.Queue> queues = new ArrayList<>();
    private final Map<Unit, Integer> own = new IdentityHashMap<>();
    /** Where the words are: each holder and the key of the region it registered for them. */
    private final Map<Member, Integer> words = new LinkedHashMap<>();

    private StealPlan(long queryId) {
        this.queryId = queryId;
    }

    /**
     * Why the units of a scan do not share work, or null when they do: stealing is on, at least two units run on
     * compute servers, every build side is read whole (a pipelined unit reads only the build parts its own
     * partitions meet, so it cannot run another's blocks), and the scan is not sampled.
     */
    static String whyNot(List<Unit> units, PlanNode.Scan scan, boolean restricted, SessionSettings session) {
        if (session.steal() != SessionSettings.Steal.ON) {
            return "steal=off";
        }
        if (restricted) {
            return "steal=on, not applied: pipelined units read only the build parts of their own partitions";
        }
        if (scan.sample() != null) {
            return "steal=on, not applied: a sampled scan";
        }
        if (sharing(units).size() < 2) {
            return "steal=on, not applied: fewer than two units run on compute servers or workers";
        }
        return null;
    }

    private static List<Unit> sharing(List<Unit> units) {
        List<Unit> out = new ArrayList<>();
        for (Unit u : units) {
            boolean onCompute = u.runner != null && u.runner.role() == Role.COMPUTE && u.holder.role() == Role.MEMORY;
            boolean onWorker = u.runner != null && u.runner.role() == Role.WORKER && u.holder == u.runner;
            if (u.function && (onCompute || onWorker)) {
                out.add(u);
            }
        }
        return out;
    }

    /** EXPLAIN's line for units that share work. */
    static String describe(List<Unit> units) {
        List<Unit> shared = sharing(units);
        int n = 0;
        List<String> holders = new ArrayList<>();
        for (Unit u : shared) {
            n += u.blocks.size();
            if (!holders.contains(u.holder.name())) {
                holders.add(u.holder.name());
            }
        }
        // by name: the units' order follows the order the nodes joined in, which two starting at once make vary
        holders.sort(null);
        String on = shared.stream().allMatch(u -> u.runner.role() == Role.WORKER) ? "workers" : "compute servers";
        return "steal=on: " + shared.size() + " units on " + on + " share " + n + " blocks through work queues "
                + "on " + String.join(", ", holders) + " (one per unit, claimed by remote compare-and-swap); a unit "
                + "whose queue is empty steals from the fullest";
    }

    /** Allocates the queues of the units that share work, one per unit on its memory server or worker. */
    static StealPlan allocate(long queryId, List<Unit> units, Duration timeout) {
        StealPlan plan = new StealPlan(queryId);
        Map<Member, List<long[]>> perHolder = new LinkedHashMap<>();
        List<int[]> elements = new ArrayList<>();
        List<Member> holderOf = new ArrayList<>();
        List<Integer> slotOf = new ArrayList<>();
        for (Unit u : sharing(units)) {
            int[] mine = new int[u.blocks.size()];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = plan.blocks.size();
                plan.blocks.add(u.blocks.get(i));
            }
            List<long[]> list = perHolder.computeIfAbsent(u.holder, h -> new ArrayList<>());
            plan.own.put(u, elements.size());
            elements.add(mine);
            holderOf.add(u.holder);
            slotOf.add(list.size());
            list.add(new long[] {WorkQueues.Queue.initial(mine.length)});
        }
        try {
            Map<Member, RegionDescriptor> regions = new LinkedHashMap<>();
            for (Map.Entry<Member, List<long[]>> e : perHolder.entrySet()) {
                WireWriter w = new WireWriter().writeLong(queryId).writeInt(e.getValue().size());
                for (long[] word : e.getValue()) {
                    w.writeLong(word[0]);
                }
                RegionDescriptor d = Completions.result(e.getKey().channel().call(MessageType.ALLOCATE_QUEUES, w),
                        timeout, "allocating work queues on " + e.getKey().describe()).readDescriptor();
                regions.put(e.getKey(), d);
                plan.words.put(e.getKey(), d.key());
            }
            for (int q = 0; q < elements.size(); q++) {
                plan.queues.add(new WorkQueues.Queue(regions.get(holderOf.get(q)), 8L * slotOf.get(q),
                        elements.get(q)));
            }
            return plan;
        } catch (RuntimeException e) {
            plan.close();
            throw e;
        }
    }

    /** Whether {@code u} shares work through these queues. */
    boolean shares(Unit u) {
        return own.containsKey(u);
    }

    /** Every sharing unit's blocks: the scan's list in each sharing fragment's request. */
    List<BlockLocation> blocks() {
        return blocks;
    }

    /** What {@code u}'s fragment request says about the queues, its scan at index {@code scan}. */
    FragmentRequest.Stealing stealing(Unit u, int scan) {
        return new FragmentRequest.Stealing(scan, queues, own.get(u));
    }

    /** The blocks no fragment in {@code delivered} ran: what a lost compute server claimed and never delivered. */
    List<BlockLocation> missing(List<int[]> delivered) {
        boolean[] ran = new boolean[blocks.size()];
        for (int[] claimed : delivered) {
            for (int e : claimed) {
                ran[e] = true;
            }
        }
        List<BlockLocation> out = new ArrayList<>();
        for (int e = 0; e < ran.length; e++) {
            if (!ran[e]) {
                out.add(blocks.get(e));
            }
        }
        return out;
    }

    /** Frees the queues' words on every holder still up, waiting a little for each. */
    @Override
    public void close() {
        QueryRegions.freeOn(queryId, words, FREE_WAIT);
        words.clear();
    }
}
