package io.ferry.bench.tpcds;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * What a query promises about the order of its result: the result columns its outermost ORDER BY sorts by, and its
 * LIMIT. Read from the text with Calcite's parser (a parse only, nothing of Ferry's planning), so that the
 * comparison knows which rows may legitimately come in another order or, at a LIMIT, be other rows.
 *
 * @param ordered    the outermost query has an ORDER BY
 * @param keyColumns the result columns (0-based) the ORDER BY keys are, or null when a key is not a result column
 *                   this can name (an expression not in the select list, or a {@code *})
 * @param limit      the outermost LIMIT, or -1
 */
public record ResultOrder(boolean ordered, List<Integer> keyColumns, long limit) {
    public static final ResultOrder UNORDERED = new ResultOrder(false, List.of(), -1);

    public static ResultOrder of(String sql) {
        SqlNode node;
        try {
            node = SqlParser.create(sql, SqlParser.config()
                    .withConformance(SqlConformanceEnum.LENIENT)
                    .withQuoting(Quoting.DOUBLE_QUOTE)
                    .withUnquotedCasing(Casing.TO_LOWER)
                    .withCaseSensitive(false)).parseQuery();
        } catch (SqlParseException e) {
            // the engines will say what is wrong with the text; compare as if unordered
            return UNORDERED;
        }
        while (node instanceof SqlWith with) {
            node = with.body;
        }
        if (!(node instanceof SqlOrderBy orderBy)) {
            return UNORDERED;
        }
        long limit = orderBy.fetch instanceof SqlNumericLiteral n ? n.longValue(true) : -1;
        if (orderBy.orderList.isEmpty()) {
            return new ResultOrder(false, List.of(), limit);
        }
        SqlNodeList select = selectList(orderBy.query);
        List<Integer> keys = new ArrayList<>();
        for (SqlNode item : orderBy.orderList) {
            int column = select == null ? -1 : column(stripDirection(item), select);
            if (column < 0) {
                return new ResultOrder(true, null, limit);
            }
            keys.add(column);
        }
        return new ResultOrder(true, List.copyOf(keys), limit);
    }

    /** The select list whose columns the result has: of the first branch of a set operation. */
    private static SqlNodeList selectList(SqlNode query) {
        SqlNode node = query;
        while (true) {
            if (node instanceof SqlSelect s) {
                return s.getSelectList();
            } else if (node instanceof SqlWith w) {
                node = w.body;
            } else if (node instanceof SqlOrderBy o) {
                node = o.query;
            } else if (node instanceof SqlCall c && c.getKind().belongsTo(SqlKind.SET_QUERY)) {
                node = c.operand(0);
            } else {
                return null;
            }
        }
    }

    private static SqlNode stripDirection(SqlNode item) {
        SqlNode node = item;
        while (node instanceof SqlBasicCall c && (c.getKind() == SqlKind.DESCENDING
                || c.getKind() == SqlKind.NULLS_FIRST || c.getKind() == SqlKind.NULLS_LAST)) {
            node = c.operand(0);
        }
        return node;
    }

    private static int column(SqlNode key, SqlNodeList select) {
        for (SqlNode item : select) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                return -1;
            }
        }
        if (key instanceof SqlNumericLiteral n) {
            int position = n.intValue(true) - 1;
            return position < select.size() ? position : -1;
        }
        if (key instanceof SqlIdentifier id) {
            String name = lastName(id);
            for (int i = 0; i < select.size(); i++) {
                if (select.get(i) instanceof SqlCall as && as.getKind() == SqlKind.AS
                        && name.equals(lastName((SqlIdentifier) as.operand(1)))) {
                    return i;
                }
            }
            for (int i = 0; i < select.size(); i++) {
                if (select.get(i) instanceof SqlIdentifier column && name.equals(lastName(column))) {
                    return i;
                }
            }
        }
        String expression = key.toString();
        for (int i = 0; i < select.size(); i++) {
            SqlNode item = select.get(i);
            SqlNode value = item instanceof SqlCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
            if (value.toString().equals(expression)) {
                return i;
            }
        }
        return -1;
    }

    private static String lastName(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT);
    }
}
