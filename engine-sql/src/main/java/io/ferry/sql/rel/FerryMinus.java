package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import io.ferry.core.exec.PlanNode;

/** EXCEPT and EXCEPT ALL, by counting each row's occurrences per input ({@link SetOperations}). */
public final class FerryMinus extends Minus implements FerryRel {
    public FerryMinus(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public FerryMinus copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new FerryMinus(getCluster(), traitSet, inputs, all);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        return SetOperations.counted(this, true);
    }
}
