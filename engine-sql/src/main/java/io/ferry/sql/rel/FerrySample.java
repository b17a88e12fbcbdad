package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptSamplingParameters;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleSpec;

/**
 * TABLESAMPLE BERNOULLI / SYSTEM on a table scan. Calcite has no physical operator for SYSTEM; Ferry samples
 * inside the scan so that unchosen blocks are never read (ship-or-not section II-B).
 */
public final class FerrySample extends SingleRel implements FerryRel {
    private final RelOptSamplingParameters params;

    public FerrySample(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelOptSamplingParameters params) {
        super(cluster, traits, input);
        this.params = params;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerrySample(getCluster(), traitSet, sole(inputs), params);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw)
                .item("method", params.isBernoulli() ? "BERNOULLI" : "SYSTEM")
                .item("percent", params.sampleRate.movePointRight(2).stripTrailingZeros().toPlainString())
                .itemIf("repeatable", params.getRepeatableSeed(), params.isRepeatable());
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return mq.getRowCount(getInput()) * params.sampleRate.doubleValue();
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        double touched = params.isBernoulli() ? rows : rows * params.sampleRate.doubleValue();
        return planner.getCostFactory().makeCost(touched * COST_FACTOR, touched * COST_FACTOR, 0);
    }

    @Override
    public PlanNode toPlan() {
        SampleSpec.Method method = params.isBernoulli() ? SampleSpec.Method.BERNOULLI : SampleSpec.Method.SYSTEM;
        double percent = params.sampleRate.doubleValue() * 100;
        SampleSpec spec = params.isRepeatable() ? new SampleSpec(method, percent, params.getRepeatableSeed())
                : SampleSpec.fresh(method, percent);
        return intoScan(FerryRel.plan(getInput()), spec);
    }

    /**
     * Moves the sample into the scan below. Membership depends only on a row's block and position, never on
     * which rows a filter or projection let through, so sampling commutes with both.
     */
    private static PlanNode intoScan(PlanNode node, SampleSpec spec) {
        if (node instanceof PlanNode.Scan scan && scan.sample() == null) {
            return new PlanNode.Scan(scan.table(), scan.columns(), spec, scan.zones());
        }
        if (node instanceof PlanNode.Project p) {
            return new PlanNode.Project(intoScan(p.input(), spec), p.exprs());
        }
        if (node instanceof PlanNode.Filter f) {
            return new PlanNode.Filter(intoScan(f.input(), spec), f.condition());
        }
        throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "TABLESAMPLE applies to a table, not to a "
                + "subquery or view");
    }
}
