package io.ferry.sql.rel;

import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * An aggregate's row count in the cost-based phase: its input's distinct count of the group keys, as Calcite
 * estimates it, without Calcite's first step, which pulls every predicate up through the input to see whether all
 * group keys are constants. In the cost-based planner that step is recomputed whenever a cheaper implementation of
 * any node below appears (the planner drops the parents' cached metadata), and inferring a join tree's predicates
 * took half of the phase's time on TPC-DS q23b and q64. Constant group keys no longer exist there: the heuristic
 * phase before pulled them out of every aggregate.
 */
public final class AggregateRowCount implements MetadataHandler<BuiltInMetadata.RowCount> {
    static final AggregateRowCount INSTANCE = new AggregateRowCount();

    private AggregateRowCount() {
    }

    @Override
    public MetadataDef<BuiltInMetadata.RowCount> getDef() {
        return BuiltInMetadata.RowCount.DEF;
    }

    public Double getRowCount(Aggregate rel, RelMetadataQuery mq) {
        if (rel.getGroupSet().isEmpty()) {
            return 1D;
        }
        Double distinct = mq.getDistinctRowCount(rel.getInput(), rel.getGroupSet(), null);
        double rows = distinct != null ? distinct : mq.getRowCount(rel.getInput()) / 10;
        return rows * rel.getGroupSets().size();
    }
}
