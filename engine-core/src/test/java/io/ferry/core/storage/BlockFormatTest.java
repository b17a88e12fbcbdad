package io.ferry.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.PendingColumn;
import io.ferry.core.vector.Vector;

class BlockFormatTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    private static final TableSchema SCHEMA = TableSchema.of(
            new Column("id", FerryType.BIGINT, false),
            new Column("n", FerryType.INTEGER, true),
            new Column("price", FerryType.decimal(12, 2), true),
            new Column("x", FerryType.DOUBLE, true),
            new Column("name", FerryType.VARCHAR, true),
            new Column("ok", FerryType.BOOLEAN, true),
            new Column("day", FerryType.DATE, true));

    private static Batch sample(int rows) {
        long[] id = new long[rows];
        long[] n = new long[rows];
        long[] price = new long[rows];
        double[] x = new double[rows];
        long[] ok = new long[rows];
        long[] day = new long[rows];
        boolean[] nulls = new boolean[rows];
        BytesVector.Builder names = new BytesVector.Builder(rows);
        for (int i = 0; i < rows; i++) {
            id[i] = i * 1_000_000_007L;
            n[i] = i % 7 - 3;
            price[i] = i * 125L - 99;
            x[i] = i / 3.0;
            ok[i] = i % 2;
            day[i] = 8000 + i;
            nulls[i] = i % 5 == 0;
            if (i % 5 == 0) {
                names.appendNull();
            } else {
                names.append(("name-" + i + "-é").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return Batch.of(new LongVector(id, null), new LongVector(n, nulls), new LongVector(price, nulls),
                new DoubleVector(x, nulls, rows), names.build(), new LongVector(ok, null), new LongVector(day, nulls));
    }

    @Test
    void roundTripsThroughExecutionVectors() {
        Batch batch = sample(1000);
        BlockWriter writer = new BlockWriter(SCHEMA);
        long size = writer.sizeOf(batch, 0, 1000);
        try (ArrowBuf buf = allocator.buffer(size + 64)) {
            int len = writer.write(batch, 0, 1000, buf, 64);
            assertEquals(size, len);
            BlockReader reader = new BlockReader(buf, 64).verifyChecksum();
            assertEquals(1000, reader.rowCount());
            LongVector id = (LongVector) reader.decode(0, FerryType.BIGINT, 100, 50);
            assertEquals(100 * 1_000_000_007L, id.get(0));
            LongVector n = (LongVector) reader.decode(1, FerryType.INTEGER, 0, 1000);
            assertTrue(n.isNull(0));
            assertEquals(1 % 7 - 3, n.get(1));
            BytesVector names = (BytesVector) reader.decode(4, FerryType.VARCHAR, 3, 10);
            assertEquals("name-3-é", names.getString(0));
            assertTrue(names.isNull(2));
            LongVector ok = (LongVector) reader.decode(5, FerryType.BOOLEAN, 7, 3);
            assertArrayEquals(new long[] {1, 0, 1}, ok.values());
            assertEquals(8000 + 999, ((LongVector) reader.decode(6, FerryType.DATE, 999, 1)).get(0));
        }
    }

    /**
     * Version 2 keeps the block's partition in its header; a version 1 block (no partition, the column directory 8
     * bytes earlier) still reads, as partition 0, with the same values.
     */
    @Test
    void version2KeepsThePartitionAndVersion1StillReads() {
        Batch batch = sample(200);
        BlockWriter writer = new BlockWriter(SCHEMA);
        int size = (int) writer.sizeOf(batch, 0, 200);
        try (ArrowBuf v2 = allocator.buffer(size); ArrowBuf v1 = allocator.buffer(size)) {
            writer.write(batch, 0, 200, v2, 0, 6);
            BlockReader reader = new BlockReader(v2, 0).verifyChecksum();
            assertEquals(6, reader.partition());
            // the same block as version 1 wrote it: header fields, then the directory where the partition is now
            v1.setBytes(0, v2, 0, size);
            v1.setShort(BlockFormat.OFF_VERSION, BlockFormat.VERSION_1);
            long directoryBytes = (long) SCHEMA.size() * BlockFormat.COLUMN_ENTRY_BYTES;
            v1.setBytes(BlockFormat.OFF_DIRECTORY_V1, v2, BlockFormat.OFF_DIRECTORY, directoryBytes);
            v1.setInt(BlockFormat.OFF_CHECKSUM, BlockFormat.checksum(v1, 0, size));
            BlockReader old = new BlockReader(v1, 0).verifyChecksum();
            assertEquals(0, old.partition());
            assertEquals(200, old.rowCount());
            assertEquals(((LongVector) reader.decode(0, FerryType.BIGINT, 0, 200)).get(199),
                    ((LongVector) old.decode(0, FerryType.BIGINT, 0, 200)).get(199));
            assertEquals(((BytesVector) reader.decode(4, FerryType.VARCHAR, 5, 1)).getString(0),
                    ((BytesVector) old.decode(4, FerryType.VARCHAR, 5, 1)).getString(0));
            v1.setShort(BlockFormat.OFF_VERSION, (short) 3);
            assertThrows(MalformedBlockException.class, () -> new BlockReader(v1, 0));
        }
    }

    /** Decoding only some rows (what filters and joins leave) gives what decoding all and picking would. */
    @Test
    void decodesChosenRowsLikeDecodingAllAndGathering() {
        Batch batch = sample(1000);
        BlockWriter writer = new BlockWriter(SCHEMA);
        try (ArrowBuf buf = allocator.buffer(writer.sizeOf(batch, 0, 1000))) {
            writer.write(batch, 0, 1000, buf, 0);
            BlockReader reader = new BlockReader(buf, 0);
            int[] positions = {0, 1, 5, -1, 7, 7, 399, 250, 3, -1};
            for (int c = 0; c < SCHEMA.size(); c++) {
                FerryType type = SCHEMA.type(c);
                Vector want = reader.decode(c, type, 600, 400).gather(positions, positions.length);
                Vector got = reader.decodeAt(c, type, 600, positions, positions.length);
                Vector lazy = Batch.pending(400, new PendingColumn[] {reader.pending(c, type, 600, 400)})
                        .gather(positions, positions.length).column(0);
                for (int i = 0; i < positions.length; i++) {
                    assertEquals(valueAt(want, i), valueAt(got, i), SCHEMA.columns().get(c).name() + " row " + i);
                    assertEquals(valueAt(want, i), valueAt(lazy, i), SCHEMA.columns().get(c).name() + " row " + i);
                }
            }
        }
    }

    /**
     * A scan of some columns reads the header and those columns' ranges, landed one after the other: for every subset
     * of the columns, the relocated block decodes each of them as the whole block does, reading a column it did not
     * fetch fails clearly, and the bytes fetched are the header and the chosen columns only (plus small gaps).
     */
    @Test
    void readsOnlyTheColumnsAScanNeeds() {
        Batch batch = sample(3000);
        BlockWriter writer = new BlockWriter(SCHEMA);
        int size = (int) writer.sizeOf(batch, 0, 3000);
        try (ArrowBuf whole = allocator.buffer(size); ArrowBuf landed = allocator.buffer(size)) {
            writer.write(batch, 0, 3000, whole, 0, 3);
            BlockReader full = new BlockReader(whole, 0);
            int[] bounds = full.columnBounds();
            assertEquals(SCHEMA.size() + 1, bounds.length);
            assertEquals(size, bounds[SCHEMA.size()]);
            int unread = 0;
            for (int m = 0; m < 1 << SCHEMA.size(); m++) {
                int mask = m;
                int[] columns = java.util.stream.IntStream.range(0, SCHEMA.size())
                        .filter(c -> (mask & (1 << c)) != 0).toArray();
                int[] ranges = BlockFormat.readRanges(bounds, columns);
                int wanted = bounds[0];
                for (int c : columns) {
                    wanted += bounds[c + 1] - bounds[c];
                }
                int bytes = BlockFormat.rangeBytes(ranges);
                assertTrue(bytes >= wanted, "ranges cover the header and every column asked for");
                assertTrue(bytes == size || bytes < wanted + BlockFormat.MERGE_GAP * SCHEMA.size(),
                        "only small gaps are read along: " + bytes + " for " + wanted);
                long at = 0;
                for (int r = 0; r < ranges.length; r += 2) {
                    landed.setBytes(at, whole, ranges[r], ranges[r + 1]);
                    at += ranges[r + 1];
                }
                BlockFormat.relocate(landed, 0, ranges);
                BlockReader pruned = new BlockReader(landed, 0);
                assertEquals(3000, pruned.rowCount());
                assertEquals(3, pruned.partition());
                for (int c = 0; c < SCHEMA.size(); c++) {
                    FerryType type = SCHEMA.type(c);
                    Vector actual;
                    try {
                        actual = pruned.pending(c, type, 1000, 2000).materialize();
                    } catch (MalformedBlockException e) {
                        // a column not asked for may still have come along inside a merged range
                        assertTrue((mask & (1 << c)) == 0, "column " + c + " was asked for: " + e.getMessage());
                        assertTrue(e.getMessage().contains("was not read"), e.getMessage());
                        unread++;
                        continue;
                    }
                    Vector expected = full.decode(c, type, 1000, 2000);
                    for (int i = 0; i < 2000; i += 7) {
                        assertEquals(valueAt(expected, i), valueAt(actual, i), "column " + c + " row " + i);
                    }
                }
            }
            assertTrue(unread > 0, "some reads left columns out");
            // COUNT(*) reads the header alone
            assertEquals(bounds[0], BlockFormat.rangeBytes(BlockFormat.readRanges(bounds, new int[0])));
        }
    }

    private static Object valueAt(Vector v, int i) {
        if (v.isNull(i)) {
            return null;
        }
        if (v instanceof LongVector l) {
            return l.get(i);
        }
        return v instanceof DoubleVector d ? (Object) d.get(i) : ((BytesVector) v).getString(i);
    }

    @Test
    void wrapsBlockAsArrowVectorsWithoutCopy() {
        Batch batch = sample(300);
        BlockWriter writer = new BlockWriter(SCHEMA);
        try (ArrowBuf buf = allocator.buffer(writer.sizeOf(batch, 0, 300))) {
            writer.write(batch, 0, 300, buf, 0);
            try (VectorSchemaRoot root = new BlockReader(buf, 0).toArrow(SCHEMA, allocator)) {
                assertEquals(300, root.getRowCount());
                BigIntVector id = (BigIntVector) root.getVector("id");
                assertEquals(7 * 1_000_000_007L, id.get(7));
                assertTrue(id.getDataBuffer().memoryAddress() >= buf.memoryAddress()
                        && id.getDataBuffer().memoryAddress() < buf.memoryAddress() + buf.capacity(),
                        "Arrow vector must point into the block's own bytes");
                assertTrue(((IntVector) root.getVector("n")).isNull(0));
                assertEquals(new BigDecimal("1.51"), ((DecimalVector) root.getVector("price")).getObject(2));
                assertEquals("name-4-é", ((VarCharVector) root.getVector("name")).getObject(4).toString());
                assertNull(((VarCharVector) root.getVector("name")).getObject(5));
            }
        }
    }

    @Test
    void detectsCorruptionAndGarbage() {
        Batch batch = sample(100);
        BlockWriter writer = new BlockWriter(SCHEMA);
        try (ArrowBuf buf = allocator.buffer(writer.sizeOf(batch, 0, 100))) {
            int len = writer.write(batch, 0, 100, buf, 0);
            buf.setByte(len - 9, buf.getByte(len - 9) ^ 0x10);
            assertThrows(MalformedBlockException.class, () -> new BlockReader(buf, 0).verifyChecksum());
            buf.setInt(0, 0x12345678);
            MalformedBlockException e = assertThrows(MalformedBlockException.class, () -> new BlockReader(buf, 0));
            assertTrue(e.getMessage().contains("magic"));
        }
    }

    @Test
    void nextPointersRoundTripAndResealChecksum() {
        Batch batch = sample(10);
        BlockWriter writer = new BlockWriter(SCHEMA);
        try (ArrowBuf buf = allocator.buffer(writer.sizeOf(batch, 0, 10))) {
            writer.write(batch, 0, 10, buf, 0);
            BlockFormat.setNextPointers(buf, 0, new BlockFormat.BlockPointer[] {
                new BlockFormat.BlockPointer(2, 1L << 33, 4096), new BlockFormat.BlockPointer(3, 4096, 2048)});
            BlockReader r = new BlockReader(buf, 0).verifyChecksum();
            assertEquals(2, r.nextPointers().length);
            assertEquals(1L << 33, r.nextPointers()[0].address());
            assertEquals(3, r.nextPointers()[1].node());
        }
    }

    @Test
    void appenderIsAtomicAndStoreFreesEverything() {
        try (BlockStore store = new BlockStore(allocator, 4096, 1 << 20)) {
            Catalog catalog = new Catalog(store);
            Table t = catalog.create("t", SCHEMA, false);
            try (TableAppender a = t.appender()) {
                a.append(sample(2000));
                a.commit();
            }
            assertEquals(2000, t.rowCount());
            try (TableData data = t.snapshot()) {
                assertTrue(data.blocks().size() > 10, "4 KiB blocks: 2000 rows span many blocks");
                for (Block b : data.blocks()) {
                    assertTrue(b.length() <= 4096);
                    b.reader().verifyChecksum();
                }
            }
            try (TableAppender a = t.appender()) {
                a.append(sample(500));
            }
            assertEquals(2000, t.rowCount(), "an appender closed without commit adds nothing");
            catalog.clear();
            assertEquals(0, store.liveBlocks());
        }
    }
}
