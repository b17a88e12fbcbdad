package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * Groups rows by key columns and folds each group with plain accumulators (COUNT, SUM, SUM0, MIN, MAX, and the
 * moments of sample estimates). The same class serves as the partial aggregation every thread runs and as the final
 * merge of their outputs.
 */
final class HashAggregator {
    private final int[] groupKeys;
    private final List<AggCall> calls;
    private final GroupTable table;
    private final Accumulator[] accumulators;
    private final int stateColumns;
    private int[] groupIds = new int[Vector.MAX_ROWS];

    HashAggregator(List<FerryType> inputTypes, int[] groupKeys, List<AggCall> calls, QueryMemory memory) {
        this.groupKeys = groupKeys;
        this.calls = calls;
        Physical[] keyTypes = new Physical[groupKeys.length];
        for (int k = 0; k < groupKeys.length; k++) {
            keyTypes[k] = inputTypes.get(groupKeys[k]).physical();
        }
        this.table = GroupTable.create(keyTypes, memory);
        this.accumulators = new Accumulator[calls.size()];
        int width = 0;
        for (int i = 0; i < calls.size(); i++) {
            AggCall c = calls.get(i);
            accumulators[i] = Accumulator.create(c.kind(), c.arg() < 0 ? null : inputTypes.get(c.arg()), c.type());
            width += accumulators[i].width();
        }
        this.stateColumns = width;
        if (groupKeys.length == 0) {
            table.findOrInsert(new Vector[0], 1, new int[1]);
            for (Accumulator a : accumulators) {
                a.ensure(1);
            }
        }
    }

    void add(Batch batch) {
        int n = batch.rowCount();
        if (n == 0) {
            return;
        }
        if (groupIds.length < n) {
            groupIds = new int[n];
        }
        if (groupKeys.length == 0) {
            java.util.Arrays.fill(groupIds, 0, n, 0);
        } else {
            Vector[] keys = new Vector[groupKeys.length];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = batch.column(groupKeys[k]);
            }
            table.findOrInsert(keys, n, groupIds);
        }
        int groups = table.groupCount();
        for (int i = 0; i < accumulators.length; i++) {
            int arg = calls.get(i).arg();
            accumulators[i].ensure(groups);
            accumulators[i].add(groupIds, arg < 0 ? null : batch.column(arg), n);
        }
    }

    /** The morsel being added is done (a block under cluster sampling: see {@link Accumulator#endUnit}). */
    void endUnit() {
        for (Accumulator a : accumulators) {
            a.endUnit();
        }
    }

    /**
     * Group keys then each call's state columns (one, or {@link Accumulator#width} for moments), in batches of at
     * most {@link Vector#MAX_ROWS} rows.
     */
    List<Batch> result() {
        int groups = table.groupCount();
        List<Batch> out = new ArrayList<>();
        for (int from = 0; from < groups; from += Vector.MAX_ROWS) {
            int count = Math.min(Vector.MAX_ROWS, groups - from);
            Vector[] keys = table.keyVectors(from, count);
            Vector[] cols = new Vector[keys.length + stateColumns];
            System.arraycopy(keys, 0, cols, 0, keys.length);
            int at = keys.length;
            for (Accumulator a : accumulators) {
                a.ensure(groups);
                a.results(from, count, cols, at);
                at += a.width();
            }
            out.add(new Batch(count, cols));
        }
        return out;
    }

    void close() {
        table.close();
    }
}
