package io.ferry.core.exec;

import io.ferry.core.vector.Batch;

/** A streaming step of a pipeline (filter, project, sample, join probe). Stateless, shared by all threads. */
interface Transform {
    Batch apply(Batch in);
}
