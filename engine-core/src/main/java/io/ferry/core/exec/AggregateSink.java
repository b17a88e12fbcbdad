package io.ferry.core.exec;

import java.util.function.IntFunction;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * A thread's partial aggregate: one hash table that every batch the thread gets folds into. Where its states are whole
 * (between batches; under cluster sampling between morsels), it hands the table to disk when the query's memory runs
 * short ({@link AggregateMerge#spill}) and goes on with an empty one.
 *
 * <p>Keys that hardly repeat make the partial table useless: every row cost a cache miss in a table growing to
 * millions of groups, and the merge did the same work again. Where the planner expects about as many groups as rows
 * ({@link PlanNode.Aggregate#nearlyUnique}), a table with {@link #PROBE_GROUPS} groups or more is looked at after each
 * batch: when more than {@link #NEW_SHARE} of its rows made a new group, the rows agree, and from then on the table
 * goes to the merge ({@link AggregateMerge#hold}) each time it has {@link #SMALL_GROUPS} groups: a table that small
 * stays in a core's cache, and the merge, split over the threads by a hash of the keys, groups the states once
 * (DuckDB's partial aggregates are abandoned when full the same way). Two BIGINT keys over 2,880,404 store_sales rows
 * (2.7 M groups): 264 → 157–238 ms. The planner's word is needed: rows alone can look unique for a while and repeat
 * later (a million keys in a cycle over 20 M rows measured 1.4–2.3× slower held, each thread's one table folding ten
 * rows a group).
 */
public final class AggregateSink implements Sink {
    /** Groups at which the first table is looked at: 65,536 rows hold enough repeats to tell 1 M keys from 3 M. */
    static final int PROBE_GROUPS = 1 << 16;
    /** The share of rows that made a new group above which the keys count as nearly unique. */
    static final double NEW_SHARE = 0.98;
    /**
     * Groups at which a table of nearly unique keys goes to the merge. The tables that follow are made with room for
     * these and one more batch at once (512 KiB of slots, in a core's L2 cache here), so they never grow.
     */
    static final int SMALL_GROUPS = 12_288;

    /** A new table, with room for the given groups (0: unknown). */
    private final IntFunction<HashAggregator> fresh;
    private final AggregateMerge merge;
    /** Whether tables may go to the merge early: the planner expects nearly unique keys. */
    private final boolean mayHold;
    private HashAggregator aggregator;
    /** Rows folded into {@link #aggregator}. */
    private long rows;
    /** Whether the keys were found nearly unique, so tables go to the merge when small. */
    private boolean holding;

    /**
     * @param merge   where the table goes when memory runs short; null: it stays
     * @param mayHold whether the planner expects nearly unique keys ({@link PlanNode.Aggregate#nearlyUnique})
     */
    public AggregateSink(IntFunction<HashAggregator> fresh, AggregateMerge merge, boolean mayHold) {
        this.fresh = fresh;
        this.merge = merge;
        this.mayHold = mayHold;
        this.aggregator = fresh.apply(0);
    }

    @Override
    public void consume(Batch batch) {
        aggregator.add(batch);
        rows += batch.rowCount();
        if (aggregator.wholeBetweenBatches()) {
            spillIfShort();
            holdIfUnique();
        }
    }

    @Override
    public void morselDone() {
        aggregator.endUnit();
        spillIfShort();
    }

    private void spillIfShort() {
        if (merge != null && merge.shouldSpill(aggregator)) {
            merge.spill(aggregator); // first, so that its memory is free for the next table
            aggregator = fresh.apply(0);
            rows = 0;
        }
    }

    private void holdIfUnique() {
        int groups = aggregator.groupCount();
        if (merge == null || !mayHold || groups < (holding ? SMALL_GROUPS : PROBE_GROUPS)) {
            return;
        }
        holding |= groups > NEW_SHARE * rows;
        if (holding) {
            merge.hold(aggregator);
            aggregator = fresh.apply(SMALL_GROUPS + Vector.MAX_ROWS);
            rows = 0;
        }
    }

    public HashAggregator aggregator() {
        return aggregator;
    }
}
