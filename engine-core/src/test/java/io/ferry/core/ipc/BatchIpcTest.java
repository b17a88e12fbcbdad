package io.ferry.core.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import net.jpountz.lz4.LZ4FrameOutputStream;

class BatchIpcTest {
    private static final List<FerryType> TYPES = List.of(FerryType.BIGINT, FerryType.INTEGER, FerryType.BOOLEAN,
            FerryType.DATE, FerryType.TIMESTAMP, FerryType.decimal(12, 2), FerryType.DOUBLE, FerryType.VARCHAR);
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
    }

    private static Batch batch(int n, int seed) {
        Random r = new Random(seed);
        long[][] longs = new long[6][n];
        boolean[] nulls = new boolean[n];
        double[] d = new double[n];
        BytesVector.Builder s = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            nulls[i] = i % 7 == 3;
            longs[0][i] = r.nextLong();
            longs[1][i] = r.nextInt();
            longs[2][i] = r.nextBoolean() ? 1 : 0;
            longs[3][i] = r.nextInt(40000);
            longs[4][i] = r.nextLong() >> 20;
            longs[5][i] = r.nextLong() % 1_000_000_000_000L;
            d[i] = r.nextGaussian();
            if (i % 5 == 0) {
                s.appendNull();
            } else {
                s.append(("wörd-" + i + "-€").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return new Batch(n, new io.ferry.core.vector.Vector[] {new LongVector(longs[0], nulls, n),
                new LongVector(longs[1], null, n), new LongVector(longs[2], nulls, n), new LongVector(longs[3], null, n),
                new LongVector(longs[4], nulls, n), new LongVector(longs[5], null, n), new DoubleVector(d, nulls, n),
                s.build()});
    }

    private static String render(List<Batch> batches) {
        StringBuilder out = new StringBuilder();
        for (Batch b : batches) {
            for (int i = 0; i < b.rowCount(); i++) {
                for (int c = 0; c < b.columnCount(); c++) {
                    var v = b.column(c);
                    out.append(v.isNull(i) ? "null" : v instanceof LongVector l ? Long.toString(l.get(i))
                            : v instanceof DoubleVector dv ? Double.toString(dv.get(i))
                            : ((BytesVector) v).getString(i)).append('|');
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyTypeAndNullRoundTrips(boolean compress) {
        // 100,000 rows make 800 KB column buffers: frames with 1 MiB blocks beside the 64 KiB ones of smaller batches
        List<Batch> in = List.of(batch(1000, 1), batch(4096, 2), batch(1, 3), batch(100_000, 5));
        byte[] bytes = BatchIpc.write(in, TYPES, compress, allocator);
        assertEquals(render(in), render(BatchIpc.read(bytes, 0, bytes.length, TYPES, allocator)));
    }

    @Test
    void eachBufferGetsTheSmallestFrameBlockThatHoldsIt() {
        assertEquals(LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB, Lz4FrameCodec.blockSize(32 << 10));
        assertEquals(LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB, Lz4FrameCodec.blockSize(64 << 10));
        assertEquals(LZ4FrameOutputStream.BLOCKSIZE.SIZE_256KB, Lz4FrameCodec.blockSize((64 << 10) + 1));
        assertEquals(LZ4FrameOutputStream.BLOCKSIZE.SIZE_4MB, Lz4FrameCodec.blockSize(100 << 20));
    }

    @Test
    void noBatchesIsAnEmptyResult() {
        byte[] bytes = BatchIpc.write(List.of(), TYPES, true, allocator);
        assertEquals(0, BatchIpc.read(bytes, 0, bytes.length, TYPES, allocator).size());
    }

    @Test
    void compressionShrinksAnAggregateResult() {
        int n = 4096;
        long[] keys = new long[n];
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
            counts[i] = 10 + i % 3;
        }
        List<Batch> in = List.of(Batch.of(new LongVector(keys, null), new LongVector(counts, null)));
        List<FerryType> types = List.of(FerryType.BIGINT, FerryType.BIGINT);
        int plain = BatchIpc.write(in, types, false, allocator).length;
        int lz4 = BatchIpc.write(in, types, true, allocator).length;
        assertTrue(lz4 < plain / 2, lz4 + " vs " + plain);
    }

    @Test
    void aCorruptOrTruncatedResultFailsClearly() {
        byte[] bytes = BatchIpc.write(List.of(batch(500, 4)), TYPES, true, allocator);
        Random r = new Random(5);
        for (int trial = 0; trial < 300; trial++) {
            byte[] bad = bytes.clone();
            int len = bad.length;
            if (trial % 2 == 0) {
                len = r.nextInt(bad.length);
            } else {
                bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
            }
            int length = len;
            FerryException e = assertThrows(FerryException.class, () -> BatchIpc.read(bad, 0, length, TYPES,
                    allocator));
            assertEquals("08P01", e.sqlState());
        }
        assertThrows(FerryException.class, () -> BatchIpc.read(bytes, 0, bytes.length / 2, TYPES, allocator));
    }
}
