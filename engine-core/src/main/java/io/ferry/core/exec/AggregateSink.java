package io.ferry.core.exec;

import java.util.function.Supplier;

import io.ferry.core.vector.Batch;

/**
 * A thread's partial aggregate: one hash table that every batch the thread gets folds into. Where its states are whole
 * (between batches; under cluster sampling between morsels), it hands the table to disk when the query's memory runs
 * short ({@link AggregateMerge#spill}) and goes on with an empty one.
 */
public final class AggregateSink implements Sink {
    private final Supplier<HashAggregator> fresh;
    private final AggregateMerge merge;
    private HashAggregator aggregator;

    /** @param merge where the table goes when memory runs short; null: it stays */
    public AggregateSink(Supplier<HashAggregator> fresh, AggregateMerge merge) {
        this.fresh = fresh;
        this.merge = merge;
        this.aggregator = fresh.get();
    }

    @Override
    public void consume(Batch batch) {
        aggregator.add(batch);
        if (aggregator.wholeBetweenBatches()) {
            spillIfShort();
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
            aggregator = fresh.get();
        }
    }

    public HashAggregator aggregator() {
        return aggregator;
    }
}
