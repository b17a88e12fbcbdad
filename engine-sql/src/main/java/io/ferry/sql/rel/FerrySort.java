package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SortKey;

/** ORDER BY with optional OFFSET/FETCH; with a FETCH each thread keeps only its top rows (top-N). */
public final class FerrySort extends Sort implements FerryRel {
    public FerrySort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation, RexNode offset,
            RexNode fetch) {
        super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode newInput, RelCollation newCollation, RexNode offset, RexNode fetch) {
        return new FerrySort(getCluster(), traitSet, newInput, newCollation, offset, fetch);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    public static boolean supported(Sort sort) {
        return (sort.offset == null || sort.offset instanceof RexLiteral)
                && (sort.fetch == null || sort.fetch instanceof RexLiteral)
                && FerryRel.supported(sort.getRowType());
    }

    @Override
    public PlanNode toPlan() {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation c : collation.getFieldCollations()) {
            boolean desc = c.getDirection().isDescending();
            boolean nullsFirst = switch (c.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                default -> desc;
            };
            keys.add(new SortKey(c.getFieldIndex(), desc, nullsFirst));
        }
        long off = offset == null ? 0 : ((RexLiteral) offset).getValueAs(Long.class);
        long lim = fetch == null ? -1 : ((RexLiteral) fetch).getValueAs(Long.class);
        return new PlanNode.Sort(FerryRel.plan(getInput()), keys, off, lim);
    }
}
