package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Groups rows by key columns and folds each group with plain accumulators (COUNT, SUM, SUM0, MIN, MAX, and the
 * moments of sample estimates). The same class serves as the partial aggregation every thread runs and as the final
 * merge of their outputs. A call with a FILTER, and COUNT(a, b, ...), sees only its selected rows: their group ids and
 * arguments are gathered once per batch for it.
 */
public final class HashAggregator {
    private final int[] groupKeys;
    private final List<AggCall> calls;
    private final GroupTable table;
    private final Accumulator[] accumulators;
    private final int stateColumns;
    private final boolean wholeBetweenBatches;
    private int[] groupIds = new int[Vector.MAX_ROWS];
    private int[] selected = new int[Vector.MAX_ROWS];
    private int[] selectedGroups = new int[Vector.MAX_ROWS];

    public HashAggregator(List<FerryType> inputTypes, int[] groupKeys, List<AggCall> calls, QueryMemory memory) {
        this(inputTypes, groupKeys, calls, memory, 0);
    }

    /** @param expected groups its table makes room for at once (0: unknown) */
    public HashAggregator(List<FerryType> inputTypes, int[] groupKeys, List<AggCall> calls, QueryMemory memory,
            int expected) {
        this.groupKeys = groupKeys;
        this.calls = calls;
        Physical[] keyTypes = new Physical[groupKeys.length];
        for (int k = 0; k < groupKeys.length; k++) {
            keyTypes[k] = inputTypes.get(groupKeys[k]).physical();
        }
        this.table = GroupTable.create(keyTypes, memory, expected);
        this.accumulators = new Accumulator[calls.size()];
        int width = 0;
        for (int i = 0; i < calls.size(); i++) {
            AggCall c = calls.get(i);
            accumulators[i] = Accumulator.create(c, c.arg() < 0 ? null : inputTypes.get(c.arg()),
                    c.arg2() < 0 ? null : inputTypes.get(c.arg2()), memory);
            width += accumulators[i].width();
        }
        this.stateColumns = width;
        this.wholeBetweenBatches = java.util.Arrays.stream(accumulators).noneMatch(Accumulator::holdsUnit);
        if (groupKeys.length == 0) {
            table.findOrInsert(new Vector[0], 1, new int[1]);
            for (Accumulator a : accumulators) {
                a.ensure(1);
            }
        }
    }

    public void add(Batch batch) {
        int n = batch.rowCount();
        if (n == 0) {
            return;
        }
        if (groupIds.length < n) {
            groupIds = new int[n];
            selected = new int[n];
            selectedGroups = new int[n];
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
            AggCall c = calls.get(i);
            Vector arg = c.arg() < 0 ? null : batch.column(c.arg());
            Vector arg2 = c.arg2() < 0 ? null : batch.column(c.arg2());
            accumulators[i].ensure(groups);
            Vector[] rest = restColumns(c, batch);
            boolean pair = c.kind() == AggCall.AggKind.COUNT && arg2 != null;
            if (c.filter() < 0 && !pair) {
                if (groupKeys.length == 0) {
                    accumulators[i].addToFirstGroup(groupIds, arg, arg2, rest, n);
                } else {
                    accumulators[i].add(groupIds, arg, arg2, rest, n);
                }
                continue;
            }
            int m = select((LongVector) (c.filter() < 0 ? null : batch.column(c.filter())), pair ? arg : null,
                    pair ? arg2 : null, pair ? rest : null, n);
            for (int r = 0; r < m; r++) {
                selectedGroups[r] = groupIds[selected[r]];
            }
            if (rest != null && !pair) {
                for (int k = 0; k < rest.length; k++) {
                    rest[k] = rest[k].gather(selected, m);
                }
            }
            // COUNT(a, b, ...) counts the rows where none is NULL: once selected, as COUNT(*)
            accumulators[i].add(selectedGroups, pair || arg == null ? null : arg.gather(selected, m),
                    pair || arg2 == null ? null : arg2.gather(selected, m), pair ? null : rest, m);
        }
    }

    /**
     * A call's columns beyond its two arguments: the keys of its own ORDER BY (STRING_AGG ... ORDER BY), or its
     * third and later arguments (COUNT(DISTINCT a, b, c)); null when it has none.
     */
    private static Vector[] restColumns(AggCall c, Batch batch) {
        int n = c.order().size() + c.moreArgs().size();
        if (n == 0) {
            return null;
        }
        Vector[] columns = new Vector[n];
        for (int k = 0; k < c.order().size(); k++) {
            columns[k] = batch.column(c.order().get(k).column());
        }
        for (int k = 0; k < c.moreArgs().size(); k++) {
            columns[c.order().size() + k] = batch.column(c.moreArgs().get(k));
        }
        return columns;
    }

    /**
     * Writes into {@link #selected} the rows among {@code n} where {@code filter} (if any) is TRUE and none of
     * {@code a}, {@code b} and {@code rest} (where given) is NULL; returns how many.
     */
    private int select(LongVector filter, Vector a, Vector b, Vector[] rest, int n) {
        long[] f = filter == null ? null : filter.values();
        boolean[] fNulls = filter == null ? null : filter.nulls();
        boolean[] aNulls = a == null ? null : a.nulls();
        boolean[] bNulls = b == null ? null : b.nulls();
        int m = 0;
        for (int r = 0; r < n; r++) {
            boolean keep = (f == null || (f[r] != 0 && (fNulls == null || !fNulls[r])))
                    && (aNulls == null || !aNulls[r]) && (bNulls == null || !bNulls[r]);
            selected[m] = r;
            m += keep ? 1 : 0;
        }
        if (rest == null) {
            return m;
        }
        // each further column drops the selected rows where it is NULL, in place
        for (Vector column : rest) {
            boolean[] nulls = column.nulls();
            if (nulls == null) {
                continue;
            }
            int kept = 0;
            for (int s = 0; s < m; s++) {
                int r = selected[s];
                selected[kept] = r;
                kept += nulls[r] ? 0 : 1;
            }
            m = kept;
        }
        return m;
    }

    /**
     * Whether the states are whole between any two batches, so the table may go to disk there; else only between
     * morsels (a block's sums under cluster sampling wait for {@link #endUnit}).
     */
    public boolean wholeBetweenBatches() {
        return wholeBetweenBatches;
    }

    /** The morsel being added is done (a block under cluster sampling: see {@link Accumulator#endUnit}). */
    public void endUnit() {
        for (Accumulator a : accumulators) {
            a.endUnit();
        }
    }

    /**
     * Group keys then each call's state columns (one, or {@link Accumulator#width} for moments), in batches of at
     * most {@link Vector#MAX_ROWS} rows.
     */
    public List<Batch> result() {
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

    public int groupCount() {
        return table.groupCount();
    }

    /** What the groups take, roughly: the table's reservation, each group's state columns, DISTINCT calls' sets. */
    public long footprint() {
        long bytes = table.bytes() + 8L * stateColumns * table.groupCount();
        for (Accumulator a : accumulators) {
            bytes += a.reservedBytes();
        }
        return bytes;
    }

    public void close() {
        table.close();
        for (Accumulator a : accumulators) {
            a.close();
        }
    }
}
