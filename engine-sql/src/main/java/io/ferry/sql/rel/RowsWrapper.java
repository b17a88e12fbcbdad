package io.ferry.sql.rel;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.BiFunction;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * A row-engine node that passes its input's rows through a static method {@code (Enumerable rows, extra)}, put into
 * a physical plan after planning ({@link CancelChecks}, {@link GrandTotals}); EXPLAIN shows it by {@code name}.
 */
final class RowsWrapper extends SingleRel implements EnumerableRel {
    private final String name;
    private final Prefer inputFormat;
    private final Method wrap;
    private final BiFunction<EnumerableRelImplementor, Result, Expression> extra;

    /** {@code inputFormat}: how the input must give its rows, or null for as the parent prefers. */
    RowsWrapper(RelNode input, String name, Prefer inputFormat, Method wrap,
            BiFunction<EnumerableRelImplementor, Result, Expression> extra) {
        this(input.getTraitSet(), input, name, inputFormat, wrap, extra);
    }

    private RowsWrapper(RelTraitSet traits, RelNode input, String name, Prefer inputFormat, Method wrap,
            BiFunction<EnumerableRelImplementor, Result, Expression> extra) {
        super(input.getCluster(), traits, input);
        this.name = name;
        this.inputFormat = inputFormat;
        this.wrap = wrap;
        this.extra = extra;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new RowsWrapper(traitSet, sole(inputs), name, inputFormat, wrap, extra);
    }

    @Override
    public String getRelTypeName() {
        return name;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeTinyCost();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(),
                inputFormat == null ? pref : inputFormat);
        BlockBuilder block = new BlockBuilder();
        Expression rows = block.append("wrapped", input.block);
        block.add(Expressions.return_(null, Expressions.call(wrap, rows, extra.apply(implementor, input))));
        return implementor.result(input.physType, block.toBlock());
    }
}
