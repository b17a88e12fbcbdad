package io.ferry.sql.rel;

import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;

import io.ferry.sql.schema.FerryTable;
import io.ferry.sql.schema.TableInserter;

/** INSERT into a Ferry table: the source rows are staged as blocks and published all at once. */
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
        TableInserter inserter = new TableInserter(getTable().unwrap(FerryTable.class).table(),
                input.physType.getFormat() == JavaRowFormat.SCALAR);
        Expression target = implementor.stash(inserter, TableInserter.class);
        block.add(Expressions.return_(null, Expressions.call(target, org.apache.calcite.linq4j.tree.Types.lookupMethod(TableInserter.class, "insert", org.apache.calcite.linq4j.Enumerable.class), rows)));
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
                pref.prefer(JavaRowFormat.SCALAR));
        return implementor.result(physType, block.toBlock());
    }
}
