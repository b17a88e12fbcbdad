package io.ferry.core.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.core.vector.BytesVector;

class DistinctSketchTest {

    /**
     * Relative error allowed: none for a handful of values (collisions are unlikely among 2^14 registers), about four
     * standard errors for more (linear-counting-like 0.5% at 1,000, 0.81% for large sets).
     */
    private static double bound(long n) {
        return n <= 10 ? 0.0 : n <= 1000 ? 0.02 : 0.03;
    }

    private static void assertNear(long expected, long actual) {
        double error = Math.abs(actual - expected) / (double) expected;
        assertTrue(error <= bound(expected), "estimated " + actual + " for " + expected + " distinct values ("
                + String.format("%.3f%%", 100 * error) + " off)");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 1_000, 100_000, 1_000_000})
    void estimatesSequentialLongs(int n) {
        DistinctSketch sketch = new DistinctSketch();
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
        }
        sketch.addLongs(values, null, 0, n);
        assertNear(n, sketch.estimate());
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 1_000, 100_000, 1_000_000})
    void estimatesRandomLongsRepeated(int n) {
        SplittableRandom random = new SplittableRandom(n);
        long[] distinct = new long[n];
        for (int i = 0; i < n; i++) {
            distinct[i] = random.nextLong();
        }
        // Every value three times, in blocks of 4096 rows as the appender delivers them: duplicates count once.
        long[] values = new long[3 * n];
        for (int i = 0; i < values.length; i++) {
            values[i] = distinct[(int) ((i * 7L) % n)];
        }
        DistinctSketch sketch = new DistinctSketch();
        for (int from = 0; from < values.length; from += 4096) {
            sketch.addLongs(values, null, from, Math.min(4096, values.length - from));
        }
        assertNear(n, sketch.estimate());
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 1_000, 100_000, 1_000_000})
    void estimatesDoubles(int n) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 0.25 - 1000;
        }
        DistinctSketch sketch = new DistinctSketch();
        sketch.addDoubles(values, null, 0, n);
        assertNear(n, sketch.estimate());
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 1_000, 100_000, 1_000_000})
    void estimatesStrings(int n) {
        BytesVector.Builder b = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            // Similar keys of varied lengths: the string hash must spread them anyway.
            b.append(("customer#" + "0".repeat(i % 13) + i).getBytes(StandardCharsets.UTF_8));
        }
        BytesVector v = b.build();
        DistinctSketch sketch = new DistinctSketch();
        sketch.addBytes(v.data(), v.offsets(), null, 0, n);
        assertNear(n, sketch.estimate());
    }

    @Test
    void emptySketchEstimatesZero() {
        assertEquals(0, new DistinctSketch().estimate());
    }

    @Test
    void skipsNullsAndHonoursTheRange() {
        long[] values = {1, 2, 3, 4, 5, 6, 7, 8};
        boolean[] nulls = {false, true, false, true, false, false, false, false};
        DistinctSketch sketch = new DistinctSketch();
        // Rows 1..5: 2 and 4 are NULL, leaving 3, 5 and 6.
        sketch.addLongs(values, nulls, 1, 5);
        assertEquals(3, sketch.estimate());
        DistinctSketch allNull = new DistinctSketch();
        allNull.addDoubles(new double[] {1, 2}, new boolean[] {true, true}, 0, 2);
        allNull.addBytes(new byte[] {'a'}, new int[] {0, 1, 1}, new boolean[] {true, true}, 0, 2);
        assertEquals(0, allNull.estimate());
    }

    @Test
    void signedZerosAreOneValueAndSoAreAllNaNs() {
        double otherNaN = Double.longBitsToDouble(0x7ff8_0000_0000_0001L);
        assertTrue(Double.isNaN(otherNaN));
        DistinctSketch sketch = new DistinctSketch();
        sketch.addDoubles(new double[] {0.0, -0.0, Double.NaN, otherNaN, 0.0 / 0.0, -Double.NaN}, null, 0, 6);
        assertEquals(2, sketch.estimate());
        DistinctSketch ones = new DistinctSketch();
        ones.addDoubles(new double[] {1.0, -1.0, Double.MIN_VALUE, -Double.MIN_VALUE}, null, 0, 4);
        assertEquals(4, ones.estimate());
    }

    @Test
    void stringsDifferingOnlyInLengthOrTrailingZerosAreDistinct() {
        BytesVector v = BytesVector.of("", "a", "a\0", "a\0\0\0\0\0\0\0", "a\0\0\0\0\0\0\0\0", "é", "a", "");
        DistinctSketch sketch = new DistinctSketch();
        sketch.addBytes(v.data(), v.offsets(), v.nulls(), 0, v.size());
        assertEquals(6, sketch.estimate());
        // The hash reads only the value's bytes, wherever the value starts.
        byte[] shifted = "xxabc".getBytes(StandardCharsets.UTF_8);
        byte[] plain = "abc".getBytes(StandardCharsets.UTF_8);
        assertEquals(DistinctSketch.hashBytes(plain, 0, 3), DistinctSketch.hashBytes(shifted, 2, 3));
    }

    @Test
    void mergeIsTheSketchOfTheUnionAndLeavesItsInputsAlone() {
        SplittableRandom random = new SplittableRandom(7);
        long[] a = random.longs(200_000, 0, 300_000).toArray();
        long[] b = random.longs(200_000, 150_000, 450_000).toArray();
        DistinctSketch sa = new DistinctSketch();
        sa.addLongs(a, null, 0, a.length);
        DistinctSketch sb = new DistinctSketch();
        sb.addLongs(b, null, 0, b.length);
        byte[] saBefore = sa.toBytes();
        byte[] sbBefore = sb.toBytes();

        DistinctSketch union = new DistinctSketch();
        union.addLongs(a, null, 0, a.length);
        union.addLongs(b, null, 0, b.length);
        DistinctSketch merged = sa.merge(sb);

        assertArrayEquals(union.toBytes(), merged.toBytes());
        assertArrayEquals(saBefore, sa.toBytes());
        assertArrayEquals(sbBefore, sb.toBytes());
        long truth = LongStream.concat(Arrays.stream(a), Arrays.stream(b)).distinct().count();
        assertNear(truth, merged.estimate());
        assertFalse(merged.isFrozen());
    }

    @Test
    void roundTripsThroughBytes() {
        DistinctSketch sketch = new DistinctSketch();
        long[] values = new SplittableRandom(3).longs(50_000).toArray();
        sketch.addLongs(values, null, 0, values.length);
        byte[] bytes = sketch.toBytes();
        assertEquals(2 + (1 << DistinctSketch.PRECISION), bytes.length);
        DistinctSketch back = DistinctSketch.fromBytes(bytes);
        assertEquals(sketch.estimate(), back.estimate());
        assertArrayEquals(bytes, back.toBytes());
        // What comes back is the receiver's own: it can take more values.
        back.addLongs(new long[] {42}, null, 0, 1);
    }

    @Test
    void rejectsForeignBytes() {
        byte[] good = new DistinctSketch().toBytes();
        assertThrows(IllegalArgumentException.class, () -> DistinctSketch.fromBytes(new byte[10]));
        byte[] otherPrecision = good.clone();
        otherPrecision[1] = 12;
        assertThrows(IllegalArgumentException.class, () -> DistinctSketch.fromBytes(otherPrecision));
        byte[] badRegister = good.clone();
        badRegister[100] = 60;
        assertThrows(IllegalArgumentException.class, () -> DistinctSketch.fromBytes(badRegister));
    }

    @Test
    void aFrozenSketchTakesNoMoreValues() {
        DistinctSketch sketch = new DistinctSketch();
        sketch.addLongs(new long[] {1, 2}, null, 0, 2);
        assertTrue(sketch.freeze().isFrozen());
        assertThrows(IllegalStateException.class, () -> sketch.addLongs(new long[] {3}, null, 0, 1));
        assertThrows(IllegalStateException.class, () -> sketch.addDoubles(new double[] {3}, null, 0, 1));
        assertThrows(IllegalStateException.class, () -> sketch.addBytes(new byte[0], new int[] {0, 0}, null, 0, 1));
        assertEquals(2, sketch.estimate());
        // Merging a frozen sketch is fine: the result is new.
        assertEquals(2, sketch.merge(new DistinctSketch()).estimate());
    }

    @Test
    void sketchesOfTheSameValuesAreEqualWhateverTheOrderAndBatching() {
        long[] values = new SplittableRandom(5).longs(20_000, 0, 5_000).toArray();
        DistinctSketch whole = new DistinctSketch();
        whole.addLongs(values, null, 0, values.length);
        long[] reversed = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            reversed[i] = values[values.length - 1 - i];
        }
        DistinctSketch pieces = new DistinctSketch();
        for (int from = 0; from < reversed.length; from += 333) {
            pieces.addLongs(reversed, null, from, Math.min(333, reversed.length - from));
        }
        assertEquals(whole, pieces);
        assertEquals(whole.hashCode(), pieces.hashCode());
        assertEquals(whole, whole.merge(pieces));
    }

    @Test
    void rejectsRowsOutsideTheArrays() {
        DistinctSketch sketch = new DistinctSketch();
        assertThrows(IndexOutOfBoundsException.class, () -> sketch.addLongs(new long[4], null, 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> sketch.addDoubles(new double[4], new boolean[2], 0, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> sketch.addBytes(new byte[0], new int[] {0, 0}, null, 0, 2));
        assertEquals(0, sketch.estimate());
    }
}
