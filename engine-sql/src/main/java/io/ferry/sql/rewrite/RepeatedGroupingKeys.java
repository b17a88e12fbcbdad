package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Litmus;

/**
 * A ROLLUP or CUBE that names one key twice written out as the GROUPING SETS it stands for, before validation.
 * {@code ROLLUP(k, k)} is {@code GROUPING SETS ((k, k), (k), ())}: the groups of k twice, as in PostgreSQL and
 * DuckDB, since each grouping set contributes its own rows. Calcite's validator collects a ROLLUP's or CUBE's sets
 * in a set of column bitmaps, which keeps one {@code {k}}, and answered the groups of k once (fuzzer). Its
 * conversion of an explicit GROUPING SETS keeps repeated sets, so that is what the statement becomes. A ROLLUP or
 * CUBE of distinct keys stays as written.
 */
public final class RepeatedGroupingKeys {
    private RepeatedGroupingKeys() {
    }

    /** Replaces, in {@code select}'s GROUP BY, each ROLLUP and CUBE with a repeated key by its GROUPING SETS. */
    public static void expand(SqlSelect select) {
        SqlNodeList group = select.getGroup();
        if (group == null) {
            return;
        }
        for (int i = 0; i < group.size(); i++) {
            if (group.get(i) instanceof SqlCall call && (call.getKind() == SqlKind.ROLLUP
                    || call.getKind() == SqlKind.CUBE) && repeats(call)) {
                group.set(i, groupingSets(call));
            }
        }
    }

    /** Whether an expression appears in two of the call's elements, or twice in one. */
    private static boolean repeats(SqlCall call) {
        List<SqlNode> keys = new ArrayList<>();
        for (SqlNode element : call.getOperandList()) {
            keys.addAll(keysOf(element));
        }
        for (int i = 0; i < keys.size(); i++) {
            for (int j = i + 1; j < keys.size(); j++) {
                if (keys.get(i).equalsDeep(keys.get(j), Litmus.IGNORE)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A ROLLUP or CUBE element: an expression, or a parenthesized list of them ({@code (a, b)}, a ROW). */
    private static List<SqlNode> keysOf(SqlNode element) {
        if (element instanceof SqlCall row && row.getKind() == SqlKind.ROW) {
            return row.getOperandList();
        }
        if (element instanceof SqlNodeList list) {
            return list.getList();
        }
        return List.of(element);
    }

    private static SqlNode groupingSets(SqlCall call) {
        List<SqlNode> elements = call.getOperandList();
        int n = elements.size();
        List<SqlNode> sets = new ArrayList<>();
        if (call.getKind() == SqlKind.ROLLUP) {
            // (e1, ..., en), (e1, ..., en-1), ..., ()
            for (int length = n; length >= 0; length--) {
                sets.add(set(elements, (1 << length) - 1, call.getParserPosition()));
            }
        } else {
            // every subset of the elements, the whole first
            for (int mask = (1 << n) - 1; mask >= 0; mask--) {
                sets.add(set(elements, mask, call.getParserPosition()));
            }
        }
        return SqlStdOperatorTable.GROUPING_SETS.createCall(call.getParserPosition(), sets);
    }

    /** The grouping set of the elements whose bits are in {@code mask}: one key, a ROW of several, or (). */
    private static SqlNode set(List<SqlNode> elements, int mask, SqlParserPos pos) {
        List<SqlNode> keys = new ArrayList<>();
        for (int i = 0; i < elements.size(); i++) {
            if ((mask & (1 << i)) != 0) {
                keys.addAll(keysOf(elements.get(i)));
            }
        }
        if (keys.isEmpty()) {
            return new SqlNodeList(pos);
        }
        return keys.size() == 1 ? keys.get(0) : SqlStdOperatorTable.ROW.createCall(pos, keys);
    }
}
