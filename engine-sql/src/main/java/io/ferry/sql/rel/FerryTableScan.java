package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import io.ferry.core.exec.PlanNode;
import io.ferry.sql.schema.FerryTable;

/** Reads a Ferry table's blocks. Column pruning happens when the plan is built. */
public final class FerryTableScan extends TableScan implements FerryRel {
    private final FerryTable ferryTable;

    public FerryTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, FerryTable ferryTable) {
        super(cluster, traits, List.of(), table);
        this.ferryTable = ferryTable;
    }

    public FerryTable ferryTable() {
        return ferryTable;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerryTableScan(getCluster(), traitSet, table, ferryTable);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        int n = ferryTable.table().schema().size();
        int[] columns = new int[n];
        for (int i = 0; i < n; i++) {
            columns[i] = i;
        }
        return new PlanNode.Scan(ferryTable.table(), columns, null);
    }
}
