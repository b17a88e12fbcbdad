package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;

import io.ferry.sql.schema.FerryTable;
import io.ferry.sql.schema.TableWriter;

/**
 * INSERT, DELETE and UPDATE of a Ferry table ({@link TableWriter}): the input's rows are staged as blocks and
 * published all at once. For DELETE and UPDATE the input is the table's next contents ({@code DmlRewrite}).
 */
public final class FerryTableModify extends TableModify implements EnumerableRel {
    public FerryTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
            Prepare.CatalogReader catalogReader, RelNode input, Operation operation, List<String> updateColumnList,
            List<RexNode> sourceExpressionList, boolean flattened) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList,
                flattened);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerryTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), sole(inputs),
                getOperation(), getUpdateColumnList(), getSourceExpressionList(), isFlattened());
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
        BlockBuilder block = new BlockBuilder();
        Expression rows = block.append("rows", input.block);
        TableWriter writer = new TableWriter(getTable().unwrap(FerryTable.class).table(),
                input.physType.getFormat() == JavaRowFormat.SCALAR);
        Expression target = implementor.stash(writer, TableWriter.class);
        String method = switch (getOperation()) {
            case INSERT -> "insert";
            case DELETE -> "delete";
            case UPDATE -> "update";
            default -> throw new IllegalStateException(getOperation() + " is not planned as a FerryTableModify");
        };
        block.add(Expressions.return_(null, Expressions.call(target,
                Types.lookupMethod(TableWriter.class, method, Enumerable.class), rows)));
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
                pref.prefer(JavaRowFormat.SCALAR));
        return implementor.result(physType, block.toBlock());
    }
}
