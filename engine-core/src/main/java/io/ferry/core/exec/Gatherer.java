package io.ferry.core.exec;

import java.util.List;

import io.ferry.core.vector.Batch;

/** Produces the rows of a {@link PlanNode.Gather}: runs its fragment wherever the fragment's blocks are. */
@FunctionalInterface
public interface Gatherer {
    /** All rows of the fragment; called on the query's own thread, never on an executor thread. */
    List<Batch> gather(PlanNode.Gather gather, QueryContext ctx);
}
