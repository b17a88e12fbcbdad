package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.sql.schema.TableWriter;
import io.ferry.core.types.Column;
import io.ferry.core.types.TableSchema;

/**
 * Literal rows (VALUES, and the source of INSERT ... VALUES). Each literal is converted to its column's type
 * here, whatever type the parser gave it (a 4.5 written into a DOUBLE column, a 1 into a DECIMAL).
 */
public final class FerryValues extends Values implements FerryRel {
    public FerryValues(RelOptCluster cluster, RelDataType rowType, List<? extends List<RexLiteral>> tuples,
            RelTraitSet traits) {
        super(cluster, rowType, com.google.common.collect.ImmutableList.copyOf(
                tuples.stream().map(com.google.common.collect.ImmutableList::copyOf).toList()), traits);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerryValues(getCluster(), getRowType(), tuples, traitSet);
    }

    @Override
    public PlanNode toPlan() {
        List<FerryType> types = FerryRel.types(getRowType());
        java.util.List<Column> cols = new java.util.ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            cols.add(new Column("c" + i, types.get(i), true));
        }
        TableWriter.Rows builder = new TableWriter.Rows(new TableSchema(cols));
        java.util.List<Batch> batches = new java.util.ArrayList<>();
        for (List<RexLiteral> tuple : tuples) {
            Object[] row = new Object[types.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = value(tuple.get(c), types.get(c));
            }
            builder.add(row);
            if (builder.isFull()) {
                batches.add(builder.build());
            }
        }
        batches.add(builder.build());
        return new PlanNode.Values(types, io.ferry.core.vector.BatchConcat.concat(batches, types));
    }

    /** The literal as the Java value {@link TableWriter.Rows} takes for the column type. */
    private static Object value(RexLiteral lit, FerryType type) {
        if (lit.isNull()) {
            return null;
        }
        return switch (type.kind()) {
            case BOOLEAN -> lit.getValueAs(Boolean.class);
            case INTEGER, BIGINT -> lit.getValueAs(BigDecimal.class).setScale(0, RoundingMode.HALF_UP).longValueExact();
            case DECIMAL -> lit.getValueAs(BigDecimal.class);
            case DOUBLE -> lit.getValueAs(Double.class);
            case DATE -> (long) lit.getValueAs(Integer.class);
            case TIMESTAMP -> lit.getValueAs(Long.class);
            case VARCHAR -> lit.getValueAs(String.class);
        };
    }
}
