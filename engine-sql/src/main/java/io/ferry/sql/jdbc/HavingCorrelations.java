package io.ferry.sql.jdbc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql2rel.DeduplicateCorrelateVariables;

/**
 * The filter of a HAVING clause binding every variable its subqueries read the grouped row by, not only the first's.
 *
 * <p>Each reference a subquery makes to the outer row gets its own correlation variable. For WHERE, Calcite's
 * conversion gathers all of a condition's variables of the same scope into one; for HAVING it binds the variable of
 * the condition's first subquery only. A second subquery ({@code HAVING (SELECT …) = 2 OR (SELECT …) = 3}), or an IN
 * list over one ({@code HAVING (SELECT … WHERE b.k = a.k) IN (2, 3)}, which becomes one comparison per value) then
 * left a variable no node binds, and the conversion failed with a ClassCastException (XX000; fuzzer, seed 2707
 * query 2005). Here the variables read in the condition that have the bound variable's row type (the grouped SELECT's
 * FROM row) become that variable, as Calcite does for WHERE; where the first subquery reads no outer row and Calcite
 * binds none, the variable of the FROM row found below the filter is bound. A variable of an outer query's row is
 * left free; one
 * whose FROM row has the very same columns and types would be taken for this one, which needs a HAVING with two
 * subqueries inside a subquery over the same tables.
 */
final class HavingCorrelations implements RelFactories.FilterFactory {
    static final HavingCorrelations INSTANCE = new HavingCorrelations();

    private HavingCorrelations() {
    }

    @Override
    public RelNode createFilter(RelNode input, RexNode condition, Set<CorrelationId> variablesSet) {
        if (variablesSet.size() > 1 || RexUtil.SubQueryFinder.find(List.of(condition)) == null) {
            return RelFactories.DEFAULT_FILTER_FACTORY.createFilter(input, condition, variablesSet);
        }
        Map<CorrelationId, RelDataType> types = variableTypes(condition);
        CorrelationId bound = variablesSet.isEmpty() ? ownRow(input, types) : variablesSet.iterator().next();
        if (bound == null) {
            return RelFactories.DEFAULT_FILTER_FACTORY.createFilter(input, condition, variablesSet);
        }
        return RelFactories.DEFAULT_FILTER_FACTORY.createFilter(input, merged(input, condition, bound, types),
                Set.of(bound));
    }

    /**
     * Where the condition's first subquery reads no outer row, Calcite binds nothing ({@code HAVING (SELECT …) >
     * (SELECT … WHERE 0 = a.k)}, fuzzer seed 2712 query 4659): the first variable whose row type is that of the
     * grouped SELECT's FROM row, found below the aggregate through projections, filters and aggregates; null where
     * none is.
     */
    private static CorrelationId ownRow(RelNode input, Map<CorrelationId, RelDataType> types) {
        for (RelNode rel = input; rel != null; rel = rel.getInputs().size() == 1 ? rel.getInput(0) : null) {
            RelDataType row = rel.getRowType();
            for (Map.Entry<CorrelationId, RelDataType> e : types.entrySet()) {
                if (e.getValue().equals(row)) {
                    return e.getKey();
                }
            }
            if (!(rel instanceof Project || rel instanceof Filter || rel instanceof Aggregate)) {
                return null;
            }
        }
        return null;
    }

    private static RexNode merged(RelNode input, RexNode condition, CorrelationId bound,
            Map<CorrelationId, RelDataType> types) {
        RelDataType row = types.get(bound);
        List<CorrelationId> same = new ArrayList<>();
        types.forEach((id, type) -> {
            if (!id.equals(bound) && type.equals(row)) {
                same.add(id);
            }
        });
        if (same.isEmpty()) {
            return condition;
        }
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery operands = (RexSubQuery) super.visitSubQuery(subQuery);
                return operands.clone(DeduplicateCorrelateVariables.go(input.getCluster().getRexBuilder(), bound,
                        same, operands.rel));
            }
        });
    }

    /**
     * The row type of every correlation variable read directly in the condition's subqueries (their operands too),
     * not in subqueries nested within those: a variable read only two levels down was left as Calcite bound it (fuzzer,
     * seed 2713 query 5608 answered that way, and failed once such a variable was bound here).
     */
    private static Map<CorrelationId, RelDataType> variableTypes(RexNode condition) {
        Map<CorrelationId, RelDataType> types = new HashMap<>();
        RexShuttle direct = new RexShuttle() {
            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                types.putIfAbsent(variable.id, variable.getType());
                return variable;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery nested) {
                return nested;
            }
        };
        condition.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                subQuery.getOperands().forEach(o -> o.accept(direct));
                subQuery.rel.accept(new RelHomogeneousShuttle() {
                    @Override
                    public RelNode visit(RelNode other) {
                        other.accept(direct);
                        return super.visit(other);
                    }
                });
                return subQuery;
            }
        });
        return types;
    }
}
