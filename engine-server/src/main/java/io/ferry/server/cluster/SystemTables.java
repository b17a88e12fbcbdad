package io.ferry.server.cluster;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.ferry.core.storage.Block;
import io.ferry.core.storage.DataFile;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.fabric.Fabric;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.Principal;
import io.ferry.sql.schema.SystemTable;
import io.ferry.server.runtime.ClusterRunner;
import io.ferry.server.runtime.FragmentRecord;

/**
 * The {@code sys} tables a node adds to the engine's own ({@code queries}): nodes and their load, where tables and
 * blocks live, and on a coordinator the recent fragments.
 */
public final class SystemTables {
    private SystemTables() {
    }

    /** A coordinator's {@code sys} tables; {@code nodes} lists the coordinator (id 0) before the nodes that joined. */
    public static void install(FerryEngine engine, Cluster cluster, ClusterStorage storage, ClusterRunner runner,
            Fabric fabric) {
        engine.systemTables().put("nodes", new SystemTable(NODE_COLUMNS, () -> {
            List<Object[]> rows = new ArrayList<>();
            rows.add(coordinator(engine, fabric));
            rows.addAll(nodes(cluster));
            return rows;
        }));
        installStorage(engine, new Places() {
            @Override
            public String node(Block b) {
                return storage.region(b).holder().name();
            }

            @Override
            public int region(Block b) {
                return storage.region(b).descriptor().key();
            }

            @Override
            public List<String> copies(Block b) {
                return storage.holders(b);
            }

            @Override
            public int copiesUp(Block b) {
                return storage.copiesUp(b);
            }
        });
        engine.systemTables().put("fragments", new SystemTable(List.of(col("query_id", FerryType.BIGINT),
                col("statement_id", FerryType.BIGINT),
                col("table_name", FerryType.VARCHAR), col("node", FerryType.VARCHAR), col("mode", FerryType.VARCHAR),
                col("reason", FerryType.VARCHAR), col("row_count", FerryType.BIGINT), col("bytes", FerryType.BIGINT),
                col("result_bytes", FerryType.BIGINT), col("compressed", FerryType.BOOLEAN),
                col("fs_cost_ms", FerryType.DOUBLE),
                col("ds_cost_ms", FerryType.DOUBLE), col("elapsed_ms", FerryType.DOUBLE),
                col("node_cpu_ms", FerryType.DOUBLE)), () -> fragments(runner)));
    }

    /**
     * Local mode's {@code sys} tables, shaped as a coordinator's: {@code nodes} (this JVM, the one node),
     * {@code tables} and {@code blocks}. There is no {@code fragments}: a local query runs whole, in this JVM, and ships nothing.
     */
    public static void installLocal(FerryEngine engine, String nodeName) {
        engine.systemTables().put("nodes", new SystemTable(NODE_COLUMNS, () -> List.<Object[]>of(new Object[] {0,
            nodeName, "local", "up", "in-process", null, engine.config().threads(), engine.config().memoryLimit(),
            engine.allocator().getAllocatedMemory(), null, null, null, null, null, null, null, null, null, null})));
        installStorage(engine, new Places() {
            @Override
            public String node(Block b) {
                return nodeName;
            }

            @Override
            public int region(Block b) {
                return b.regionId();
            }

            @Override
            public List<String> copies(Block b) {
                return List.of(nodeName);
            }

            @Override
            public int copiesUp(Block b) {
                return 1;
            }
        });
    }

    private static final List<Column> NODE_COLUMNS = List.of(
            col("id", FerryType.INTEGER), col("name", FerryType.VARCHAR), col("role", FerryType.VARCHAR),
            col("state", FerryType.VARCHAR), col("fabric", FerryType.VARCHAR), col("provider", FerryType.VARCHAR),
            col("threads", FerryType.INTEGER), col("memory_bytes", FerryType.BIGINT),
            col("used_bytes", FerryType.BIGINT), col("cpu_load", FerryType.DOUBLE),
            col("process_cpu_load", FerryType.DOUBLE), col("cpu_seconds", FerryType.DOUBLE),
            col("available_cores", FerryType.DOUBLE), col("fragments_running", FerryType.INTEGER),
            col("regions", FerryType.INTEGER), col("link_mb_per_s", FerryType.DOUBLE), col("latency_us", FerryType.DOUBLE),
            col("agg_rows_per_s", FerryType.DOUBLE), col("down_reason", FerryType.VARCHAR));

    /** Where a node's blocks are, as {@code sys.tables} and {@code sys.blocks} show them. */
    private interface Places {
        /** The node reads of the block go to. */
        String node(Block b);

        /** Its region there. */
        int region(Block b);

        /** Every node that holds a copy of it, the one reads go to first. */
        List<String> copies(Block b);

        /** Its copies on nodes that are up. */
        int copiesUp(Block b);
    }

    /** {@code tables} and {@code blocks}. */
    private static void installStorage(FerryEngine engine, Places places) {
        engine.systemTables().put("tables", SystemTable.perUser(List.of(col("name", FerryType.VARCHAR),
                col("row_count", FerryType.BIGINT), col("blocks", FerryType.INTEGER), col("bytes", FerryType.BIGINT),
                col("nodes", FerryType.INTEGER), col("blocks_read", FerryType.BIGINT),
                col("blocks_skipped", FerryType.BIGINT), col("partitioning", FerryType.VARCHAR),
                col("placement", FerryType.VARCHAR), col("disk_files", FerryType.INTEGER),
                col("disk_bytes", FerryType.BIGINT), col("copies", FerryType.INTEGER)),
                reader -> tables(engine, places, reader)));
        engine.systemTables().put("blocks", SystemTable.perUser(List.of(col("table_name", FerryType.VARCHAR),
                col("position", FerryType.INTEGER), col("node", FerryType.VARCHAR), col("region", FerryType.INTEGER),
                col("block_offset", FerryType.BIGINT), col("block_length", FerryType.INTEGER),
                col("row_count", FerryType.INTEGER), col("partition_id", FerryType.INTEGER),
                col("copies", FerryType.INTEGER), col("copy_nodes", FerryType.VARCHAR)),
                reader -> blocks(engine, places, reader)));
    }

    private static Column col(String name, FerryType type) {
        return new Column(name, type, true);
    }

    /**
     * The coordinator as a node: its fabric, threads, memory and what its engine holds, the CPU load of its machine
     * and process and the fabric regions it has registered; no fragments (it sends them: sys.queries lists what it
     * runs) and no link of its own.
     */
    private static Object[] coordinator(FerryEngine engine, Fabric fabric) {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return new Object[] {0, "coordinator", "coordinator", "up", fabric.address().toString(), fabric.provider(),
            engine.config().threads(), engine.config().memoryLimit(), engine.allocator().getAllocatedMemory(),
            Math.max(0, os.getCpuLoad()), Math.max(0, os.getProcessCpuLoad()), os.getProcessCpuTime() / 1e9,
            (double) os.getAvailableProcessors(), null, fabric.registeredRegions(), null, null, null, null};
    }

    private static List<Object[]> nodes(Cluster cluster) {
        List<Object[]> rows = new ArrayList<>();
        for (Member m : cluster.members()) {
            NodeHello h = m.hello();
            NodeLoad l = m.load();
            rows.add(new Object[] {m.id(), m.name(), m.role().label(), m.state().name().toLowerCase(),
                    h.fabric().toString(), h.provider(), h.threads(), h.memory(), l.usedMemory(), l.systemCpu(),
                    l.processCpu(), l.cpuNanos() / 1e9, m.availableCores(), l.running(), l.regions(), m.bytesPerSecond() / 1e6,
                    m.latencySeconds() * 1e6, h.rates().aggMany(),
                    m.state() == Member.State.DOWN ? m.downReason() : null});
        }
        return rows;
    }

    /** The tables {@code reader} sees (those they hold a privilege on; an admin all). */
    private static List<Table> visible(FerryEngine engine, Principal reader) {
        return engine.catalog().tables().stream().filter(t -> engine.access().maySee(reader, t.name())).toList();
    }

    private static List<Object[]> tables(FerryEngine engine, Places places, Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : visible(engine, reader)) {
            try (TableData d = t.snapshot()) {
                Set<String> holders = new HashSet<>();
                Integer copies = null; // the fewest of any block: what the table survives losing, plus one
                for (Block b : d.blocks()) {
                    holders.addAll(places.copies(b));
                    copies = Math.min(copies == null ? Integer.MAX_VALUE : copies, places.copiesUp(b));
                }
                // what the data directory holds of it (docs/storage.md); NULL where tables live in memory only
                List<DataFile> files = t.files();
                boolean kept = engine.catalog().durable();
                rows.add(new Object[] {t.name(), d.rowCount(), d.blocks().size(), d.bytes(), holders.size(),
                    t.blocksRead(), t.blocksSkipped(), t.partitioning().describe(t.schema()),
                    t.partitioning().isNone() ? null : t.placement().sql(), kept ? files.size() : null,
                    kept ? DataFile.bytes(files) : null, copies});
            }
        }
        return rows;
    }

    private static List<Object[]> blocks(FerryEngine engine, Places places, Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : visible(engine, reader)) {
            try (TableData d = t.snapshot()) {
                for (int p = 0; p < d.blocks().size(); p++) {
                    Block b = d.blocks().get(p);
                    rows.add(new Object[] {t.name(), p, places.node(b), places.region(b), b.offset(), b.length(),
                        b.rowCount(), b.partition(), places.copiesUp(b), String.join(",", places.copies(b))});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> fragments(ClusterRunner runner) {
        List<Object[]> rows = new ArrayList<>();
        for (FragmentRecord f : runner.recentFragments()) {
            rows.add(new Object[] {f.queryId(), f.statementId() == 0 ? null : f.statementId(), f.table(), f.node(), f.mode(), f.reason(), f.rows(), f.bytes(),
                    f.resultBytes(), f.compressed(), f.fsMillis(), f.dsMillis(), f.elapsedMillis(), f.nodeCpuMillis()});
        }
        return rows;
    }
}
