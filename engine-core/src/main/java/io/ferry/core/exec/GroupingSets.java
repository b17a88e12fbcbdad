package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * The rows of GROUPING SETS, ROLLUP and CUBE from one aggregation by all their keys together. The input is read once,
 * grouped by the union of the keys (the finest grouping) with the partial and merged states of a plain aggregate;
 * every coarser set then merges states, never input rows: its groups are the groups of a set containing it, merged
 * into a hash table on its own keys as the final merge merges the threads' partial states. Each set is derived
 * from the computed set with fewest rows that contains it (ROLLUP(a, b, c) derives (a) from (a, b), not from
 * (a, b, c)); a set listed twice is computed once and emitted twice. Gray et al., "Data Cube: A Relational
 * Aggregation Operator Generalizing Group-By, Cross-Tab, and Sub-Totals" (1997), section 5: super-aggregates of
 * distributive and algebraic functions computed from their finer sub-aggregates' states.
 *
 * <p>The empty set {@code ()} is a merge with no keys, which has its one group from the start: over an empty input it
 * still gives the grand-total row (COUNT 0, the other calls NULL).
 */
final class GroupingSets {
    private final AggregatePlan plan;
    private final PlanNode.Aggregate agg;
    private final List<FerryType> keyTypes;
    private final List<FerryType> stateTypes;
    private final QueryMemory memory;

    /**
     * @param stateTypes the types of the merged states after the keys ({@link AggregatePlan#partialTypes} less
     *     the keys)
     */
    GroupingSets(AggregatePlan plan, PlanNode.Aggregate agg, List<FerryType> keyTypes, List<FerryType> stateTypes,
            QueryMemory memory) {
        this.plan = plan;
        this.agg = agg;
        this.keyTypes = keyTypes;
        this.stateTypes = stateTypes;
        this.memory = memory;
    }

    /** One set's merged rows: its keys (those in the set, in key order), then the states. */
    private record Rows(long set, List<Batch> batches, long rowCount) {
    }

    /**
     * The aggregate's output from the merged states of the finest grouping ({@code finest}: every key, then the
     * states), finished; {@code check} runs before each set is derived (a cancelled statement stops there).
     */
    List<Batch> expand(List<Batch> finest, Runnable check) {
        int keys = agg.groupKeys().length;
        long all = keys == 0 ? 0 : -1L >>> (64 - keys);
        Map<Long, Rows> computed = new HashMap<>();
        computed.put(all, new Rows(all, finest, Batch.totalRows(finest)));
        List<Long> order = new ArrayList<>();
        for (long set : agg.groupSets()) {
            if (!order.contains(set)) {
                order.add(set);
            }
        }
        // larger sets first, so that each smaller one finds its smallest computed superset
        order.sort((a, b) -> Integer.compare(Long.bitCount(b), Long.bitCount(a)));
        for (long set : order) {
            if (!computed.containsKey(set)) {
                check.run();
                computed.put(set, derive(set, smallestSuperset(computed, set)));
            }
        }
        List<Batch> out = new ArrayList<>();
        for (long set : agg.groupSets()) {
            for (Batch b : computed.get(set).batches()) {
                out.add(plan.finish(widen(b, set), set));
            }
        }
        return out;
    }

    private static Rows smallestSuperset(Map<Long, Rows> computed, long set) {
        Rows best = null;
        for (Rows r : computed.values()) {
            if ((r.set() & set) == set && (best == null || r.rowCount() < best.rowCount())) {
                best = r;
            }
        }
        return best;
    }

    /** The groups of {@code set} merged from those of {@code source}, a superset of it. */
    private Rows derive(long set, Rows source) {
        int sourceKeys = Long.bitCount(source.set());
        int allKeys = agg.groupKeys().length;
        List<FerryType> inputTypes = new ArrayList<>();
        int[] groupKeys = new int[Long.bitCount(set)];
        int at = 0;
        int column = 0;
        for (int k = 0; k < allKeys; k++) {
            if ((source.set() >>> k & 1) == 0) {
                continue;
            }
            inputTypes.add(keyTypes.get(k));
            if ((set >>> k & 1) != 0) {
                groupKeys[at++] = column;
            }
            column++;
        }
        inputTypes.addAll(stateTypes);
        // the final calls read states after all keys; in the source they follow its keys only
        List<AggCall> calls = new ArrayList<>();
        for (AggCall c : plan.finalCalls()) {
            calls.add(c.withColumns(c.arg() - allKeys + sourceKeys, c.arg2(), c.filter()));
        }
        HashAggregator merge = new HashAggregator(inputTypes, groupKeys, calls, memory);
        try {
            for (Batch b : source.batches()) {
                merge.add(b);
            }
            List<Batch> rows = merge.result();
            return new Rows(set, rows, Batch.totalRows(rows));
        } finally {
            merge.close();
        }
    }

    /** A batch of {@code set}'s rows with every key in place: NULL for those not in the set. */
    private Batch widen(Batch rows, long set) {
        int keys = agg.groupKeys().length;
        int n = rows.rowCount();
        Vector[] cols = new Vector[keys + stateTypes.size()];
        int from = 0;
        for (int k = 0; k < keys; k++) {
            cols[k] = (set >>> k & 1) != 0 ? rows.column(from++) : Vector.allNull(keyTypes.get(k).physical(), n);
        }
        for (int s = 0; s < stateTypes.size(); s++) {
            cols[keys + s] = rows.column(from + s);
        }
        return new Batch(n, cols);
    }
}
