package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;

/** The send side of a shuffle join: rows that can match land in the same part, and parts are about even. */
class HashPartitionerTest {
    @Test
    void equalKeysMeetInOnePartWhateverTheirColumnAndNullsToo() {
        int n = 5000;
        long[] a = new long[n];
        long[] b = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            a[i] = i % 700; // dense, sequential keys: the case plain modulo aliases with
            b[i] = 7 * i;
            nulls[i] = i % 97 == 0;
        }
        Batch left = Batch.of(new LongVector(a, nulls), new LongVector(b, null));
        Batch right = Batch.of(new LongVector(b, null), new LongVector(a, nulls));
        int[] l = new HashPartitioner(new int[] {0}, 4).partsOf(left);
        int[] r = new HashPartitioner(new int[] {1}, 4).partsOf(right);
        assertEquals(java.util.Arrays.toString(l), java.util.Arrays.toString(r), "a key's part follows its value");
        Map<Long, Integer> partOf = new HashMap<>();
        int nullPart = -1;
        int[] sizes = new int[4];
        for (int i = 0; i < n; i++) {
            sizes[l[i]]++;
            if (nulls[i]) {
                assertTrue(nullPart < 0 || nullPart == l[i], "every NULL key in one part");
                nullPart = l[i];
            } else {
                Integer before = partOf.putIfAbsent(a[i], l[i]);
                assertTrue(before == null || before == l[i], "key " + a[i] + " in two parts");
            }
        }
        for (int s : sizes) {
            assertTrue(s > n / 4 * 0.8 && s < n / 4 * 1.2, "parts about even: " + java.util.Arrays.toString(sizes));
        }
    }

    @Test
    void splitKeepsEveryRowOnceAndStringKeysHashByValue() {
        BytesVector keys = BytesVector.of("a", "b", "c", "a", "b", "a", null, "c");
        long[] ids = {0, 1, 2, 3, 4, 5, 6, 7};
        List<List<Batch>> parts = new HashPartitioner(new int[] {0}, 3).split(List.of(Batch.of(keys,
                new LongVector(ids, null))));
        List<Long> seen = new ArrayList<>();
        Map<String, Integer> where = new HashMap<>();
        for (int p = 0; p < parts.size(); p++) {
            for (Batch b : parts.get(p)) {
                for (int i = 0; i < b.rowCount(); i++) {
                    seen.add(((LongVector) b.column(1)).get(i));
                    String k = b.column(0).isNull(i) ? null : ((BytesVector) b.column(0)).getString(i);
                    Integer before = where.put(String.valueOf(k), p);
                    assertTrue(before == null || before == p, k + " in two parts");
                }
            }
        }
        seen.sort(null);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), seen);
    }
}
