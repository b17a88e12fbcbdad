package io.ferry.sql.rel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.externalize.RelWriterImpl;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleSpec;
import io.ferry.core.exec.ZoneFilter;
import io.ferry.core.expr.Expr;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.sql.translate.RexTranslator;

/**
 * Keeps the rows for which the condition is true. Over a scan of a table with zone-map indexes, it also hands the
 * scan what the condition says of the indexed columns ({@link ZoneFilter}), so that the scan skips the blocks where no
 * row can pass; the filter still runs on the blocks read.
 */
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

    /**
     * EXPLAIN names the columns whose zone maps the scan below uses and how many of the table's blocks they leave to
     * read now. Only for EXPLAIN's writer: a digest must not depend on the table's current blocks.
     */
    @Override
    public RelWriter explainTerms(RelWriter pw) {
        RelWriter w = super.explainTerms(pw);
        if (pw instanceof RelWriterImpl && toPlan() instanceof PlanNode.Filter f && f.input() instanceof PlanNode.Scan s
                && !s.zones().isEmpty() && s.table() instanceof Table table) {
            try (TableData data = table.snapshot()) {
                int total = data.blocks().size();
                int read = s.zones().keep(SampleSpec.keptBlocks(null, total), data.blocks()).length;
                w.item("zonemap", s.zones().describe(table.schema()) + ": reads " + read + " of " + total + " blocks");
            }
        }
        return w;
    }

    @Override
    public PlanNode toPlan() {
        RexTranslator t = new RexTranslator(FerryRel.types(getInput().getRowType()), getCluster().getRexBuilder());
        Expr expr = t.translate(condition);
        PlanNode input = FerryRel.plan(getInput());
        if (input instanceof PlanNode.Scan scan && scan.table() instanceof Table table && !table.indexes().isEmpty()) {
            ZoneFilter zones = ZoneFilter.of(expr, scan.columns(), table::indexed);
            input = scan.withZones(scan.zones().and(zones));
        }
        return new PlanNode.Filter(input, expr);
    }
}
