package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * The streaming part of a plan: where its batches come from and the operators they flow through, in order, up to a
 * {@link Sink}. A plan is cut into pipelines at the operators that must see all their input first (an aggregate, a
 * join's build side, a sort, a window); {@link PipelineDriver} runs one on several threads, each claiming morsels of
 * the source and feeding a sink of its own. Local execution ({@link QueryExecutor}) and a cluster's compute servers
 * both run fragments this way.
 */
public record Pipeline(Source source, List<Transform> transforms) {
    public Pipeline {
        transforms = List.copyOf(transforms);
    }

    /** A pipeline that reads {@code source} and transforms nothing yet. */
    public static Pipeline of(Source source) {
        return new Pipeline(source, List.of());
    }

    /** This pipeline with {@code t} after its last operator. */
    public Pipeline then(Transform t) {
        List<Transform> next = new ArrayList<>(transforms);
        next.add(t);
        return new Pipeline(source, next);
    }
}
