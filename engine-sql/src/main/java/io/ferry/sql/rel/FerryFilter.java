package io.ferry.sql.rel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

import io.ferry.core.exec.PlanNode;
import io.ferry.sql.translate.RexTranslator;

public final class FerryFilter extends Filter implements FerryRel {
    public FerryFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
        return new FerryFilter(getCluster(), traitSet, input, condition);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        RexTranslator t = new RexTranslator(FerryRel.types(getInput().getRowType()), getCluster().getRexBuilder());
        return new PlanNode.Filter(FerryRel.plan(getInput()), t.translate(condition));
    }
}
