package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The packed-key group table against a map of the same keys, over key ranges it has to learn: every row gets the id
 * of its key's first appearance — while the ranges widen up and down across batches (the groups so far re-packed),
 * and after keys outgrow 64 bits (the groups moved to the packed-row table) — NULLs form groups of their own per key,
 * the keys read back as they went in, and the memory it reserved is released.
 */
class PackedKeyGroupTableTest {
    @Test
    void groupsAsAMapDoesWhileItsRangesWiden() {
        // small fixed ranges: one packing from the first batch on
        check(3, 60_000, (row, r) -> r.nextInt(40) + 1);
        // keys growing with the row number, the first upward and the second downward: repeated re-packing
        check(2, 80_000, (row, r) -> r.nextBoolean() ? row / 3 : -row / 7);
        // a surrogate key and a date beside a small flag
        check(3, 50_000, (row, r) -> r.nextInt(3) == 0 ? r.nextInt(2) : 10_957 + r.nextInt(2_000));
    }

    @Test
    void keysThatOutgrowSixtyFourBitsMoveToThePackedRowTable() {
        // narrow at first, then values anywhere: the third batch on no longer fits
        check(2, 30_000, (row, r) -> row < 2_048 ? r.nextInt(100) : r.nextLong());
        // extreme values from the first batch
        check(2, 10_000, (row, r) -> r.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE - r.nextInt(3));
    }

    @Test
    void typesOtherThanIntegralKeysGoElsewhere() {
        QueryMemory memory = new QueryMemory(1L << 20);
        assertInstanceOf(PackedKeyGroupTable.class, GroupTable.create(new Physical[] {Physical.LONG, Physical.LONG},
                memory, 0));
        assertInstanceOf(LongGroupTable.class, GroupTable.create(new Physical[] {Physical.LONG}, memory, 0));
        assertInstanceOf(MultiKeyGroupTable.class, GroupTable.create(new Physical[] {Physical.LONG, Physical.DOUBLE},
                memory, 0));
    }

    /** A key's value for a row; {@code row} counts the rows so far. */
    private interface Values {
        long next(int row, Random random);
    }

    private static void check(int keyCount, int rows, Values values) {
        Random random = new Random(rows * 31L + keyCount);
        QueryMemory memory = new QueryMemory(1L << 32);
        Physical[] types = new Physical[keyCount];
        Arrays.fill(types, Physical.LONG);
        PackedKeyGroupTable table = new PackedKeyGroupTable(types, memory, rows % 3 == 0 ? rows : 0); // made room for, or grown to
        Map<List<Long>, Integer> expected = new HashMap<>();
        List<List<Long>> firstKeys = new ArrayList<>();
        for (int from = 0; from < rows; from += 1024) {
            int n = Math.min(1024, rows - from);
            Vector[] keys = new Vector[keyCount];
            long[][] x = new long[keyCount][n];
            boolean[][] nulls = new boolean[keyCount][n];
            for (int k = 0; k < keyCount; k++) {
                boolean anyNull = false;
                for (int i = 0; i < n; i++) {
                    nulls[k][i] = random.nextInt(30) == 0;
                    anyNull |= nulls[k][i];
                    // a NULL's value is garbage: it must not widen a range or change a code
                    x[k][i] = nulls[k][i] ? random.nextLong() : values.next(from + i, random);
                }
                keys[k] = new LongVector(x[k], anyNull ? nulls[k] : null, n);
            }
            int[] out = new int[n];
            table.findOrInsert(keys, n, out);
            for (int i = 0; i < n; i++) {
                List<Long> key = new ArrayList<>();
                for (int k = 0; k < keyCount; k++) {
                    key.add(nulls[k][i] ? null : x[k][i]);
                }
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
        for (int from = 0; from < table.groupCount(); from += 999) {
            int count = Math.min(999, table.groupCount() - from);
            Vector[] back = table.keyVectors(from, count);
            for (int g = 0; g < count; g++) {
                List<Long> key = new ArrayList<>();
                for (int k = 0; k < keyCount; k++) {
                    key.add(back[k].isNull(g) ? null : ((LongVector) back[k]).get(g));
                }
                assertEquals(firstKeys.get(from + g), key, "group " + (from + g));
            }
        }
        table.close();
        assertEquals(0, memory.used());
    }
}
