package io.ferry.sql.schema;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import io.ferry.core.storage.ViewDefinition;
import io.ferry.core.types.Column;
import io.ferry.sql.TypeMapping;

/**
 * A view as Calcite sees it: the row type found when it was created, and its query expanded in place by the
 * statement that uses it, with the statement's own parser, validator and rules.
 */
public final class FerryView extends AbstractTable implements TranslatableTable {
    private final ViewDefinition view;

    public FerryView(ViewDefinition view) {
        this.view = view;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        List<RelDataType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Column c : view.schema().columns()) {
            names.add(c.name());
            types.add(TypeMapping.toCalcite(factory, c.type(), c.nullable()));
        }
        return factory.createStructType(types, names);
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
        RelDataType rowType = table.getRowType();
        RelNode rel = context.expandView(rowType, view.sql(), List.of(FerrySchema.NAME),
                List.of(FerrySchema.NAME, view.name())).rel;
        // the tables under the view may have changed since it was created: give its declared columns regardless
        return RelOptUtil.createCastRel(rel, rowType, true);
    }

    @Override
    public Schema.TableType getJdbcTableType() {
        return Schema.TableType.VIEW;
    }
}
