package io.ferry.sql.schema;

import java.util.List;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import io.ferry.core.storage.Table;
import io.ferry.core.types.Column;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.rel.FerryRel;
import io.ferry.sql.rel.FerryTableScan;

/** A Ferry table as Calcite sees it: its row type, its row count, and a scan in the Ferry convention. */
public final class FerryTable extends AbstractTable implements TranslatableTable {
    private final FerrySchema schema;
    private final Table table;

    public FerryTable(FerrySchema schema, Table table) {
        this.schema = schema;
        this.table = table;
    }

    public FerryEngine engine() {
        return schema.engine();
    }

    /** The schema of the connection that sees this table, with its settings. */
    public FerrySchema schema() {
        return schema;
    }

    public Table table() {
        return table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (Column c : table.schema().columns()) {
            b.add(c.name(), TypeMapping.toCalcite(typeFactory, c.type(), c.nullable()));
        }
        return b.build();
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of(Math.max(1, table.rowCount()), List.of());
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        return new FerryTableScan(context.getCluster(), context.getCluster().traitSetOf(FerryRel.CONVENTION),
                relOptTable, this);
    }
}
