package io.ferry.core.exec;

import io.ferry.core.vector.Batch;

/** A thread's partial aggregate: one hash table that every batch the thread gets folds into. */
public record AggregateSink(HashAggregator aggregator) implements Sink {
    @Override
    public void consume(Batch batch) {
        aggregator.add(batch);
    }

    @Override
    public void morselDone() {
        aggregator.endUnit();
    }
}
