package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The grand-total row of GROUPING SETS, ROLLUP and CUBE over an empty input. Calcite's row engine, which runs them,
 * gives no row at all then, where the empty grouping set {@code ()} must give one, as for a plain aggregate without
 * GROUP BY ({@code (NULL, 0)} for {@code g, COUNT(*)} under {@code ROLLUP(g)}, as in DuckDB and the standard). The
 * last planning step ({@link #PROGRAM}) puts a {@link Fill} above every such aggregate: when it returns no row (its
 * input was empty, or the () row would be there), the fill returns that one row instead — NULL keys, GROUPING()
 * with every bit set, 0 for COUNT, NULL for the other aggregates. A HAVING above still filters it.
 */
public final class GrandTotals {
    private GrandTotals() {
    }

    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) ->
            rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    RelNode visited = super.visit(other);
                    return visited instanceof EnumerableAggregate aggregate
                            && aggregate.getGroupSets().contains(ImmutableBitSet.of())
                            && aggregate.getGroupSets().size() > 1 ? new Fill(aggregate) : visited;
                }
            });

    /** {@code rows}, or {@code total} alone if there are none. */
    public static <T> Enumerable<T> orTotal(Enumerable<T> rows, T total) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<T> enumerator() {
                Enumerator<T> e = rows.enumerator();
                if (e.moveNext()) {
                    e.reset();
                    return e;
                }
                e.close();
                return Linq4j.singletonEnumerable(total).enumerator();
            }
        };
    }

    /** The grand-total row of {@code aggregate} over no rows, as the row engine represents its rows. */
    static Object[] totalRow(EnumerableAggregate aggregate) {
        List<Object> row = new ArrayList<>();
        for (int i = 0; i < aggregate.getGroupCount(); i++) {
            row.add(null);
        }
        for (AggregateCall c : aggregate.getAggCallList()) {
            SqlKind kind = c.getAggregation().getKind();
            row.add(switch (kind) {
                case COUNT -> 0L;
                case SUM0 -> zero(c);
                case GROUPING, GROUPING_ID -> (1L << c.getArgList().size()) - 1;
                case GROUP_ID -> 0L;
                default -> null;
            });
        }
        return row.toArray();
    }

    private static Object zero(AggregateCall c) {
        return switch (c.getType().getSqlTypeName()) {
            case INTEGER -> 0;
            case DOUBLE, FLOAT, REAL -> 0.0;
            case DECIMAL -> java.math.BigDecimal.ZERO;
            default -> 0L;
        };
    }

    /** A pass-through node that fills in the grand-total row. */
    static final class Fill extends SingleRel implements EnumerableRel {
        Fill(EnumerableAggregate input) {
            super(input.getCluster(), input.getTraitSet(), input);
        }

        private Fill(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
            super(cluster, traits, input);
        }

        @Override
        public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
            return new Fill(getCluster(), traitSet, sole(inputs));
        }

        @Override
        public String getRelTypeName() {
            return "GrandTotalFill";
        }

        @Override
        public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
            return planner.getCostFactory().makeTinyCost();
        }

        @Override
        public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
            // rows as arrays (or the value itself for one column), which the fill can build
            Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
            Object[] total = totalRow((EnumerableAggregate) getInput());
            Object represented = input.physType.getFormat() == JavaRowFormat.SCALAR ? total[0] : total;
            if (input.physType.getFormat() != JavaRowFormat.SCALAR
                    && input.physType.getFormat() != JavaRowFormat.ARRAY) {
                return input; // a format this fill cannot build rows in: leave the aggregate as it is
            }
            BlockBuilder block = new BlockBuilder();
            Expression rows = block.append("aggregated", input.block);
            Expression stashed = implementor.stash(represented, Object.class);
            block.add(Expressions.return_(null, Expressions.call(
                    Types.lookupMethod(GrandTotals.class, "orTotal", Enumerable.class, Object.class), rows,
                    stashed)));
            return implementor.result(input.physType, block.toBlock());
        }
    }
}
