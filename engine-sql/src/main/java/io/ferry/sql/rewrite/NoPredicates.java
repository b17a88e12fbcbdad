package io.ferry.sql.rewrite;

import java.util.List;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Calcite's metadata, less the predicates it pulls up from a node's inputs: for a phase that folds constants in
 * conditions and needs no more. Pulling predicates up through the joins of a FROM list, again after each rewrite
 * (the heuristic planner forgets its metadata whenever the plan changes), took 7% of planning TPC-DS; the phase
 * that simplifies conditions by what their inputs imply runs after join ordering, where the joins are small. Public
 * for the handler code Calcite generates.
 */
public final class NoPredicates implements MetadataHandler<BuiltInMetadata.Predicates> {
    static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new NoPredicates(),
                    BuiltInMetadata.Predicates.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    private NoPredicates() {
    }

    @Override
    public MetadataDef<BuiltInMetadata.Predicates> getDef() {
        return BuiltInMetadata.Predicates.DEF;
    }

    public RelOptPredicateList getPredicates(RelNode rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    // Calcite's generated dispatch takes the most specific method of any provider in the chain: each kind of node
    // Calcite's own handler knows is named here too

    public RelOptPredicateList getPredicates(Join rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Filter rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Project rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Aggregate rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Correlate rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(SetOp rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Union rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Intersect rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Minus rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Sort rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(TableScan rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }

    public RelOptPredicateList getPredicates(Values rel, RelMetadataQuery mq) {
        return RelOptPredicateList.EMPTY;
    }
}
