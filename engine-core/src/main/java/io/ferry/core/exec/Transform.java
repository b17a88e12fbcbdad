package io.ferry.core.exec;

import io.ferry.core.vector.Batch;

/**
 * A streaming step of a pipeline (filter, project, sample, join probe). Shared by the driver threads, so it keeps
 * no state between batches: what it gives out (a filter's or a join's row positions) stays with the batch it made.
 */
public interface Transform {
    Batch apply(Batch in);

    /**
     * The most input rows one {@link #apply} call should get: a step that multiplies rows (a join whose keys
     * repeat) asks for smaller slices so that its output stays a batch, not gigabytes.
     */
    default int maxInputRows() {
        return Integer.MAX_VALUE;
    }
}
