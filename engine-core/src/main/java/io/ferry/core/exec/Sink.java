package io.ferry.core.exec;

import io.ferry.core.vector.Batch;

/**
 * Where a pipeline's batches end: one sink per driver thread, so a sink's state (a partial aggregate's hash table, a
 * top-N, a build side's rows) is touched by one thread and reused across every batch it gets; the runtime merges the
 * threads' sinks once the pipeline has drained.
 */
public interface Sink {
    void consume(Batch batch);

    /** Whether the sink needs no more rows (a LIMIT reached): its thread stops claiming morsels. */
    default boolean satisfied() {
        return false;
    }

    /**
     * Whether the sink keeps the batches it is given rather than folding them into state at once: those batches are
     * decoded before the morsel's bytes go ({@link Source#transientBytes()}).
     */
    default boolean keepsRows() {
        return false;
    }

    /** The thread claimed morsel {@code morsel}; its batches come next. */
    default void morselStart(int morsel) {
    }

    /** Every batch of the morsel the thread claimed has been consumed (a scan's morsel is one whole block). */
    default void morselDone() {
    }
}
