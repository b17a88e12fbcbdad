package io.ferry.core.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

class TableStatsTest {

    private static TableStats statsOf(FerryType type, Vector... batches) {
        TableStatsBuilder builder = new TableStatsBuilder(List.of(type));
        for (Vector v : batches) {
            builder.add(Batch.of(v));
        }
        return builder.build();
    }

    @Test
    void doublesOrderAsOrderByDoes() {
        ColumnStats c = statsOf(FerryType.DOUBLE,
                new DoubleVector(new double[] {0.0, -0.0, 3.5, 99}, new boolean[] {false, false, false, true}, 4),
                new DoubleVector(new double[] {Double.NEGATIVE_INFINITY, 1e300}, null, 2)).column(0);
        assertEquals(6, c.rowCount());
        assertEquals(1, c.nullCount());
        assertEquals(new ValueRange.DoubleRange(Double.NEGATIVE_INFINITY, 1e300), c.range());
        // 0.0 and -0.0 are one value.
        assertEquals(4, c.distinct());

        ColumnStats withNaN = statsOf(FerryType.DOUBLE,
                new DoubleVector(new double[] {-0.0, 0.0, Double.NaN, 2}, null, 4)).column(0);
        ValueRange.DoubleRange r = (ValueRange.DoubleRange) withNaN.range();
        assertEquals(Double.doubleToLongBits(-0.0), Double.doubleToLongBits(r.min()));
        assertTrue(Double.isNaN(r.max()));
        assertEquals(3, withNaN.distinct());

        ColumnStats onlyNaN = statsOf(FerryType.DOUBLE, new DoubleVector(new double[] {Double.NaN}, null, 1)).column(0);
        assertTrue(Double.isNaN(((ValueRange.DoubleRange) onlyNaN.range()).min()));
    }

    @Test
    void allNullColumnsHaveNoRangeAndNoDistinctValues() {
        boolean[] nulls = {true, true, true};
        TableStatsBuilder builder = new TableStatsBuilder(List.of(FerryType.BIGINT, FerryType.DOUBLE, FerryType.VARCHAR));
        builder.add(Batch.of(new LongVector(new long[3], nulls), new DoubleVector(new double[3], nulls, 3),
                BytesVector.of(null, null, null)));
        TableStats stats = builder.build();
        for (ColumnStats c : stats.columns()) {
            assertEquals(3, c.nullCount());
            assertEquals(0, c.distinct());
            assertNull(c.range());
            assertEquals(1, c.groupCount());
        }
        assertEquals(1, stats.distinct(0, 1, 2));
    }

    @Test
    void stringRangesAreUnsignedUtf8AndSurviveSortedInput() {
        // Ascending and descending runs over several batches: the extremes move every row.
        BytesVector.Builder up = new BytesVector.Builder(100);
        BytesVector.Builder down = new BytesVector.Builder(100);
        for (int i = 0; i < 100; i++) {
            up.append(String.format("k%03d", i).getBytes(StandardCharsets.UTF_8));
            down.append(String.format("k%03d", 200 - i).getBytes(StandardCharsets.UTF_8));
        }
        ColumnStats c = statsOf(FerryType.VARCHAR, up.build(), down.build(), BytesVector.of("é", null, "")).column(0);
        ValueRange.BytesRange r = (ValueRange.BytesRange) c.range();
        // "" is smallest; "é" (0xC3 0xA9) sorts after every ASCII string as an unsigned byte, as a code point.
        assertArrayEquals(new byte[0], r.min());
        assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), r.max());
        assertEquals(1, c.nullCount());
        assertEquals(202, c.distinct());
    }

    @Test
    void bytesRangesAreValues() {
        byte[] min = {1, 2};
        ValueRange.BytesRange r = new ValueRange.BytesRange(min, new byte[] {9});
        min[0] = 7;
        r.min()[1] = 7;
        assertArrayEquals(new byte[] {1, 2}, r.min());
        assertEquals(new ValueRange.BytesRange(new byte[] {1, 2}, new byte[] {9}), r);
        assertEquals(new ValueRange.BytesRange(new byte[] {1, 2}, new byte[] {9}).hashCode(), r.hashCode());
        assertNotEquals(new ValueRange.BytesRange(new byte[] {1}, new byte[] {9}), r);
    }

    private static LongVector longs(int n, java.util.function.IntToLongFunction value) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = value.applyAsLong(i);
        }
        return new LongVector(v, null);
    }

    /**
     * Clustered: sorted either way (even across batches, even in separate appends), or in runs far longer than a
     * random order makes; not: values scattered, a constant, or rows appended one at a time (nothing seen in order).
     */
    @Test
    void theLayoutTellsClusteredColumnsFromScatteredOnes() {
        assertTrue(statsOf(FerryType.BIGINT, longs(5000, i -> i), longs(5000, i -> 5000 + i)).column(0).clustered());
        assertTrue(statsOf(FerryType.BIGINT, longs(5000, i -> -i)).column(0).clustered());
        assertTrue(statsOf(FerryType.BIGINT, longs(5000, i -> i)).merge(statsOf(FerryType.BIGINT,
                longs(5000, i -> i))).column(0).clustered(), "each append sorted: blocks still hold narrow slices");
        // runs of 100 equal values in no order: 50 values, 49 changes where a random order would make ~4900
        assertTrue(statsOf(FerryType.BIGINT, longs(5000, i -> (i / 100 * 7919L) % 50)).column(0).clustered());
        assertTrue(!statsOf(FerryType.BIGINT, longs(5000, i -> (i * 7919L) % 50)).column(0).clustered());
        assertTrue(!statsOf(FerryType.BIGINT, longs(5000, i -> i % 2)).column(0).clustered(), "two values, alternating");
        assertTrue(!statsOf(FerryType.BIGINT, longs(5000, i -> 4)).column(0).clustered(), "one value");
        TableStats oneAtATime = TableStats.empty(1);
        for (int i = 0; i < 100; i++) {
            oneAtATime = oneAtATime.merge(statsOf(FerryType.BIGINT, new LongVector(new long[] {i}, null)));
        }
        assertTrue(!oneAtATime.column(0).clustered(), "single-row appends show no layout");
        double[] sorted = new double[3000];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i * 0.5 - 700;
        }
        assertTrue(statsOf(FerryType.DOUBLE, new DoubleVector(sorted, null, sorted.length)).column(0).clustered());
        BytesVector.Builder names = new BytesVector.Builder(3000);
        BytesVector.Builder shuffled = new BytesVector.Builder(3000);
        for (int i = 0; i < 3000; i++) {
            names.append(String.format("name%05d", i).getBytes(StandardCharsets.UTF_8));
            shuffled.append(String.format("name%05d", (i * 7919) % 3000).getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(statsOf(FerryType.VARCHAR, names.build()).column(0).clustered());
        assertTrue(!statsOf(FerryType.VARCHAR, shuffled.build()).column(0).clustered());
    }

    @Test
    void mergeAddsCountsWidensRangesAndUnitesSketches() {
        TableStats a = statsOf(FerryType.BIGINT, new LongVector(new long[] {5, 6, 7, 0}, new boolean[] {false, false,
                false, true}));
        TableStats b = statsOf(FerryType.BIGINT, new LongVector(new long[] {7, 8, -3}, null));
        TableStats merged = a.merge(b);
        ColumnStats c = merged.column(0);
        assertEquals(7, merged.rowCount());
        assertEquals(1, c.nullCount());
        assertEquals(new ValueRange.LongRange(-3, 8), c.range());
        assertEquals(5, c.distinct());
        // The inputs are untouched.
        assertEquals(3, a.column(0).distinct());
        assertEquals(new ValueRange.LongRange(5, 7), a.column(0).range());

        TableStats allNull = statsOf(FerryType.BIGINT, new LongVector(new long[2], new boolean[] {true, true}));
        assertEquals(new ValueRange.LongRange(5, 7), a.merge(allNull).column(0).range());
        assertEquals(new ValueRange.LongRange(5, 7), allNull.merge(a).column(0).range());
        assertSame(a, a.merge(TableStats.empty(1)));
        assertSame(a.column(0), TableStats.empty(1).merge(a).column(0));
        assertThrows(IllegalArgumentException.class, () -> a.merge(TableStats.empty(2)));
    }

    @Test
    void distinctCombinationsMultiplyGroupsAndStopAtTheRowCount() {
        long[] k = new long[1000];
        long[] g = new long[1000];
        boolean[] gNull = new boolean[1000];
        for (int i = 0; i < 1000; i++) {
            k[i] = i % 4;
            g[i] = i % 5;
            gNull[i] = i == 0;
        }
        TableStatsBuilder builder = new TableStatsBuilder(List.of(FerryType.INTEGER, FerryType.INTEGER,
                FerryType.BIGINT));
        long[] id = new long[1000];
        for (int i = 0; i < 1000; i++) {
            id[i] = i;
        }
        builder.add(Batch.of(new LongVector(k, null), new LongVector(g, gNull), new LongVector(id, null)));
        TableStats stats = builder.build();
        assertEquals(4, stats.distinct(0));
        // g: 5 values and NULL.
        assertEquals(6, stats.distinct(1));
        assertEquals(24, stats.distinct(0, 1));
        assertEquals(1000, stats.distinct(0, 2));
        // Products beyond a long's range still cap cleanly.
        assertEquals(1000, stats.distinct(2, 2, 2, 2, 2, 2, 2));
        assertEquals(1, stats.distinct());
    }

    @Test
    void columnStatsRejectInconsistentCounts() {
        DistinctSketch s = new DistinctSketch();
        assertThrows(IllegalArgumentException.class, () -> new ColumnStats(1, 2, 0, null, s));
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnStats(3, 1, 3, new ValueRange.LongRange(0, 1), s));
        assertThrows(IllegalArgumentException.class, () -> new ColumnStats(3, 0, 1, null, s));
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnStats(3, 3, 0, new ValueRange.LongRange(0, 1), s));
        assertThrows(IllegalArgumentException.class, () -> new TableStats(2, List.of(ColumnStats.empty())));
    }

    @Test
    void theEstimateNeverExceedsTheNonNullRows() {
        // Ten rows of ten values: whatever the sketch says, at most 10.
        long[] v = new long[10];
        for (int i = 0; i < 10; i++) {
            v[i] = i * 1_000_003L;
        }
        ColumnStats c = statsOf(FerryType.BIGINT, new LongVector(v, null)).column(0);
        assertTrue(c.distinct() <= 10 && c.distinct() >= 1);
        assertTrue(c.sketch().isFrozen());
    }

    @Test
    void aBuilderBuildsOnce() {
        TableStatsBuilder builder = new TableStatsBuilder(List.of(FerryType.BIGINT));
        builder.add(Batch.of(new LongVector(new long[] {1}, null)));
        builder.build();
        assertThrows(IllegalStateException.class, builder::build);
        assertThrows(IllegalStateException.class, () -> builder.add(Batch.of(new LongVector(new long[] {1}, null))));
        TableStatsBuilder narrow = new TableStatsBuilder(List.of(FerryType.BIGINT));
        assertThrows(IllegalArgumentException.class,
                () -> narrow.add(Batch.of(new LongVector(new long[] {1}, null), new LongVector(new long[] {1}, null))));
    }

    @Test
    void integralRangesBoundTheEstimate() {
        long[] bools = new long[5000];
        long[] wide = new long[5000];
        for (int i = 0; i < bools.length; i++) {
            bools[i] = i & 1;
            wide[i] = i % 2 == 0 ? Long.MIN_VALUE + i : Long.MAX_VALUE - i;
        }
        TableStatsBuilder builder = new TableStatsBuilder(List.of(FerryType.BOOLEAN, FerryType.BIGINT));
        builder.add(Batch.of(new LongVector(bools, null), new LongVector(wide, null)));
        TableStats stats = builder.build();
        assertEquals(2, stats.column(0).distinct());
        // max - min overflows here: no bound from the range, the sketch decides.
        assertTrue(Math.abs(stats.column(1).distinct() - 5000) <= 100, "estimated " + stats.column(1).distinct());
    }
}
