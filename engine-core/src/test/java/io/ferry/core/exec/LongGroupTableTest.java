package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The one-key group table against a map of the same keys: every row gets the id of its key's first appearance (also
 * when a key first appears twice in one batch, and across the table's growths), NULL is one group whatever its slot
 * holds, extreme keys are keys like any other; the keys read back as they went in; the memory it reserved is released.
 */
class LongGroupTableTest {
    private static final long[] EDGES = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32, -(1L << 40)};

    @Test
    void groupsAsAMapDoes() {
        check(30_000, 20, true);            // few groups, each met in every batch
        check(300_000, 200_000, true);      // grows and rehashes many times, most rows new
        check(100_000, Long.MAX_VALUE, true); // every key anywhere in the range: the hash's high bits must spread them
    }

    /**
     * Dense keys, which the table maps directly once it grows: at random within their range, widening it down and
     * up; cycling in order; and dense until far keys arrive, when it hashes them all again.
     */
    @Test
    void denseKeysGroupAsAMapDoes() {
        check(300_000, 120_000, false);
        check(200_000, -1, false);
        check(300_000, 150_000, true);
    }

    /**
     * Dense keys in descending order, and ascending: the direct slots are laid out a few times as they widen, not once
     * a key (which made a million descending keys quadratic).
     */
    @Test
    void denseKeysInEitherOrderWidenTheSlotsRarely() {
        for (long step : new long[] {-1, 1}) {
            QueryMemory memory = new QueryMemory(1L << 32);
            LongGroupTable table = new LongGroupTable(memory);
            int rows = 1_000_000;
            long start = step < 0 ? 5_000_000_000L : -5_000_000_000L;
            int[] out = new int[4096];
            for (int from = 0; from < rows; from += 4096) {
                long[] x = new long[4096];
                for (int i = 0; i < x.length; i++) {
                    x[i] = start + step * (from + i);
                }
                table.findOrInsert(new Vector[] {new LongVector(x, null, x.length)}, x.length, out);
                for (int i = 0; i < x.length; i++) {
                    assertEquals(from + i, out[i], "row " + (from + i));
                }
            }
            assertEquals(true, table.directWidenings > 0 && table.directWidenings < 40,
                    "laid out " + table.directWidenings + " times, step " + step);
            table.close();
            assertEquals(0, memory.used());
        }
    }

    /**
     * @param spread keys drawn from a range this wide around 0; -1: 0, 1, 2, … cycling through 50,000
     * @param edges  whether one row in ten takes an extreme key ({@link #EDGES}); with a dense spread they arrive
     *               only in the second half of the rows
     */
    private static void check(int rows, long spread, boolean edges) {
        Random random = new Random(rows);
        QueryMemory memory = new QueryMemory(1L << 32);
        LongGroupTable table = new LongGroupTable(memory);
        Map<Long, Integer> expected = new HashMap<>();
        List<Long> firstKeys = new ArrayList<>();
        for (int from = 0; from < rows; from += 1024) {
            int n = Math.min(1024, rows - from);
            long[] x = new long[n];
            boolean[] nulls = new boolean[n];
            for (int i = 0; i < n; i++) {
                nulls[i] = random.nextInt(25) == 0;
                boolean edge = edges && (spread > 1_000_000 || from + i > rows / 2) && random.nextInt(10) == 0;
                x[i] = nulls[i] ? random.nextLong() // a NULL's value is garbage: it must not matter
                        : edge ? EDGES[random.nextInt(EDGES.length)]
                        : spread == -1 ? (from + i) % 50_000
                        : spread == Long.MAX_VALUE ? random.nextLong() : random.nextLong(spread) - spread / 2;
            }
            int[] out = new int[n];
            table.findOrInsert(new Vector[] {new LongVector(x, nulls, n)}, n, out);
            for (int i = 0; i < n; i++) {
                Long key = nulls[i] ? null : x[i];
                Integer id = expected.get(key);
                if (id == null) {
                    id = expected.size();
                    expected.put(key, id);
                    firstKeys.add(key);
                }
                assertEquals(id, out[i], "row " + (from + i) + " key " + key);
            }
        }
        assertEquals(expected.size(), table.groupCount());
        for (int from = 0; from < table.groupCount(); from += 777) {
            int count = Math.min(777, table.groupCount() - from);
            LongVector back = (LongVector) table.keyVectors(from, count)[0];
            for (int g = 0; g < count; g++) {
                assertEquals(firstKeys.get(from + g), back.isNull(g) ? null : back.get(g), "group " + (from + g));
            }
        }
        table.close();
        assertEquals(0, memory.used());
    }
}
