package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The encoded keys of every pair of rows compare as {@link Sorter} compares the rows, for each physical type, both
 * directions and both NULL placements, alone and as several keys: values at the edges of each order (the extreme
 * longs, NaN, infinities, -0.0 beside 0.0, the empty string, prefixes, zero bytes and bytes above ASCII) and NULLs.
 */
class SortKeyBytesTest {
    private static final int ROWS = 160;

    @Test
    void encodedKeysCompareAsTheSorterOrdersRows() {
        Random rnd = new Random(15);
        Batch batch = new Batch(ROWS, new Vector[] {longs(rnd), doubles(rnd), strings(rnd)});
        for (int column = 0; column < 3; column++) {
            for (boolean descending : new boolean[] {false, true}) {
                for (boolean nullsFirst : new boolean[] {false, true}) {
                    assertSameOrder(batch, List.of(new SortKey(column, descending, nullsFirst)));
                }
            }
        }
        assertSameOrder(batch, List.of(new SortKey(2, true, false), new SortKey(1, false, true),
                new SortKey(0, true, true)));
        assertSameOrder(batch, List.of(new SortKey(1, true, true), new SortKey(2, false, false)));
    }

    private static void assertSameOrder(Batch batch, List<SortKey> keys) {
        Vector[] columns = new Vector[keys.size()];
        for (int k = 0; k < columns.length; k++) {
            columns[k] = batch.column(keys.get(k).column());
        }
        BytesVector encoded = SortKeyBytes.encode(columns, keys, ROWS);
        Sorter.RowComparator rows = Sorter.comparator(batch, keys);
        byte[] data = encoded.data();
        for (int a = 0; a < ROWS; a++) {
            for (int b = 0; b < ROWS; b++) {
                int bytes = Arrays.compareUnsigned(data, encoded.start(a), encoded.start(a) + encoded.length(a), data,
                        encoded.start(b), encoded.start(b) + encoded.length(b));
                if (Integer.signum(rows.compare(a, b)) != Integer.signum(bytes)) {
                    assertEquals(Integer.signum(rows.compare(a, b)), Integer.signum(bytes), keys + ": rows " + a
                            + " and " + b);
                }
            }
        }
    }

    private static boolean[] nulls(Random rnd) {
        boolean[] nulls = new boolean[ROWS];
        for (int i = 0; i < ROWS; i++) {
            nulls[i] = rnd.nextInt(8) == 0;
        }
        return nulls;
    }

    private static Vector longs(Random rnd) {
        long[] edges = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE, 255, 256};
        long[] x = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            x[i] = rnd.nextBoolean() ? edges[rnd.nextInt(edges.length)] : rnd.nextLong() >> rnd.nextInt(64);
        }
        return new LongVector(x, nulls(rnd), ROWS);
    }

    private static Vector doubles(Random rnd) {
        double[] edges = {Double.NaN, Double.longBitsToDouble(0x7ff0000000000123L), Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE,
            -Double.MAX_VALUE, 1.5, -1.5};
        double[] x = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            x[i] = rnd.nextBoolean() ? edges[rnd.nextInt(edges.length)] : rnd.nextGaussian() * 1e3;
        }
        return new DoubleVector(x, nulls(rnd), ROWS);
    }

    private static Vector strings(Random rnd) {
        byte[][] edges = {{}, {0}, {0, 0}, {'a'}, {'a', 0}, {'a', 0, 'b'}, {'a', 'b'}, {'a', (byte) 0xFF},
            {(byte) 0xC3, (byte) 0xA9}, {(byte) 0xFF}, {'B'}};
        boolean[] nulls = nulls(rnd);
        BytesVector.Builder b = new BytesVector.Builder(ROWS);
        for (int i = 0; i < ROWS; i++) {
            if (nulls[i]) {
                b.appendNull();
                continue;
            }
            byte[] v = edges[rnd.nextInt(edges.length)];
            if (rnd.nextBoolean()) {
                v = new byte[rnd.nextInt(4)];
                for (int j = 0; j < v.length; j++) {
                    v[j] = (byte) "ab\0\u00ff".charAt(rnd.nextInt(4));
                }
            }
            b.append(v);
        }
        return b.build();
    }
}
