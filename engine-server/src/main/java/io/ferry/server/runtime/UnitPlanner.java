package io.ferry.server.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.server.cluster.Calibration;
import io.ferry.server.cluster.Cluster;
import io.ferry.server.cluster.ClusterStorage;
import io.ferry.server.cluster.Member;
import io.ferry.server.cluster.NodeHello;
import io.ferry.server.cluster.Role;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.SessionSettings;
import io.ferry.sql.distributed.ShippingModel;
import io.ferry.sql.distributed.WorkAssignment;

/**
 * Cuts a gather's blocks into units of work and ships each (ship-or-not section II): a worker's own blocks, a memory
 * server's blocks shared among the compute servers, or — for co-partitioned joins on memory and compute servers —
 * the probe partitions {@link WorkAssignment} gives each compute server (I-Store DPE section 4.1); then for every
 * unit the cost model ({@link ShippingModel}) or the session's {@code shipping} setting picks function or data
 * shipping.
 */
final class UnitPlanner {
    private final FerryEngine engine;
    private final Cluster cluster;
    private final ClusterStorage storage;
    private final Calibration rates;
    /** Gathers running on each table now: data-shipped units of all of them share the coordinator's cores. */
    private final Map<String, AtomicInteger> runningPerTable = new ConcurrentHashMap<>();

    UnitPlanner(FerryEngine engine, Cluster cluster, ClusterStorage storage, Calibration rates) {
        this.engine = engine;
        this.cluster = cluster;
        this.storage = storage;
        this.rates = rates;
    }

    /** The count of gathers running on {@code table}, which a gather raises while it runs. */
    AtomicInteger running(String table) {
        return runningPerTable.computeIfAbsent(table, t -> new AtomicInteger());
    }

    /** Where the blocks of {@code table} at {@code positions} are. */
    List<BlockLocation> locations(Table table, TableData data, int[] positions) {
        List<BlockLocation> out = new ArrayList<>(positions.length);
        for (int p : positions) {
            out.add(storage.locate(table.name(), data.blocks().get(p), p));
        }
        return out;
    }

    /** Groups the divided table's blocks at positions {@code read} into units and decides each unit's shipping mode. */
    List<Unit> units(PlanNode fragment, PlanNode.Scan scan, Table table, TableData data, int[] read,
            SessionSettings session, Map<PlanNode.Scan, CoPartitioning.Restriction> restricted) {
        List<Member> computes = cluster.up(m -> m.role() == Role.COMPUTE);
        List<Member> memories = cluster.up(m -> m.role() == Role.MEMORY);
        List<Member> workers = cluster.up(m -> m.role() == Role.WORKER);
        boolean paired = session.assignment() == SessionSettings.Assignment.PARTITION;
        boolean partitioned = table.partitioning().partitions() > 1;
        List<Unit> assigned = assigned(scan, table, data, read, computes, memories, restricted, session.assignment());
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
            boolean onWorker = holder.role() == Role.WORKER;
            List<Member> runners = onWorker ? workers : computes;
            if (paired && partitioned && !runners.isEmpty()) {
                // assignment = 'partition' (the skew paper's I-Store): partition p is compute server (or worker)
                // p's, from whichever nodes hold it (all of them, under NAM-partitioning); its unit's home — memory
                // server p, or the worker — keeps the unit's work queue under steal = 'on'
                int part = block.partition();
                Member runner = runners.get(part % runners.size());
                Member home = onWorker ? runner : memories.isEmpty() ? holder : memories.get(part % memories.size());
                unit = byRunner.computeIfAbsent("partition " + part, k -> new Unit(home, runner));
            } else if (onWorker) {
                unit = byHolder.computeIfAbsent(holder.id(), id -> new Unit(holder, holder));
            } else if (!computes.isEmpty()) {
                // A memory server's blocks are shared among the compute servers, block by block; or, under
                // assignment = 'partition' of a table not partitioned, all go to the compute server paired with it.
                Member runner = computes.get(paired ? Math.max(0, memories.indexOf(holder)) % computes.size()
                        : spread++ % computes.size());
                unit = byRunner.computeIfAbsent(holder.id() + "/" + runner.id(), k -> new Unit(holder, runner));
            } else {
                unit = byHolder.computeIfAbsent(holder.id(), id -> new Unit(holder, null));
            }
            unit.blocks.add(where);
            unit.rows += block.rowCount();
            unit.bytes += block.readBytes(scan.columns());
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
            List<Member> memories, Map<PlanNode.Scan, CoPartitioning.Restriction> restricted,
            SessionSettings.Assignment how) {
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
            cellBytes[cell] += b.readBytes(scan.columns());
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
                    builds[d][build.partitioning().digit(b.partition(), r.domain())] += b.readBytes(r.build().columns());
                }
            }
        }
        WorkAssignment.Input input = new WorkAssignment.Input(parts, cellBytes, builds, computes.size());
        WorkAssignment plan = switch (how) {
            case LDM -> WorkAssignment.ldm(input);
            case GRID -> WorkAssignment.grid(input);
            case PARTITION -> WorkAssignment.byOwner(input, holderOwners(data, read, cellOf, cells, memories,
                    computes.size()));
            default -> WorkAssignment.best(input);
        };
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
            unit.bytes += block.readBytes(scan.columns());
        }
        return new ArrayList<>(byServer.values());
    }

    /** Per cell, the compute server paired with the memory server holding the cell's first block. */
    private int[] holderOwners(TableData data, int[] read, int[] cellOf, int cells, List<Member> memories,
            int servers) {
        int[] owner = new int[cells];
        boolean[] seen = new boolean[cells];
        for (int i = 0; i < read.length; i++) {
            if (!seen[cellOf[i]]) {
                seen[cellOf[i]] = true;
                Member holder = storage.region(data.blocks().get(read[i])).holder();
                owner[cellOf[i]] = Math.max(0, memories.indexOf(holder)) % servers;
            }
        }
        return owner;
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
        long resultRows = ResultEstimate.rows(fragment, Math.round(u.rows * rowFraction));
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
    boolean compress(SessionSettings session, Member node) {
        return switch (session.compression()) {
            case ON -> true;
            case OFF -> false;
            case AUTO -> node.hello().rates().lz4BytesPerSecond() > node.bytesPerSecond();
        };
    }

}
