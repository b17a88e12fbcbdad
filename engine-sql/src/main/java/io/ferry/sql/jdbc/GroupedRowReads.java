package io.ferry.sql.jdbc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.type.SqlTypeUtil;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.rel.BottomUp;

/**
 * A grouped SELECT's row read by a subquery nested in one of its subqueries, read by the group key it is.
 *
 * <p>A subquery of a grouped SELECT (in its select list or HAVING) that reads the outer query's columns is converted
 * with references typed by the outer FROM row ({@code $cor0.category} at the index of {@code category} among all FROM
 * columns); Calcite then binds the variable to the aggregate's row and rewrites the references by the group key each
 * column is, but its rewrite visits the subquery's own nodes only, not subqueries nested in them. So in {@code SELECT
 * i.category, (SELECT SUM(price) FROM sales x WHERE x.item IN (SELECT id FROM item j WHERE j.category = i.category))
 * … GROUP BY i.category} the inner reference kept the FROM row's index, and read the aggregate's row there: another
 * column (a wrong answer, NULL for every group) or none (XX000, index out of bounds). Here every reference whose type
 * is not the row its variable is bound to is mapped through the aggregate to the key it reads, in nested subqueries
 * too.
 */
final class GroupedRowReads {
    private GroupedRowReads() {
    }

    /** {@code rel} with every reference to a grouped row by its FROM row's columns read by its group keys. */
    static RelNode repaired(RelNode rel, RexBuilder rex) {
        // each variable's aggregate: the input of the node that binds it, below a HAVING clause's filter where the
        // subquery is in the select list over one
        Map<CorrelationId, RelNode> bound = new HashMap<>();
        BottomUp.rewriteNested(rel, node -> {
            for (CorrelationId id : node.getVariablesSet()) {
                RelNode row = node.getInput(0);
                while (row instanceof Filter having) {
                    row = having.getInput();
                }
                bound.put(id, row);
            }
            return node;
        });
        if (bound.isEmpty()) {
            return rel;
        }
        RexShuttle reads = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && bound.get(v.id) instanceof Aggregate a
                        && !v.getType().equals(a.getRowType())) {
                    int key = groupKey(a, v.getType(), access.getField().getIndex());
                    if (key < 0 || !SqlTypeUtil.equalSansNullability(rex.getTypeFactory(),
                            a.getRowType().getFieldList().get(key).getType(), access.getType())) {
                        throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "A subquery reads '"
                                + access.getField().getName() + "' of a grouped SELECT in a way Ferry cannot map to"
                                + " its group keys; name the column in the GROUP BY as the subquery reads it");
                    }
                    return rex.makeFieldAccess(rex.makeCorrel(a.getRowType(), v.id), key);
                }
                return super.visitFieldAccess(access);
            }
        };
        return BottomUp.rewriteNested(rel, node -> node.accept(reads));
    }

    /**
     * The aggregate's output column that is FROM-row column {@code column} (of {@code fromRow}), or -1: a group key
     * read through the projection of the aggregate's input, or, with none, directly.
     */
    private static int groupKey(Aggregate aggregate, RelDataType fromRow, int column) {
        RelNode input = aggregate.getInput();
        List<Integer> keys = aggregate.getGroupSet().asList();
        for (int k = 0; k < keys.size(); k++) {
            int key = keys.get(k);
            if (input instanceof Project p && p.getInput().getRowType().getFieldCount() == fromRow.getFieldCount()) {
                if (p.getProjects().get(key) instanceof RexInputRef ref && ref.getIndex() == column) {
                    return k;
                }
            } else if (input.getRowType().getFieldCount() == fromRow.getFieldCount() && key == column) {
                return k;
            }
        }
        return -1;
    }
}
