package io.ferry.server.cluster;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;

import io.ferry.core.exec.AggCall;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.QueryContext;
import io.ferry.core.exec.QueryExecutor;
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
 * Measures a node's execution rates on one core at start-up, on the paper's table shape (two BIGINT columns), so
 * the cost model prices work in seconds of this machine rather than in constants. Takes about half a second.
 */
public final class Calibrator {
    private static final int ROWS = 1 << 20;

    private Calibrator() {
    }

    public static Calibration measure(BufferAllocator parent) {
        try (BufferAllocator allocator = parent.newChildAllocator("calibration", 0, 64L << 20);
                BlockStore store = new BlockStore(allocator, 1 << 20, 48L << 20);
                QueryExecutor one = new QueryExecutor(1)) {
            Catalog catalog = new Catalog(store);
            try {
                Table r = catalog.create("r", TableSchema.of(new Column("a", FerryType.BIGINT, false),
                        new Column("b", FerryType.BIGINT, false)), false);
                fill(r);
                PlanNode.Scan scan = new PlanNode.Scan(r, new int[] {0, 1}, null);
                PlanNode sum = new PlanNode.Aggregate(scan, new int[0],
                        List.of(new AggCall(AggCall.AggKind.SUM, 0, FerryType.BIGINT)));
                PlanNode groupBy = new PlanNode.Aggregate(scan, new int[] {1},
                        List.of(new AggCall(AggCall.AggKind.COUNT, -1, FerryType.BIGINT)));
                long bytes;
                try (TableData data = r.snapshot()) {
                    bytes = data.bytes();
                }
                double scanSeconds = best(one, sum);
                double aggSeconds = best(one, groupBy);
                return new Calibration(bytes / scanSeconds, ROWS / aggSeconds, 2 * ROWS / aggSeconds,
                        lz4Rate(r));
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

    private static void fill(Table r) {
        try (TableAppender app = r.appender()) {
            for (int from = 0; from < ROWS; from += 4096) {
                long[] a = new long[4096];
                long[] b = new long[4096];
                for (int i = 0; i < 4096; i++) {
                    a[i] = from + i;
                    b[i] = (from + i) * 0x9E3779B97F4A7C15L >>> 44; // about 2^20 / e distinct, spread out
                }
                app.append(Batch.of(new LongVector(a, null), new LongVector(b, null)));
            }
            app.commit();
        }
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
