package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.expr.Expr;
import io.ferry.sql.translate.RexTranslator;

public final class FerryProject extends Project implements FerryRel {
    public FerryProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<? extends RexNode> projects,
            RelDataType rowType) {
        super(cluster, traits, List.of(), input, projects, rowType, java.util.Set.of());
    }

    @Override
    public Project copy(RelTraitSet traitSet, RelNode input, List<RexNode> projects, RelDataType rowType) {
        return new FerryProject(getCluster(), traitSet, input, projects, rowType);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        RexTranslator t = new RexTranslator(FerryRel.types(getInput().getRowType()), getCluster().getRexBuilder());
        List<Expr> exprs = new ArrayList<>();
        List<io.ferry.core.types.FerryType> outTypes = FerryRel.types(getRowType());
        for (int i = 0; i < exps.size(); i++) {
            Expr e = t.translate(exps.get(i));
            exprs.add(RexTranslator.cast(e, outTypes.get(i)));
        }
        return new PlanNode.Project(FerryRel.plan(getInput()), exprs);
    }
}
