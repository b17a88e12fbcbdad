package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import io.ferry.core.exec.PlanNode;

/** UNION ALL, and UNION as UNION ALL grouped by every column ({@link SetOperations}). */
public final class FerryUnion extends Union implements FerryRel {
    public FerryUnion(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public FerryUnion copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new FerryUnion(getCluster(), traitSet, inputs, all);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        return SetOperations.union(this);
    }
}
