package io.ferry.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;
import io.ferry.core.vector.LongVector;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * Selective range queries on SSB's lineorder with and without a zone-map index on lo_orderdate, side by side in one
 * JVM on the same data: once on a copy of lineorder stored sorted by lo_orderdate (where a month's rows fill a few
 * blocks) and once on lineorder as generated (orders in key order, dates random: every block spans them all). The
 * two variants alternate in rounds, so that a noisy machine slows both alike; the first run after each CREATE or DROP
 * INDEX (which replans) is not timed. Reports medians, the ratio, and the blocks each run read, as markdown.
 *
 * <pre>java -Xmx6g -cp benchmarks/target/ferry-benchmarks.jar io.ferry.bench.ZoneMapBenchmark --scale 1</pre>
 */
public final class ZoneMapBenchmark {
    private static final String[][] QUERIES = {
        {"one month", "SELECT SUM(lo_revenue) FROM %s WHERE lo_orderdate BETWEEN 19940101 AND 19940131"},
        {"Q1.1 on lineorder alone", "SELECT SUM(lo_extendedprice * lo_discount) FROM %s WHERE lo_orderdate "
                + "BETWEEN 19930101 AND 19931231 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25"},
    };

    private final SideBySideOptions options;
    private final List<String> report = new ArrayList<>();

    private ZoneMapBenchmark(SideBySideOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        new ZoneMapBenchmark(SideBySideOptions.parse(args, 1, 7)).run();
    }

    private void run() throws Exception {
        EngineConfig config = options.engine();
        try (FerryEngine engine = FerryEngine.start(config); Connection ferry = engine.connect()) {
            BenchSql.log("loading SSB lineorder at scale %s", options.scale());
            Table lineorder = new SsbGenerator(options.scale()).load(engine.catalog(), "lineorder", ProgressListener.NONE);
            BenchSql.log("copying it sorted by lo_orderdate");
            Table sorted = sortedCopy(engine, lineorder, "lineorder_sorted", "lo_orderdate");
            report.add(String.format(Locale.ROOT, "Zone maps on lo_orderdate: SSB lineorder at SF %s (%,d rows, "
                    + "%,d blocks of %,d bytes), %s", options.scale(), lineorder.rowCount(), blocks(lineorder),
                    config.blockSize(), options.runs()));
            report.add("");
            report.add("| query | lineorder | blocks read without → with | without ms | with ms | without / with |");
            report.add("|---|---|---:|---:|---:|---:|");
            for (String[] q : QUERIES) {
                for (Table t : List.of(sorted, lineorder)) {
                    compare(ferry, t, q[0], String.format(Locale.ROOT, q[1], t.name()));
                }
            }
        }
        options.publish(report);
    }

    /**
     * A copy of {@code source} with its rows in ascending order of the INTEGER column {@code key}: the rows are read
     * into one batch, the (key, row) pairs sorted as longs, and the rows appended in that order.
     */
    private static Table sortedCopy(FerryEngine engine, Table source, String name, String key) {
        TableSchema schema = source.schema();
        List<Batch> batches = new ArrayList<>();
        source.forEachBatch(batches::add);
        Batch all = BatchConcat.concat(batches, schema.types());
        batches.clear();
        long[] keyed = new long[all.rowCount()];
        long[] keys = ((LongVector) all.column(schema.indexOf(key))).values();
        for (int i = 0; i < keyed.length; i++) {
            keyed[i] = keys[i] << 32 | i;
        }
        Arrays.sort(keyed);
        Table copy = engine.catalog().create(name, schema, false);
        try (TableAppender appender = copy.appender()) {
            int[] positions = new int[1 << 16];
            for (int from = 0; from < keyed.length; from += positions.length) {
                int n = Math.min(positions.length, keyed.length - from);
                for (int i = 0; i < n; i++) {
                    positions[i] = (int) keyed[from + i];
                }
                appender.append(all.gather(positions, n));
            }
            appender.commit();
        }
        return copy;
    }

    private static int blocks(Table t) {
        try (var data = t.snapshot()) {
            return data.blocks().size();
        }
    }

    private void compare(Connection ferry, Table table, String name, String sql) throws SQLException {
        BenchSql.log("timing %s on %s", name, table.name());
        String index = table.name() + "_orderdate";
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        long[] blocksRead = new long[2];
        for (int round = 0; round < options.rounds(); round++) {
            for (boolean indexed : new boolean[] {false, true}) {
                BenchSql.execute(ferry, (indexed ? "CREATE INDEX " : "DROP INDEX IF EXISTS ") + index
                        + (indexed ? " ON " + table.name() + " (lo_orderdate)" : ""));
                BenchSql.drain(ferry, sql);
                for (int i = 0; i < options.repeat(); i++) {
                    long read = table.blocksRead();
                    long start = System.nanoTime();
                    BenchSql.drain(ferry, sql);
                    (indexed ? with : without).add((System.nanoTime() - start) / 1e6);
                    blocksRead[indexed ? 1 : 0] = table.blocksRead() - read;
                }
            }
        }
        BenchSql.execute(ferry, "DROP INDEX " + index);
        double a = BenchSql.median(without);
        double b = BenchSql.median(with);
        report.add(String.format(Locale.ROOT, "| %s | %s | %,d → %,d | %.1f | %.1f | %.1f |", name,
                table.name().equals("lineorder") ? "as generated" : "sorted by lo_orderdate", blocksRead[0],
                blocksRead[1], a, b, a / b));
    }
}
