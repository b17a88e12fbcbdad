package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;

/**
 * Calcite's metadata with the estimates that are cheap to keep up to date while planners rewrite: an aggregate's
 * rows without a predicate pull-up ({@link AggregateRowCount}) and a join's predicates without inference across it
 * ({@link JoinPredicates}). The simplification and cost-based phases read them.
 */
public final class PlannerMetadata {
    public static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(AggregateRowCount.INSTANCE,
                    BuiltInMetadata.RowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(JoinPredicates.INSTANCE,
                    BuiltInMetadata.Predicates.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    private PlannerMetadata() {
    }
}
