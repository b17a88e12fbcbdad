package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Partial states of STRING_AGG(s, sep ORDER BY k DESC) from two threads, merged in either order, join as one
 * aggregation of all rows would: each value after its own row's separator, the first in key order without its own
 * (DuckDB takes a constant separator only, so the SQL tests cannot check per-row ones), a NULL separator as nothing,
 * NULL values skipped, a group with none NULL; and with DISTINCT, equal (value, separator) entries once.
 */
class OrderedStringAggAccumulatorTest {
    private static final List<SortKey> BY_K_DESC = List.of(new SortKey(0, true, false));

    @Test
    void partialStatesMergeInAnyOrderAsOneAggregation() {
        // group 0: (k, s, sep) = (1, a, +), (5, b, -), (3, c, NULL), (4, NULL, *); group 1: only NULL values
        BytesVector first = partial(new int[] {0, 0, 1}, new long[] {1, 5, 9}, BytesVector.of("a", "b", null),
                BytesVector.of("+", "-", "+"));
        BytesVector second = partial(new int[] {0, 0}, new long[] {3, 4}, BytesVector.of("c", null),
                BytesVector.of(null, "*"));
        for (BytesVector[] states : List.of(new BytesVector[] {first, second}, new BytesVector[] {second, first})) {
            OrderedStringAggAccumulator merge = new OrderedStringAggAccumulator(List.of(), false);
            merge.ensure(2);
            for (BytesVector s : states) {
                merge.add(new int[] {0, 1}, s, null, null, s.size());
            }
            BytesVector out = (BytesVector) OrderedStringAggAccumulator.finish((BytesVector) merge.result(0, 2),
                    false);
            // k descending: b (5), c (3, NULL separator), a (1, '+'); b is first, so its '-' goes
            assertEquals("bc+a", out.getString(0));
            assertTrue(out.isNull(1));
        }
    }

    /** Sorted by (value, separator), as AggregatePlan orders a DISTINCT call, equal entries lie side by side. */
    @Test
    void distinctKeepsTheFirstOfEqualEntries() {
        BytesVector values = BytesVector.of("b", "a", "a", "a", "b");
        BytesVector separators = BytesVector.of(",", ",", ";", ",", ",");
        OrderedStringAggAccumulator acc = new OrderedStringAggAccumulator(List.of(new SortKey(0, false, false),
                new SortKey(1, false, false)), true);
        acc.ensure(1);
        acc.add(new int[5], values, separators, new Vector[] {values, separators}, 5);
        BytesVector states = (BytesVector) acc.result(0, 1);
        assertEquals("a;a,b", ((BytesVector) OrderedStringAggAccumulator.finish(states, true)).getString(0));
        assertEquals("a,a;a,b,b", ((BytesVector) OrderedStringAggAccumulator.finish(states, false)).getString(0));
    }

    private static BytesVector partial(int[] groups, long[] keys, BytesVector values, BytesVector separators) {
        OrderedStringAggAccumulator acc = new OrderedStringAggAccumulator(BY_K_DESC, true);
        acc.ensure(2);
        int n = groups.length;
        acc.add(groups, values, separators, new Vector[] {new LongVector(keys, null, n)}, n);
        return (BytesVector) acc.result(0, 2);
    }
}
