package io.ferry.server.cluster;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.storage.Block;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.schema.SystemTable;

/** The coordinator's {@code sys} tables: nodes and their load, where tables and blocks live, recent fragments. */
public final class SystemTables {
    private SystemTables() {
    }

    public static void install(FerryEngine engine, Cluster cluster, ClusterStorage storage, ClusterRunner runner) {
        engine.systemTables().put("nodes", new SystemTable(List.of(
                col("id", FerryType.INTEGER), col("name", FerryType.VARCHAR), col("role", FerryType.VARCHAR),
                col("state", FerryType.VARCHAR), col("fabric", FerryType.VARCHAR), col("provider", FerryType.VARCHAR),
                col("threads", FerryType.INTEGER), col("memory_bytes", FerryType.BIGINT),
                col("used_bytes", FerryType.BIGINT), col("cpu_load", FerryType.DOUBLE),
                col("process_cpu_load", FerryType.DOUBLE), col("cpu_seconds", FerryType.DOUBLE),
                col("available_cores", FerryType.DOUBLE), col("fragments_running", FerryType.INTEGER), col("link_mb_per_s", FerryType.DOUBLE),
                col("latency_us", FerryType.DOUBLE), col("agg_rows_per_s", FerryType.DOUBLE),
                col("down_reason", FerryType.VARCHAR)), () -> nodes(cluster)));
        engine.systemTables().put("tables", new SystemTable(List.of(col("name", FerryType.VARCHAR),
                col("row_count", FerryType.BIGINT), col("blocks", FerryType.INTEGER), col("bytes", FerryType.BIGINT),
                col("nodes", FerryType.INTEGER)), () -> tables(engine, storage)));
        engine.systemTables().put("blocks", new SystemTable(List.of(col("table_name", FerryType.VARCHAR),
                col("position", FerryType.INTEGER), col("node", FerryType.VARCHAR), col("region", FerryType.INTEGER),
                col("block_offset", FerryType.BIGINT), col("block_length", FerryType.INTEGER), col("row_count", FerryType.INTEGER)),
                () -> blocks(engine, storage)));
        engine.systemTables().put("fragments", new SystemTable(List.of(col("query_id", FerryType.BIGINT),
                col("table_name", FerryType.VARCHAR), col("node", FerryType.VARCHAR), col("mode", FerryType.VARCHAR),
                col("reason", FerryType.VARCHAR), col("row_count", FerryType.BIGINT), col("bytes", FerryType.BIGINT),
                col("result_bytes", FerryType.BIGINT), col("compressed", FerryType.BOOLEAN),
                col("fs_cost_ms", FerryType.DOUBLE),
                col("ds_cost_ms", FerryType.DOUBLE), col("elapsed_ms", FerryType.DOUBLE),
                col("node_cpu_ms", FerryType.DOUBLE)), () -> fragments(runner)));
    }

    private static Column col(String name, FerryType type) {
        return new Column(name, type, true);
    }

    private static List<Object[]> nodes(Cluster cluster) {
        List<Object[]> rows = new ArrayList<>();
        for (Member m : cluster.members()) {
            NodeHello h = m.hello();
            NodeLoad l = m.load();
            rows.add(new Object[] {m.id(), m.name(), m.role().label(), m.state().name().toLowerCase(),
                    h.fabric().toString(), h.provider(), h.threads(), h.memory(), l.usedMemory(), l.systemCpu(),
                    l.processCpu(), l.cpuNanos() / 1e9, m.availableCores(), l.running(), m.bytesPerSecond() / 1e6,
                    m.latencySeconds() * 1e6, h.rates().aggMany(),
                    m.state() == Member.State.DOWN ? m.downReason() : null});
        }
        return rows;
    }

    private static List<Object[]> tables(FerryEngine engine, ClusterStorage storage) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : engine.catalog().tables()) {
            try (TableData d = t.snapshot()) {
                java.util.Set<Integer> holders = new java.util.HashSet<>();
                for (Block b : d.blocks()) {
                    holders.add(storage.region(b).holder().id());
                }
                rows.add(new Object[] {t.name(), d.rowCount(), d.blocks().size(), d.bytes(), holders.size()});
            }
        }
        return rows;
    }

    private static List<Object[]> blocks(FerryEngine engine, ClusterStorage storage) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : engine.catalog().tables()) {
            try (TableData d = t.snapshot()) {
                for (int p = 0; p < d.blocks().size(); p++) {
                    Block b = d.blocks().get(p);
                    ClusterStorage.RemoteRegion r = storage.region(b);
                    rows.add(new Object[] {t.name(), p, r.holder().name(), r.descriptor().key(), b.offset(),
                            b.length(), b.rowCount()});
                }
            }
        }
        return rows;
    }

    private static List<Object[]> fragments(ClusterRunner runner) {
        List<Object[]> rows = new ArrayList<>();
        for (ClusterRunner.FragmentRecord f : runner.recentFragments()) {
            rows.add(new Object[] {f.queryId(), f.table(), f.node(), f.mode(), f.reason(), f.rows(), f.bytes(),
                    f.resultBytes(), f.compressed(), f.fsMillis(), f.dsMillis(), f.elapsedMillis(), f.nodeCpuMillis()});
        }
        return rows;
    }
}
