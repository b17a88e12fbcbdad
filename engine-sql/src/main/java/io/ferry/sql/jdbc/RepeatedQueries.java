package io.ferry.sql.jdbc;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives every occurrence of a subquery in a statement a syntax tree of its own. The validator rewrites
 * {@code NULLIF(x, y)} into {@code CASE WHEN x = y THEN NULL ELSE x END} and {@code COALESCE(x, y)} into
 * {@code CASE WHEN x IS NOT NULL THEN x ELSE y END}, repeating x as a shallow copy (a new top node over the same
 * operands). When x is a subquery holding another subquery, both copies share that inner one; the validator keeps
 * one scope per node, so the inner subquery resolves its correlated names in the second copy's scope only, the first
 * copy's filter is converted without declaring its correlation, and decorrelation failed ({@code
 * cm.mapCorToCorRel.get($cor1)}) or planned a CAST over the wrong column. Calcite's own attempt (CALCITE-6978, not
 * rewriting calls that contain subqueries) was reverted. Each copy made here is validated and converted as if the
 * statement had spelled the subquery out twice.
 */
final class RepeatedQueries {
    private RepeatedQueries() {
    }

    /** {@code node}, with each later occurrence of a call or list that holds a query replaced by a deep copy. */
    static SqlNode separate(SqlNode node) {
        return separate(node, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static SqlNode separate(SqlNode node, Set<SqlNode> seen) {
        if (!(node instanceof SqlCall) && !(node instanceof SqlNodeList)) {
            return node;
        }
        if (!seen.add(node)) {
            return holdsQuery(node) ? node.accept(DEEP_COPY) : node;
        }
        List<SqlNode> children = node instanceof SqlCall call ? call.getOperandList() : (SqlNodeList) node;
        for (int i = 0; i < children.size(); i++) {
            SqlNode child = children.get(i);
            SqlNode separated = child == null ? null : separate(child, seen);
            if (separated != child && node instanceof SqlCall call) {
                call.setOperand(i, separated);
            } else if (separated != child) {
                ((SqlNodeList) node).set(i, separated);
            }
        }
        return node;
    }

    private static boolean holdsQuery(SqlNode node) {
        if (node instanceof SqlSelect || node != null && node.getKind().belongsTo(SqlKind.QUERY)) {
            return true;
        }
        if (node instanceof SqlCall call) {
            return call.getOperandList().stream().anyMatch(RepeatedQueries::holdsQuery);
        }
        return node instanceof SqlNodeList list && list.stream().anyMatch(RepeatedQueries::holdsQuery);
    }

    /** Copies every call and list, changed or not (Calcite's shuttle copies only what its visit changed). */
    private static final SqlShuttle DEEP_COPY = new SqlShuttle() {
        @Override
        public SqlNode visit(SqlCall call) {
            CallCopyingArgHandler copier = new CallCopyingArgHandler(call, true);
            call.getOperator().acceptCall(this, call, false, copier);
            return copier.result();
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            return SqlNode.clone(id);
        }

        @Override
        public SqlNode visit(SqlNodeList list) {
            SqlNodeList copy = new SqlNodeList(list.getParserPosition());
            for (SqlNode element : list) {
                copy.add(element == null ? null : element.accept(this));
            }
            return copy;
        }
    };
}
