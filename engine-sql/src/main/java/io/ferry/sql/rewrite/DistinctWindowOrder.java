package io.ferry.sql.rewrite;

import java.util.HashSet;
import java.util.Set;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Litmus;

/**
 * {@code SELECT DISTINCT …, SUM(d) OVER (…) … ORDER BY 2} written {@code SELECT * FROM (SELECT DISTINCT …) ORDER BY 2}
 * before validation, every ORDER BY item (a position, an item's alias, or an item's own expression) named by its
 * position. Calcite's validator checks such an ORDER BY as if it were a GROUP BY of the select list, and it visits a
 * windowed call's arguments before it looks the whole call up: {@code d} is not a select item, so a valid statement
 * was refused with 42000 "Expression 'd' is not in the select clause". PostgreSQL and DuckDB answer it; ordering the
 * distinct rows outside is what the statement means. Statements whose ORDER BY names something else are left as they
 * are, for the validator to judge.
 */
public final class DistinctWindowOrder {
    private DistinctWindowOrder() {
    }

    /** {@code node}, with its ORDER BY moved out of the DISTINCT as above. */
    public static SqlNode rewrite(SqlNode node) {
        if (!(node instanceof SqlOrderBy orderBy) || !(orderBy.query instanceof SqlSelect select)
                || !select.isDistinct() || select.getOrderList() != null || !hasWindow(select.getSelectList())
                || select.getSelectList().stream().anyMatch(i -> i instanceof SqlIdentifier id && id.isStar())) {
            return node;
        }
        SqlNodeList positions = new SqlNodeList(orderBy.orderList.getParserPosition());
        for (SqlNode item : orderBy.orderList) {
            SqlNode position = byPosition(item, select.getSelectList());
            if (position == null) {
                return node;
            }
            positions.add(position);
        }
        // each item gets a name of its own inside, and its own name again outside: two items of one name
        // (SELECT DISTINCT a.f, a.f, …) made the outer query's columns ambiguous (42702, fuzzer seed 154 q1446)
        SqlParserPos pos = orderBy.getParserPosition();
        SqlNodeList selectList = select.getSelectList();
        SqlNodeList innerList = new SqlNodeList(pos);
        SqlNodeList outerList = new SqlNodeList(pos);
        // an item without a name is named as Calcite's validator names it: EXPR$ and the count of names so far
        Set<String> names = new HashSet<>();
        for (int i = 0; i < selectList.size(); i++) {
            SqlNode item = selectList.get(i);
            SqlNode expression = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            String inner = "ferry$item" + i;
            innerList.add(SqlStdOperatorTable.AS.createCall(pos, expression, new SqlIdentifier(inner, pos)));
            String name = SqlValidatorUtil.alias(item, names.size());
            names.add(name);
            outerList.add(SqlStdOperatorTable.AS.createCall(pos, new SqlIdentifier(inner, pos),
                    new SqlIdentifier(name, pos)));
        }
        // the statement's own SELECT becomes the outer query (Calcite reads the statement's columns from the query
        // of its ORDER BY), and a copy of it the inner DISTINCT; Calcite then puts the ORDER BY on the outer one
        SqlSelect distinct = (SqlSelect) select.clone(pos);
        distinct.setSelectList(innerList);
        select.setOperand(0, new SqlNodeList(pos));
        select.setSelectList(outerList);
        select.setFrom(distinct);
        select.setWhere(null);
        select.setGroupBy(null);
        select.setHaving(null);
        select.setOperand(6, new SqlNodeList(pos));
        select.setQualify(null);
        for (int i = 0; i < positions.size(); i++) {
            orderBy.orderList.set(i, positions.get(i));
        }
        return orderBy;
    }

    /** An ORDER BY item with its expression replaced by the position of the select item it names, or null. */
    private static SqlNode byPosition(SqlNode item, SqlNodeList selectList) {
        if (item.getKind() == SqlKind.DESCENDING || item.getKind() == SqlKind.NULLS_FIRST
                || item.getKind() == SqlKind.NULLS_LAST) {
            SqlBasicCall call = (SqlBasicCall) item;
            SqlNode inner = byPosition(call.operand(0), selectList);
            return inner == null ? null : call.getOperator().createCall(call.getParserPosition(), inner);
        }
        if (item instanceof SqlNumericLiteral n && n.isInteger()) {
            return item;
        }
        for (int i = 0; i < selectList.size(); i++) {
            SqlNode selected = selectList.get(i);
            String alias = SqlValidatorUtil.alias(selected);
            boolean named = item instanceof SqlIdentifier id && id.isSimple() && alias != null
                    && alias.equalsIgnoreCase(id.getSimple());
            SqlNode expression = selected.getKind() == SqlKind.AS ? ((SqlCall) selected).operand(0) : selected;
            if (named || expression.equalsDeep(item, Litmus.IGNORE)) {
                return SqlLiteral.createExactNumeric(Integer.toString(i + 1), item.getParserPosition());
            }
        }
        return null;
    }

    private static boolean hasWindow(SqlNodeList selectList) {
        return SqlUtil.containsCall(selectList, call -> call.getKind() == SqlKind.OVER);
    }
}
