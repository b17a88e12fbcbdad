package io.ferry.core.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.FerryException;
import io.ferry.core.stats.ColumnStats;
import io.ferry.core.stats.TableStats;
import io.ferry.core.stats.ValueRange;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

class TableStatsAppendTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            new Column("id", FerryType.BIGINT, false),
            new Column("day", FerryType.DATE, true),
            new Column("price", FerryType.decimal(10, 2), true),
            new Column("x", FerryType.DOUBLE, true),
            new Column("name", FerryType.VARCHAR, true));

    private final RootAllocator allocator = new RootAllocator();
    // Small blocks, so that each commit writes many blocks and keeps a tail back between batches.
    private final BlockStore store = new BlockStore(allocator, 4096, 1 << 20);
    private final Catalog catalog = new Catalog(store);

    @AfterEach
    void noLeaks() {
        catalog.clear();
        assertEquals(0, store.liveBlocks());
        store.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    /**
     * Rows {@code [from, from + rows)}: id = row; day = 18000 + row % 30, NULL every 7th row; price = row % 500 - 250
     * (unscaled), never NULL; x = row % 100 / 4, NULL every 10th row; name = "n" + row % 1000, NULL every 3rd.
     */
    private static Batch rows(int from, int rows) {
        long[] id = new long[rows];
        long[] day = new long[rows];
        long[] price = new long[rows];
        double[] x = new double[rows];
        boolean[] dayNull = new boolean[rows];
        boolean[] xNull = new boolean[rows];
        BytesVector.Builder name = new BytesVector.Builder(rows);
        for (int i = 0; i < rows; i++) {
            int r = from + i;
            id[i] = r;
            day[i] = 18_000 + r % 30;
            dayNull[i] = r % 7 == 0;
            price[i] = r % 500 - 250;
            x[i] = r % 100 / 4.0;
            xNull[i] = r % 10 == 0;
            if (r % 3 == 0) {
                name.appendNull();
            } else {
                name.append(("n" + r % 1000).getBytes(StandardCharsets.UTF_8));
            }
        }
        return Batch.of(new LongVector(id, null), new LongVector(day, dayNull), new LongVector(price, null),
                new DoubleVector(x, xNull, rows), name.build());
    }

    private static void load(Table table, int from, int rows) {
        try (TableAppender appender = table.appender()) {
            for (int at = from; at < from + rows; at += 1000) {
                appender.append(rows(at, Math.min(1000, from + rows - at)));
            }
            appender.commit();
        }
    }

    /** Within 2%: a sketch of 2^14 registers is that close (about 0.6%) for a few hundred to thousands of values. */
    private static void assertDistinct(long expected, ColumnStats column) {
        assertTrue(Math.abs(column.distinct() - expected) <= Math.max(1, 0.02 * expected),
                "expected about " + expected + " distinct values, estimated " + column.distinct());
    }

    private static long nullsBelow(int rows, int every) {
        return (rows + every - 1) / every;
    }

    @Test
    void aNewTableHasEmptyStats() {
        Table t = catalog.create("t", SCHEMA, false);
        TableStats stats = t.stats();
        assertEquals(0, stats.rowCount());
        assertEquals(SCHEMA.size(), stats.columns().size());
        for (ColumnStats c : stats.columns()) {
            assertEquals(0, c.distinct());
            assertNull(c.range());
        }
        assertEquals(0, stats.distinct(0, 1));
    }

    @Test
    void statsCoverEveryCommittedRow() {
        Table t = catalog.create("t", SCHEMA, false);
        load(t, 0, 3000);
        TableStats first = t.stats();
        assertEquals(3000, first.rowCount());
        assertEquals(new ValueRange.LongRange(0, 2999), first.column(0).range());
        assertDistinct(3000, first.column(0));

        load(t, 3000, 7000);
        TableStats stats = t.stats();
        assertEquals(10_000, stats.rowCount());
        assertEquals(t.rowCount(), stats.rowCount());

        ColumnStats id = stats.column(0);
        assertEquals(0, id.nullCount());
        assertEquals(new ValueRange.LongRange(0, 9999), id.range());
        assertDistinct(10_000, id);

        ColumnStats day = stats.column(1);
        assertEquals(nullsBelow(10_000, 7), day.nullCount());
        assertEquals(new ValueRange.LongRange(18_000, 18_029), day.range());
        assertEquals(30, day.distinct());
        assertEquals(day.distinct() + 1, day.groupCount());

        ColumnStats price = stats.column(2);
        assertEquals(0, price.nullCount());
        assertEquals(new ValueRange.LongRange(-250, 249), price.range());
        assertDistinct(500, price);

        ColumnStats x = stats.column(3);
        assertEquals(nullsBelow(10_000, 10), x.nullCount());
        assertEquals(new ValueRange.DoubleRange(0.25, 24.75), x.range());
        // x = row % 100 / 4 with every row % 10 == 0 NULL: 90 values remain.
        assertDistinct(90, x);

        ColumnStats name = stats.column(4);
        assertEquals(nullsBelow(10_000, 3), name.nullCount());
        ValueRange.BytesRange names = (ValueRange.BytesRange) name.range();
        // Row 999 is NULL, but 1000 ("n0") and 1999 ("n999") are not: every name n0 .. n999 has a non-NULL row.
        assertArrayEquals("n0".getBytes(StandardCharsets.UTF_8), names.min());
        assertArrayEquals("n999".getBytes(StandardCharsets.UTF_8), names.max());
        assertDistinct(1000, name);

        // GROUP BY day, x: (30 + NULL) × (90 + NULL) combinations assumed, fewer than the rows.
        assertEquals(day.groupCount() * x.groupCount(), stats.distinct(1, 3));
        // GROUP BY day, price: 31 × ~500 combinations, capped at the row count; so is anything with the key.
        assertEquals(10_000, stats.distinct(1, 2));
        assertEquals(10_000, stats.distinct(0, 1));
        assertEquals(1, stats.distinct());
    }

    @Test
    void anAppendClosedWithoutCommitChangesNothing() {
        Table t = catalog.create("t", SCHEMA, false);
        load(t, 0, 2000);
        TableStats before = t.stats();
        try (TableAppender appender = t.appender()) {
            appender.append(rows(2000, 5000));
            assertEquals(5000, appender.stagedRows());
        }
        assertSame(before, t.stats());
        assertEquals(2000, t.rowCount());
        assertEquals(new ValueRange.LongRange(0, 1999), t.stats().column(0).range());
    }

    @Test
    void aCommitToADroppedTableChangesNoStats() {
        Table t = catalog.create("t", SCHEMA, false);
        load(t, 0, 500);
        TableAppender appender = t.appender();
        appender.append(rows(500, 500));
        catalog.drop("t", false);
        assertThrows(FerryException.class, appender::commit);
        assertEquals(0, t.stats().rowCount());
        assertEquals(0, store.liveBlocks());
    }

    @Test
    void aSnapshotKeepsTheStatsOfItsVersion() {
        Table t = catalog.create("t", SCHEMA, false);
        load(t, 0, 1000);
        try (TableData old = t.snapshot()) {
            TableStats oldStats = old.stats();
            byte[] oldSketch = oldStats.column(0).sketch().toBytes();
            load(t, 1000, 1000);
            assertSame(oldStats, old.stats());
            assertEquals(1000, old.stats().rowCount());
            assertArrayEquals(oldSketch, old.stats().column(0).sketch().toBytes());
            assertEquals(2000, t.stats().rowCount());
            // Published sketches take no more values.
            assertTrue(t.stats().column(0).sketch().isFrozen());
            assertThrows(IllegalStateException.class,
                    () -> t.stats().column(0).sketch().addLongs(new long[] {1}, null, 0, 1));
        }
    }

    @Test
    void pendingColumnsAreCountedOnce() {
        Table t = catalog.create("t", SCHEMA, false);
        Batch batch = rows(0, 1000);
        int[] evenRows = new int[500];
        for (int i = 0; i < evenRows.length; i++) {
            evenRows[i] = 2 * i;
        }
        try (TableAppender appender = t.appender()) {
            appender.append(batch.gather(evenRows, evenRows.length));
            appender.commit();
        }
        ColumnStats id = t.stats().column(0);
        assertEquals(500, id.rowCount());
        assertEquals(new ValueRange.LongRange(0, 998), id.range());
        assertDistinct(500, id);
    }
}
