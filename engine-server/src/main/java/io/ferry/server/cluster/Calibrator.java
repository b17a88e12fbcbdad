package io.ferry.server.cluster;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.exec.AggCall;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.QueryExecutor;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.ipc.BatchIpc;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.storage.TableData;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Measures a node's execution rates on one core at start-up, on the paper's table shape (BIGINT columns), so
 * the cost model prices work in seconds of this machine rather than in constants. Takes one to two seconds, once per
 * process: nodes started in one JVM (tests, the soft-RoCE check) run on the same machine, and a second measurement
 * would only differ by the noise of the nodes already running beside it (under QEMU's emulation it took 40 s a node).
 */
public final class Calibrator {
    /** Rows of the calibration table: four per group at {@link Calibration#MANY} groups, as in a real group-by. */
    private static final int ROWS = 1 << 21;
    private static Calibration measured;

    private Calibrator() {
    }

    /** This machine's rates, measured the first time a node of this process starts. */
    public static synchronized Calibration measure(BufferAllocator parent) {
        if (measured == null) {
            measured = measureNow(parent);
        }
        return measured;
    }

    private static Calibration measureNow(BufferAllocator parent) {
        try (BufferAllocator allocator = parent.newChildAllocator("calibration", 0, 160L << 20);
                BlockStore store = new BlockStore(allocator, 1 << 20, 128L << 20);
                QueryExecutor one = new QueryExecutor(1)) {
            Catalog catalog = new Catalog(store);
            try {
                Table r = catalog.create("r", TableSchema.of(new Column("a", FerryType.BIGINT, false),
                        new Column("few", FerryType.BIGINT, false), new Column("some", FerryType.BIGINT, false),
                        new Column("many", FerryType.BIGINT, false)), false);
                fill(r);
                PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0, 1, 2, 3}, null);
                PlanNode sum = new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0}, null), new int[0],
                        List.of(new AggCall(AggCall.AggKind.SUM, 0, FerryType.BIGINT)));
                long bytes;
                try (TableData data = r.snapshot()) {
                    bytes = data.bytes() / 4; // the sum reads one of the four columns
                }
                double scanSeconds = best(one, sum);
                double[] agg = new double[3];
                for (int k = 0; k < 3; k++) {
                    agg[k] = ROWS / best(one, new PlanNode.Aggregate(scan, new int[] {1 + k},
                            List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT))));
                }
                double bernoulli = ROWS / best(one, new PlanNode.Aggregate(new PlanNode.Scan(r, new int[] {0},
                        new SampleSpec(SampleSpec.Method.BERNOULLI, 1, 1)), new int[0],
                        List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT))));
                return new Calibration(bytes / scanSeconds, agg[0], agg[1], agg[2], lz4Rate(r), ipcRate(allocator),
                        bernoulli);
            } finally {
                catalog.clear();
            }
        }
    }

    /** The best of five runs, after one warm-up: the steady rate, not the JIT's first impression. */
    private static double best(QueryExecutor executor, PlanNode plan) {
        executor.execute(plan, QueryContext.unlimited());
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            executor.execute(plan, QueryContext.unlimited());
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        return Math.max(best, 1e-6);
    }

    /**
     * a, then three keys with {@link Calibration#FEW}, {@link Calibration#SOME} and {@link Calibration#MANY} distinct
     * values, each taken equally often (an odd multiplier is a bijection modulo every power of two).
     */
    private static void fill(Table r) {
        try (TableAppender app = r.appender()) {
            for (int from = 0; from < ROWS; from += 4096) {
                long[] a = new long[4096];
                long[] few = new long[4096];
                long[] some = new long[4096];
                long[] many = new long[4096];
                for (int i = 0; i < 4096; i++) {
                    long row = from + i;
                    long h = row * 0x9E3779B97F4A7C15L; // spreads neighbouring rows over the key space
                    a[i] = row;
                    few[i] = (h >>> 1) % Calibration.FEW;
                    some[i] = (h >>> 1) % Calibration.SOME;
                    many[i] = (h >>> 1) % Calibration.MANY;
                }
                app.append(Batch.of(new LongVector(a, null), new LongVector(few, null), new LongVector(some, null),
                        new LongVector(many, null)));
            }
            app.commit();
        }
    }

    /** Encoding a 64K-group partial aggregate (two BIGINTs a row) as Arrow IPC and decoding it, bytes per second. */
    private static double ipcRate(BufferAllocator allocator) {
        int rows = 1 << 16;
        List<Batch> result = new ArrayList<>();
        for (int from = 0; from < rows; from += 4096) {
            long[] keys = new long[4096];
            long[] counts = new long[4096];
            for (int i = 0; i < 4096; i++) {
                keys[i] = (from + i) * 0x9E3779B97F4A7C15L >>> 20;
                counts[i] = 1 + i % 7;
            }
            result.add(Batch.of(new LongVector(keys, null), new LongVector(counts, null)));
        }
        List<FerryType> types = List.of(FerryType.BIGINT, FerryType.BIGINT);
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 6; round++) {
            long t0 = System.nanoTime();
            byte[] bytes = BatchIpc.write(result, types, false, allocator);
            BatchIpc.read(bytes, 0, bytes.length, types, allocator);
            if (round > 0) { // the first round warms the JIT
                best = Math.min(best, (System.nanoTime() - t0) / 1e9);
            }
        }
        return rows * 16.0 / Math.max(best, 1e-6);
    }

    private static double lz4Rate(Table r) {
        LZ4Compressor lz4 = LZ4Factory.fastestInstance().fastCompressor();
        try (TableData data = r.snapshot()) {
            Block first = data.blocks().get(0);
            byte[] in = new byte[first.length()];
            first.buffer().getBytes(first.offset(), in);
            byte[] out = new byte[lz4.maxCompressedLength(in.length)];
            lz4.compress(in, out);
            long t0 = System.nanoTime();
            int rounds = 8;
            for (int i = 0; i < rounds; i++) {
                lz4.compress(in, out);
            }
            return (double) rounds * in.length / Math.max(1e-6, (System.nanoTime() - t0) / 1e9);
        }
    }
}
