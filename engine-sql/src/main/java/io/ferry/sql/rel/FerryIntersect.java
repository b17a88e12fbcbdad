package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import io.ferry.core.exec.PlanNode;

/** INTERSECT and INTERSECT ALL, by counting each row's occurrences per input ({@link SetOperations}). */
public final class FerryIntersect extends Intersect implements FerryRel {
    public FerryIntersect(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public FerryIntersect copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new FerryIntersect(getCluster(), traitSet, inputs, all);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        return SetOperations.counted(this, false);
    }
}
