package io.ferry.server.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ferry.core.exec.PlanCodec;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.sql.SessionSettings;
import io.ferry.sql.distributed.ExecutionChoice;
import io.ferry.sql.distributed.ShufflePlan;

/**
 * How a fragment's joins run on the cluster ({@code SET execution}, I-Store DPE): gathered, pipelined over
 * co-partitioned tables ({@link CoPartitioning}), or as a shuffle join ({@link ShufflePlan}) — and, under 'auto',
 * which of them moves the fewest bytes ({@link ExecutionChoice}), priced from the blocks each would read.
 */
final class JoinPlanner {
    private final UnitPlanner units;
    private final ShuffleRunner shuffles;

    JoinPlanner(UnitPlanner units, ShuffleRunner shuffles) {
        this.units = units;
        this.shuffles = shuffles;
    }

    /**
     * How a fragment's joins run.
     *
     * @param shuffle    the shuffle join's stages, or null
     * @param restricted the build scans co-partitioning restricts (pipelined), or none
     * @param auto       why {@code execution = 'auto'} chose so, or null under another setting
     */
    record JoinPlan(ShufflePlan shuffle, Map<PlanNode.Scan, CoPartitioning.Restriction> restricted,
            ExecutionChoice auto) {
    }

    /**
     * The {@code SET execution} setting applied to a fragment: 'shuffle' splits the joins that split by key (a fragment
     * with none has nothing to shuffle and runs gathered, as EXPLAIN says); 'pipelined' restricts co-partitioned
     * joins (a fragment with none runs gathered, as EXPLAIN says); 'gather' neither; 'auto' the one of the three that moves the fewest bytes
     * ({@link ExecutionChoice}).
     */
    JoinPlan plan(PlanNode fragment, PlanNode.Scan divided, Table table, TableData data, int[] read,
            SessionSettings session) {
        switch (session.execution()) {
            case SHUFFLE -> {
                return new JoinPlan(ShufflePlan.of(fragment), Map.of(), null);
            }
            case GATHER -> {
                return new JoinPlan(null, Map.of(), null);
            }
            case PIPELINED -> {
                return new JoinPlan(null, pipelined(fragment, divided), null);
            }
            default -> {
                if (!hasJoin(fragment)) {
                    return new JoinPlan(null, Map.of(), null);
                }
                Map<PlanNode.Scan, CoPartitioning.Restriction> restricted = CoPartitioning.of(fragment, divided);
                ShufflePlan shuffle = shuffles.runners().isEmpty() ? null : ShufflePlan.of(fragment);
                ExecutionChoice choice = priced(fragment, divided, table, data, read, session, restricted, shuffle);
                return switch (choice.mode()) {
                    case SHUFFLE -> new JoinPlan(shuffle, Map.of(), choice);
                    case PIPELINED -> new JoinPlan(null, restricted, choice);
                    default -> new JoinPlan(null, Map.of(), choice);
                };
            }
        }
    }

    /**
     * What each way of running the fragment's joins would move ({@link ExecutionChoice}): the probe blocks read, the
     * build tables' blocks (whole to each gathered unit, restricted to each pipelined one), and the rows a shuffle
     * splits — each split stage's input rows times the width of the columns it keeps (a join's output is taken to
     * have the probe table's rows, as a foreign-key join has at most).
     */
    private ExecutionChoice priced(PlanNode fragment, PlanNode.Scan divided, Table table, TableData data, int[] read,
            SessionSettings session, Map<PlanNode.Scan, CoPartitioning.Restriction> restricted, ShufflePlan shuffle) {
        long probe = bytes(data, read, divided.columns());
        List<PlanNode.Scan> scans = PlanCodec.scans(fragment);
        Map<PlanNode.Scan, List<BlockLocation>> whole = new java.util.IdentityHashMap<>();
        Map<PlanNode.Scan, TableData> snapshots = new java.util.IdentityHashMap<>();
        Map<String, Long> rows = new java.util.HashMap<>();
        rows.put(table.name(), rows(data, read));
        List<TableData> held = new ArrayList<>();
        try {
            long builds = 0;
            for (PlanNode.Scan s : scans) {
                if (s == divided) {
                    continue;
                }
                Table t = (Table) s.table();
                TableData d = t.snapshot();
                held.add(d);
                snapshots.put(s, d);
                int[] kept = keptBlocks(s, d);
                builds += bytes(d, kept, s.columns());
                rows.merge(t.name(), rows(d, kept), Math::max);
                whole.put(s, units.locations(t, d, kept));
            }
            int gathered = 0;
            boolean here = false;
            for (Unit u : units.units(fragment, divided, table, data, read, session, Map.of())) {
                gathered += u.function ? 1 : 0;
                here |= !u.function;
            }
            long pipelined = -1;
            if (!restricted.isEmpty()) {
                pipelined = probe;
                for (Unit u : units.units(fragment, divided, table, data, read, session, restricted)) {
                    for (Map.Entry<PlanNode.Scan, List<BlockLocation>> w : whole.entrySet()) {
                        CoPartitioning.Restriction r = restricted.get(w.getKey());
                        List<BlockLocation> sent = w.getValue();
                        if (r != null) {
                            sent = CoPartitioning.restrict((Table) w.getKey().table(),
                                    snapshots.get(w.getKey()).blocks(), sent, r.domain(),
                                    CoPartitioning.neededParts(table, data.blocks(), u.blocks, r.domain()));
                        }
                        int[] columns = w.getKey().columns();
                        pipelined += sent.stream().mapToLong(b -> b.readBytes(columns)).sum();
                    }
                }
            }
            long split = shuffle == null ? -1 : splitBytes(shuffle, rows.get(table.name()), rows);
            return ExecutionChoice.choose(probe, builds, gathered + (here ? 1 : 0), pipelined, split,
                    shuffles.runners().size());
        } finally {
            held.forEach(TableData::close);
        }
    }

    /** The bytes a shuffle's split stages put into exchanges, estimated from their input rows and kept columns. */
    private static long splitBytes(ShufflePlan shuffle, long probeRows, Map<String, Long> rows) {
        long split = 0;
        for (ShufflePlan.Stage stage : shuffle.stages()) {
            if (stage.last()) {
                continue;
            }
            // a stage over a table splits that table's rows; one over exchanges, a join's (the probe's rows)
            long in = probeRows;
            List<PlanNode.Scan> scans = PlanCodec.scans(stage.plan());
            if (scans.stream().noneMatch(x -> ShufflePlan.exchangeOf(x) >= 0)) {
                for (int c = 0; c < scans.size(); c++) {
                    if (!stage.whole()[c]) {
                        in = rows.getOrDefault(scans.get(c).table().name(), probeRows);
                    }
                }
            }
            long width = 0;
            for (io.ferry.core.types.FerryType t : stage.plan().types()) {
                width += t.kind() == io.ferry.core.types.TypeKind.VARCHAR ? 16 : Math.max(1, t.fixedWidth());
            }
            split += in * width;
        }
        return split;
    }

    /** The blocks of {@code scan} its sample and zone maps keep (without counting a scan, as EXPLAIN must not). */
    static int[] keptBlocks(PlanNode.Scan scan, TableData data) {
        return scan.zones().keep(SampleSpec.keptBlocks(scan.sample(), data.blocks().size()), data.blocks());
    }

    private static long bytes(TableData data, int[] positions, int[] columns) {
        long n = 0;
        for (int p : positions) {
            n += data.blocks().get(p).readBytes(columns);
        }
        return n;
    }

    private static long rows(TableData data, int[] positions) {
        long n = 0;
        for (int p : positions) {
            n += data.blocks().get(p).rowCount();
        }
        return n;
    }

    /**
     * The build scans co-partitioning restricts under {@code execution = 'pipelined'}; none where the fragment's
     * joins are not co-partitioned with its divided table, and then it runs gathered, as EXPLAIN says (a query's other
     * fragments still run pipelined).
     */
    private static Map<PlanNode.Scan, CoPartitioning.Restriction> pipelined(PlanNode fragment,
            PlanNode.Scan divided) {
        return CoPartitioning.of(fragment, divided);
    }

    static boolean hasJoin(PlanNode node) {
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

}
