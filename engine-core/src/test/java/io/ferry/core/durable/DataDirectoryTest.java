package io.ferry.core.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.storage.Block;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.BlockStorage;
import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.BlockWriter;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.DataFile;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.storage.TableData;
import io.ferry.core.storage.UniqueConstraint;
import io.ferry.core.storage.ViewDefinition;
import io.ferry.core.storage.ZoneMap;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * A catalog kept in a data directory comes back whole after a restart: rows of every type, constraints, indexes,
 * partitioning and views; its files are replaced, merged and removed as its tables change; a damaged file or a
 * second process is refused with a clear error. Each "restart" closes everything and opens the directory afresh.
 */
class DataDirectoryTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            new Column("id", FerryType.BIGINT, false),
            new Column("day", FerryType.DATE, true),
            new Column("price", FerryType.decimal(10, 2), true),
            new Column("big", FerryType.decimal(30, 4), true),
            new Column("x", FerryType.DOUBLE, true),
            new Column("at", FerryType.TIMESTAMP, true),
            new Column("ok", FerryType.BOOLEAN, true),
            new Column("n", FerryType.INTEGER, true),
            new Column("name", FerryType.VARCHAR, true));

    @TempDir
    Path dir;

    private final RootAllocator allocator = new RootAllocator();
    private Node node;

    /** One process's view of the directory: its store, catalog and the open directory. */
    private final class Node implements AutoCloseable {
        final BlockStore store = new BlockStore(allocator, 8192, 1 << 22);
        final DataDirectory data = DataDirectory.open(dir, allocator);
        final Catalog catalog = new Catalog(store, data);

        Node() {
            data.restore(catalog, 2, f -> { });
        }

        @Override
        public void close() {
            catalog.clear();
            assertEquals(0, store.liveBlocks());
            store.close();
            data.close();
        }
    }

    private Node restart() {
        if (node != null) {
            node.close();
        }
        node = new Node();
        return node;
    }

    @AfterEach
    void noLeaks() {
        if (node != null) {
            node.close();
        }
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    /** Rows [from, from + count), every column NULL somewhere but id. */
    private static Batch rows(int from, int count) {
        long[] id = new long[count];
        long[] day = new long[count];
        long[] price = new long[count];
        double[] x = new double[count];
        long[] at = new long[count];
        long[] ok = new long[count];
        long[] n = new long[count];
        boolean[] nulls = new boolean[count];
        BytesVector.Builder big = new BytesVector.Builder(count);
        BytesVector.Builder name = new BytesVector.Builder(count);
        for (int i = 0; i < count; i++) {
            int r = from + i;
            id[i] = r;
            day[i] = 18_000 + r % 30;
            price[i] = r * 101L - 5000;
            x[i] = r / 3.0;
            at[i] = 1_700_000_000_000L + r * 1000L;
            ok[i] = r % 2;
            n[i] = -r;
            nulls[i] = r % 5 == 0;
            byte[] wide = new byte[WideDecimal.BYTES];
            BigInteger v = BigInteger.TEN.pow(25).multiply(BigInteger.valueOf(r));
            WideDecimal.put(wide, 0, v.shiftRight(64).longValue(), v.longValue());
            if (r % 7 == 0) {
                big.appendNull();
                name.appendNull();
            } else {
                big.append(wide);
                name.append(("név " + r + "✓").getBytes(StandardCharsets.UTF_8));
            }
        }
        return Batch.of(new LongVector(id, null), new LongVector(day, nulls), new LongVector(price, nulls),
                big.build(), new DoubleVector(x, nulls, count), new LongVector(at, nulls), new LongVector(ok, nulls),
                new LongVector(n, nulls), name.build());
    }

    private static void append(Table table, int from, int count) {
        try (TableAppender a = table.appender()) {
            a.append(rows(from, count));
            a.commit();
        }
    }

    /** The table's rows as text, in order. */
    private static List<String> contents(Table table) {
        List<String> out = new ArrayList<>();
        table.forEachBatch(b -> {
            for (int i = 0; i < b.rowCount(); i++) {
                StringBuilder row = new StringBuilder();
                for (int c = 0; c < b.columnCount(); c++) {
                    Vector v = b.column(c);
                    row.append(c == 0 ? "" : "|").append(text(v, i, table.schema().type(c)));
                }
                out.add(row.toString());
            }
        });
        return out;
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    /** Equal lists of rows, without printing thousands of them when they are not. */
    private static void assertSame(List<String> expected, List<String> actual) {
        assertEquals(expected.size(), actual.size(), "rows");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "row " + i);
        }
    }

    private static String text(Vector v, int i, FerryType type) {
        if (v.isNull(i)) {
            return "NULL";
        }
        if (v instanceof LongVector l) {
            return Long.toString(l.get(i));
        }
        if (v instanceof DoubleVector d) {
            return Double.toString(d.get(i));
        }
        BytesVector s = (BytesVector) v;
        return type.isWideDecimal() ? WideDecimal.unscaled(s, i).toString() : s.getString(i);
    }

    private List<String> filesOnDisk() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve(DataDirectory.TABLES))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * Block memory that outlives the catalog that wrote it, as a cluster's memory servers outlive a restarted
     * coordinator (docs/storage.md, "A cluster's tables"): a block's address names its slot and the checksum in its
     * header; a slot can be lost (a node that restarted) and a block damaged.
     */
    private static final class SurvivingStorage implements BlockStorage {
        final BlockStore memory;
        final Set<String> lost = new HashSet<>();
        /** While set, freed blocks stay where they are: the process that held them died, the memory did not. */
        boolean keep;

        SurvivingStorage(BlockStore memory) {
            this.memory = memory;
        }

        @Override
        public int blockSize() {
            return memory.blockSize();
        }

        @Override
        public Block write(BlockWriter writer, Batch batch, int from, int count, ZoneMap zones, int partition,
                Placement placement) {
            Block b = memory.write(writer, batch, from, count, zones, partition, placement);
            return new Block(this, b.regionId(), b.offset(), b.length(), b.rowCount(), b.buffer(), b.zones(),
                    b.partition(), b.columnBounds());
        }

        @Override
        public void free(Block block) {
            if (!keep) {
                memory.free(block);
            }
        }

        @Override
        public String address(Block block) {
            return block.regionId() + ":" + block.offset() + ":" + block.reader().storedChecksum();
        }

        @Override
        public Block adopt(String address, TableSchema schema, Consumer<Batch> rows) {
            String[] f = address.split(":");
            if (lost.contains(f[0] + ":" + f[1])) {
                throw new FerryException(SqlStates.CONNECTION_FAILURE, "lost " + address);
            }
            ArrowBuf buffer = memory.regions().get(Integer.parseInt(f[0])).buffer();
            BlockReader reader = new BlockReader(buffer, Long.parseLong(f[1]));
            try {
                reader.verifyChecksum();
            } catch (RuntimeException e) {
                throw new FerryException(SqlStates.DATA_CORRUPTED, e.getMessage());
            }
            assertEquals(Integer.parseInt(f[2]), reader.storedChecksum());
            Batch batch = reader.batch(schema);
            rows.accept(batch);
            return new Block(this, Integer.parseInt(f[0]), Long.parseLong(f[1]), reader.length(), reader.rowCount(),
                    buffer, ZoneMap.of(schema.types(), batch, 0, batch.rowCount()), reader.partition(),
                    reader.columnBounds());
        }
    }

    @Test
    void blocksThatOutliveTheProcessAreAdoptedWhereTheyAreAndFilesWhoseBlocksAreGoneRead() {
        try (BlockStore memory = new BlockStore(allocator, 8192, 1 << 22)) {
            SurvivingStorage storage = new SurvivingStorage(memory);
            List<String> a;
            List<String> b;
            List<String> bLocations;
            String lastOfA;
            try (DataDirectory data = DataDirectory.open(dir, allocator)) {
                Catalog catalog = new Catalog(storage, data);
                Table ta = catalog.create("a", SCHEMA, false);
                append(ta, 0, 6000); // one file of many blocks, adopted in two parts side by side
                Table tb = catalog.create("b", SCHEMA, false);
                append(tb, 0, 300);
                a = contents(ta);
                b = contents(tb);
                List<String> aLocations = data.manifest().tables().get("a").files().get(0).locations();
                assertTrue(aLocations.size() >= 16, "blocks of a: " + aLocations.size());
                lastOfA = aLocations.get(aLocations.size() - 1);
                bLocations = data.manifest().tables().get("b").files().get(0).locations();
                storage.keep = true;
                catalog.clear();
                storage.keep = false;
            }
            long live = memory.liveBlocks();
            try (DataDirectory data = DataDirectory.open(dir, allocator)) {
                Catalog catalog = new Catalog(storage, data);
                assertEquals(2, data.restore(catalog, 2, f -> { }), "both files adopted");
                assertEquals(live, memory.liveBlocks(), "nothing written");
                assertSame(a, contents(catalog.require("a")));
                assertSame(b, contents(catalog.require("b")));
                storage.keep = true;
                catalog.clear();
                storage.keep = false;
            }
            // a's last block lost (the second part of its adoption fails after the first succeeded), b's first block
            // damaged: both files are read from disk and placed anew, and the manifest names where they are now
            storage.lost.add(lastOfA.substring(0, lastOfA.lastIndexOf(':')));
            String[] damaged = bLocations.get(0).split(":");
            ArrowBuf region = memory.regions().get(Integer.parseInt(damaged[0])).buffer();
            long at = Long.parseLong(damaged[1]) + 200;
            region.setByte(at, region.getByte(at) ^ 1);
            try (DataDirectory data = DataDirectory.open(dir, allocator)) {
                Catalog catalog = new Catalog(storage, data);
                assertEquals(0, data.restore(catalog, 2, f -> { }), "neither file adopted");
                assertSame(a, contents(catalog.require("a")));
                assertSame(b, contents(catalog.require("b")));
                assertFalse(data.manifest().tables().get("b").files().get(0).locations().contains(bLocations.get(0)));
                assertFalse(data.manifest().tables().get("a").files().get(0).locations().contains(lastOfA));
                catalog.clear();
            }
        }
    }

    @Test
    void everyTableAndViewComesBackAsItWas() {
        Catalog catalog = restart().catalog;
        Table t = catalog.create("t", SCHEMA, List.of(new UniqueConstraint("t_pk", true, List.of(0))), false);
        append(t, 0, 3000);
        append(t, 3000, 10);
        catalog.createIndex("t_day", "t", "day", false);
        Table p = catalog.create("p", SCHEMA, false);
        catalog.partition(p, PartitionScheme.parse("id:4", SCHEMA), Placement.PARTITION);
        append(p, 0, 500);
        catalog.create("empty", SCHEMA, false);
        catalog.createView(new ViewDefinition("v", "SELECT id FROM t", TableSchema.of(new Column("id",
                FerryType.BIGINT, false))), false);
        List<String> before = contents(t);
        List<String> partitioned = contents(p);

        Catalog restarted = restart().catalog;
        Table back = restarted.require("t");
        assertSame(before, contents(back));
        assertEquals(3010, back.stats().rowCount(), "statistics are rebuilt from the rows");
        assertEquals(List.of(new UniqueConstraint("t_pk", true, List.of(0))), back.constraints());
        assertTrue(back.indexed(1), "the index on day");
        Table backP = restarted.require("p");
        // a partitioned table's rows are regrouped by partition as they are reloaded: the same rows, in blocks
        assertSame(sorted(partitioned), sorted(contents(backP)));
        assertEquals("id=id:4", backP.partitioning().describe(SCHEMA));
        assertEquals(Placement.PARTITION, backP.placement());
        assertEquals(0, restarted.require("empty").rowCount());
        assertEquals("SELECT id FROM t", restarted.views().get(0).sql());
        // the primary key still holds against the restored rows
        FerryException dup = assertThrows(FerryException.class, () -> append(back, 5, 1));
        assertEquals(SqlStates.UNIQUE_VIOLATION, dup.sqlState());
        // and a table made after the restart is told from the old ones
        assertTrue(restarted.create("later", SCHEMA, false).id() > backP.id());
    }

    @Test
    void smallInsertsMergeIntoFewFilesAndRewritesReplaceThem() throws IOException {
        Catalog catalog = restart().catalog;
        Table t = catalog.create("t", SCHEMA, false);
        for (int i = 0; i < 100; i++) {
            append(t, i, 1);
        }
        List<DataFile> files = t.files();
        assertTrue(files.size() <= 7, "100 one-row inserts leave at most log2(100)+1 files: " + files);
        assertEquals(files.size(), filesOnDisk().size(), "merged files are removed");
        List<String> rows = contents(t);
        catalog = restart().catalog;
        assertSame(rows, contents(catalog.require("t")));

        Table back = catalog.require("t");
        try (Table.WriteLock held = back.lockWrites(); TableAppender rewrite = back.rewriter()) {
            rewrite.append(rows(1000, 20));
            rewrite.commit();
        }
        assertEquals(1, filesOnDisk().size(), "a rewrite's file replaces all the table's files");
        back.truncate();
        assertEquals(List.of(), filesOnDisk());
        append(back, 0, 50);
        catalog.drop("t", false);
        assertEquals(List.of(), filesOnDisk());
        catalog = restart().catalog;
        assertNull(catalog.get("t"));
    }

    @Test
    void alteredTableIsSwappedInAndAnUndoneSwapKeepsTheOldRows() throws IOException {
        Catalog catalog = restart().catalog;
        Table t = catalog.create("t", SCHEMA, false);
        append(t, 0, 100);
        List<String> rows = contents(t);
        // a renamed column: the new table shares the rows and their files
        List<Column> columns = new ArrayList<>(SCHEMA.columns());
        columns.set(0, new Column("ident", FerryType.BIGINT, false));
        Table renamed = catalog.detached("t", new TableSchema(columns), List.of(), List.of());
        renamed.shareRows(t);
        catalog.swap(t, renamed);
        catalog.swap(renamed, t); // undone, as ALTER TABLE does when a view would break
        catalog.discard(renamed);
        assertSame(rows, contents(catalog.require("t")));
        catalog = restart().catalog;
        assertSame(rows, contents(catalog.require("t")));
        assertEquals("id", catalog.require("t").schema().column(0).name());

        // a table built aside (rows copied) gets its file when it is swapped in; the old one's go with it
        t = catalog.require("t");
        Table copy = catalog.detached("t", new TableSchema(columns), List.of(), List.of());
        try (TableAppender a = copy.appender()) {
            t.forEachBatch(a::append);
            a.commit();
        }
        assertEquals(List.of(), copy.files(), "nothing is written while the table is built aside");
        catalog.swap(t, copy);
        catalog.discard(t);
        assertEquals(1, filesOnDisk().size());
        catalog = restart().catalog;
        assertEquals("ident", catalog.require("t").schema().column(0).name());
        assertSame(rows, contents(catalog.require("t")));
    }

    @Test
    void aLargeFileIsRestoredInPartsSideBySideInItsOwnOrder() {
        Catalog catalog = restart().catalog;
        Table t = catalog.create("t", SCHEMA, List.of(new UniqueConstraint("t_pk", true, List.of(0))), false);
        append(t, 0, 40_000);
        assertTrue(t.files().get(0).blocks() >= 16, "enough blocks to be read in parts: " + t.files());
        List<String> rows = contents(t);
        catalog = restart().catalog;
        Table back = catalog.require("t");
        assertSame(rows, contents(back));
        try (TableData data = back.snapshot()) {
            assertEquals(back.files().get(0).blocks(), data.blocks().size(), "the file covers the table's blocks");
        }
        // later changes go on from the restored files: an append, a merge, another restart
        append(back, 40_000, 100);
        append(back, 40_100, 100);
        List<String> more = contents(back);
        FerryException dup = assertThrows(FerryException.class, () -> append(back, 39_999, 1));
        assertEquals(SqlStates.UNIQUE_VIOLATION, dup.sqlState(), "the parts' keys were merged");
        catalog = restart().catalog;
        assertSame(more, contents(catalog.require("t")));
    }

    @Test
    void aTableCreatedToBeFilledIsKeptOnlyOnceItsRowsAreIn() {
        Catalog catalog = restart().catalog;
        catalog.createToFill("unfinished", SCHEMA); // its statement dies before committing rows
        Table filled = catalog.createToFill("filled", SCHEMA);
        append(filled, 0, 10);
        Table empty = catalog.createToFill("empty_result", SCHEMA);
        try (TableAppender a = empty.appender()) {
            a.commit(); // a CREATE TABLE AS whose query found no rows is finished too
        }
        catalog = restart().catalog;
        assertNull(catalog.get("unfinished"));
        assertEquals(10, catalog.require("filled").rowCount());
        assertEquals(0, catalog.require("empty_result").rowCount());
        assertFalse(node.data.manifest().tables().containsKey("unfinished"), "forgotten by the manifest too");
    }

    @Test
    void filesNoManifestNamesAreSweptAtOpen() throws IOException {
        Catalog catalog = restart().catalog;
        append(catalog.create("t", SCHEMA, false), 0, 10);
        Files.write(dir.resolve(DataDirectory.TABLES).resolve("t-left-over.arrow"), new byte[100]);
        Files.write(dir.resolve(DataDirectory.MANIFEST + ".tmp"), new byte[10]);
        Node n = restart();
        assertEquals(1, n.data.swept());
        assertEquals(1, filesOnDisk().size());
        assertFalse(Files.exists(dir.resolve(DataDirectory.MANIFEST + ".tmp")));
        assertEquals(10, n.catalog.require("t").rowCount());
    }

    @Test
    void damagedFileFailsTheRestartNamingIt() throws IOException {
        Catalog catalog = restart().catalog;
        append(catalog.create("t", SCHEMA, false), 0, 2000);
        node.close();
        node = null;
        Path file = dir.resolve(DataDirectory.TABLES).resolve(filesOnDisk().get(0));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(raf.length() / 2);
            int b = raf.read();
            raf.seek(raf.length() / 2);
            raf.write(b ^ 0x40);
        }
        BlockStore store = new BlockStore(allocator, 8192, 1 << 22);
        try (DataDirectory data = DataDirectory.open(dir, allocator)) {
            Catalog broken = new Catalog(store, data);
            FerryException e = assertThrows(FerryException.class, () -> data.restore(broken, 2, f -> { }));
            assertEquals(SqlStates.DATA_CORRUPTED, e.sqlState());
            assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
            assertTrue(broken.tables().isEmpty(), "nothing half-restored");
        } finally {
            assertEquals(0, store.liveBlocks());
            store.close();
        }
        assertTrue(Files.exists(file), "the damaged file is left for the user");
    }

    @Test
    void secondProcessIsRefusedAndAnUnreadableManifestIsNamed() throws IOException {
        restart();
        FerryException inUse = assertThrows(FerryException.class, () -> DataDirectory.open(dir, allocator));
        assertEquals(SqlStates.OBJECT_IN_USE, inUse.sqlState());
        assertTrue(inUse.getMessage().contains("pid " + ProcessHandle.current().pid()), inUse.getMessage());
        node.close();
        node = null;
        Files.writeString(dir.resolve(DataDirectory.MANIFEST), "{\"format\": 1, \"tables\": [");
        FerryException bad = assertThrows(FerryException.class, () -> DataDirectory.open(dir, allocator));
        assertEquals(SqlStates.DATA_CORRUPTED, bad.sqlState());
        Files.writeString(dir.resolve(DataDirectory.MANIFEST), "{\"format\": 9, \"generation\": 1, \"tables\": [], "
                + "\"views\": []}");
        FerryException newer = assertThrows(FerryException.class, () -> DataDirectory.open(dir, allocator));
        assertTrue(newer.getMessage().contains("newer Ferry"), newer.getMessage());
    }
}
