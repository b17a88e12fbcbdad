package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The packed-row group table against a map of the same keys: every row gets the id of its key's first appearance,
 * NULLs form groups of their own per key, -0.0 groups with 0.0 and NaN with NaN, strings compare by their bytes;
 * the keys read back as they went in; the memory it reserved is released.
 */
class MultiKeyGroupTableTest {
    private static final String[] WORDS = {"", "a", "ab", "Zürich", "東京", "a longer key than eight bytes", "ab\0"};
    private static final double[] DOUBLES = {0.0, -0.0, 1.5, Double.NaN, -2.25, 1e300};

    @Test
    void groupsAsAMapDoes() {
        check(new Physical[] {Physical.LONG, Physical.BYTES, Physical.DOUBLE}, 50_000, 300);
        check(new Physical[] {Physical.BYTES, Physical.BYTES}, 20_000, 50);
        check(new Physical[] {Physical.LONG, Physical.LONG}, 200_000, 100_000); // grows and rehashes many times
    }

    @Test
    void moreKeysThanOneWordOfNullFlags() {
        Physical[] types = new Physical[70];
        for (int k = 0; k < types.length; k++) {
            types[k] = k % 3 == 0 ? Physical.BYTES : k % 3 == 1 ? Physical.LONG : Physical.DOUBLE;
        }
        check(types, 10_000, 5);
    }

    private static void check(Physical[] types, int rows, int spread) {
        Random random = new Random(rows + types.length);
        QueryMemory memory = new QueryMemory(1L << 32);
        MultiKeyGroupTable table = new MultiKeyGroupTable(types, memory);
        Map<List<Object>, Integer> expected = new HashMap<>();
        List<List<Object>> firstKeys = new ArrayList<>();
        int batch = 1024;
        for (int from = 0; from < rows; from += batch) {
            int n = Math.min(batch, rows - from);
            Vector[] keys = new Vector[types.length];
            List<List<Object>> rowKeys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                rowKeys.add(new ArrayList<>());
            }
            for (int k = 0; k < types.length; k++) {
                keys[k] = column(types[k], n, spread, random, rowKeys);
            }
            int[] out = new int[n];
            table.findOrInsert(keys, n, out);
            for (int i = 0; i < n; i++) {
                Integer id = expected.get(rowKeys.get(i));
                if (id == null) {
                    id = expected.size();
                    expected.put(rowKeys.get(i), id);
                    firstKeys.add(rowKeys.get(i));
                }
                assertEquals(id, out[i], "row " + (from + i) + " " + rowKeys.get(i));
            }
        }
        assertEquals(expected.size(), table.groupCount());
        int groups = table.groupCount();
        for (int from = 0; from < groups; from += 777) {
            int count = Math.min(777, groups - from);
            Vector[] back = table.keyVectors(from, count);
            for (int g = 0; g < count; g++) {
                List<Object> key = new ArrayList<>();
                for (int k = 0; k < types.length; k++) {
                    key.add(value(back[k], g));
                }
                assertEquals(firstKeys.get(from + g), key, "group " + (from + g));
            }
        }
        table.close();
        assertEquals(0, memory.used());
    }

    /** A random column; each row's key gets its value as a map compares it (-0.0 as 0.0, NULL as null). */
    private static Vector column(Physical type, int n, int spread, Random random, List<List<Object>> rowKeys) {
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            nulls[i] = random.nextInt(10) == 0;
        }
        Vector v = switch (type) {
            case LONG -> {
                long[] x = new long[n];
                for (int i = 0; i < n; i++) {
                    // a NULL's slot holds garbage: it must not matter
                    x[i] = nulls[i] ? random.nextLong() : random.nextInt(spread) - spread / 2;
                }
                yield new LongVector(x, nulls, n);
            }
            case DOUBLE -> {
                double[] x = new double[n];
                for (int i = 0; i < n; i++) {
                    x[i] = DOUBLES[random.nextInt(Math.min(spread, DOUBLES.length))];
                }
                yield new DoubleVector(x, nulls, n);
            }
            default -> {
                String[] s = new String[n];
                for (int i = 0; i < n; i++) {
                    s[i] = nulls[i] ? null : WORDS[random.nextInt(WORDS.length)] + random.nextInt(Math.max(1, spread / 7));
                }
                yield BytesVector.of(s);
            }
        };
        for (int i = 0; i < n; i++) {
            rowKeys.get(i).add(value(v, i));
        }
        return v;
    }

    private static Object value(Vector v, int row) {
        if (v.isNull(row)) {
            return null;
        }
        if (v instanceof LongVector l) {
            return l.get(row);
        }
        if (v instanceof DoubleVector d) {
            double x = d.get(row);
            return x == 0.0 ? 0.0 : x;
        }
        return ((BytesVector) v).getString(row);
    }
}
