package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The grand-total row of GROUPING SETS, ROLLUP and CUBE over an empty input, where they run in Calcite's row engine
 * (their input runs there, or a call Ferry's aggregate does not take: docs/sql.md, "Aggregates"; Ferry's own
 * aggregate gives the row itself). Calcite's row engine gives no row at all then, where the empty grouping set
 * {@code ()} must give one, as for a plain aggregate without GROUP BY ({@code (NULL, 0)} for {@code g, COUNT(*)}
 * under {@code ROLLUP(g)}, as in DuckDB and the standard). The last planning step ({@link #PROGRAM}) puts a fill
 * (GrandTotalFill in EXPLAIN) above every such aggregate: when it returns no row (its input was empty, or the ()
 * row would be there), the fill returns that one row instead — NULL keys, GROUPING() with every bit set, 0 for
 * COUNT, NULL for the other aggregates. A HAVING above still filters it.
 */
public final class GrandTotals {
    private GrandTotals() {
    }

    public static final Program PROGRAM = BottomUp.program(visited -> {
        return visited instanceof EnumerableAggregate aggregate
                && aggregate.getGroupSets().contains(ImmutableBitSet.of())
                && aggregate.getGroupSets().size() > 1 ? fill(aggregate) : visited;
    });

    /** The aggregate's rows, as arrays (or the value itself for one column), which the fill can build. */
    private static RelNode fill(EnumerableAggregate aggregate) {
        Object[] total = totalRow(aggregate);
        return new RowsWrapper(aggregate, "GrandTotalFill", EnumerableRel.Prefer.ARRAY,
                Types.lookupMethod(GrandTotals.class, "orTotal", Enumerable.class, Object.class),
                (implementor, rows) -> implementor.stash(
                        rows.physType.getFormat() == JavaRowFormat.SCALAR ? total[0] : total, Object.class));
    }

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
}
