package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs a query on Ferry and on DuckDB and compares the answers: same number of rows, and row by row equal
 * values (numbers within a relative 1e-9, so DOUBLE sums that add in another order still match). Unordered
 * queries are compared as sorted multisets.
 */
public final class ResultComparison {
    private ResultComparison() {
    }

    /** The text of {@code EXPLAIN PLAN FOR sql}, each row ending in a newline. */
    public static String plan(Connection c, String sql) throws SQLException {
        StringBuilder out = new StringBuilder();
        for (List<Object> row : rows(c, "EXPLAIN PLAN FOR " + sql)) {
            out.append(row.get(0)).append('\n');
        }
        return out.toString();
    }

    /** How many times {@code text} occurs in the plan of {@code sql}. */
    public static int planCount(Connection c, String sql, String text) throws SQLException {
        String plan = plan(c, sql);
        int count = 0;
        for (int at = plan.indexOf(text); at >= 0; at = plan.indexOf(text, at + text.length())) {
            count++;
        }
        return count;
    }

    public static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rows(rs);
        }
    }

    /** Every row of {@code rs}, each value in a form both engines' answers compare in. */
    public static List<List<Object>> rows(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<List<Object>> out = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                row.add(value(rs, md, i));
            }
            out.add(row);
        }
        return out;
    }

    private static Object value(ResultSet rs, ResultSetMetaData md, int i) throws SQLException {
        Object o = rs.getObject(i);
        if (o == null) {
            return null;
        }
        int type = md.getColumnType(i);
        // each driver formats a TIMESTAMP's text its own way ("…:00" or "…:00.0"): compare the values
        if (type == Types.DATE) {
            return rs.getDate(i).toLocalDate().toString();
        }
        if (type == Types.TIMESTAMP) {
            return rs.getTimestamp(i).toLocalDateTime().toString();
        }
        if (o instanceof Double d && !Double.isFinite(d)) {
            return d.toString();
        }
        if (o instanceof Number || type == Types.DECIMAL || type == Types.NUMERIC) {
            return new BigDecimal(o.toString());
        }
        if (o instanceof Boolean) {
            return o;
        }
        return o.toString();
    }

    public static void assertSameResult(Connection ferry, Connection duck, String sql, boolean ordered)
            throws SQLException {
        assertSameResult(ferry, sql, duck, sql, ordered);
    }

    /** Ferry's answer to {@code ferrySql} against DuckDB's to {@code duckSql} (for what DuckDB spells otherwise). */
    public static void assertSameResult(Connection ferry, String ferrySql, Connection duck, String duckSql,
            boolean ordered) throws SQLException {
        String sql = ferrySql;
        List<List<Object>> expected;
        try {
            expected = rows(duck, duckSql);
        } catch (SQLException e) {
            throw new AssertionError("DuckDB rejected the test query (fix the test): " + duckSql, e);
        }
        assertSameRows(sql, expected, rows(ferry, ferrySql), ordered);
    }

    /** Ferry's rows {@code actual} against DuckDB's {@code expected} for {@code sql}. */
    public static void assertSameRows(String sql, List<List<Object>> expected, List<List<Object>> actual,
            boolean ordered) {
        if (!ordered) {
            expected.sort(ROW_ORDER);
            actual.sort(ROW_ORDER);
        }
        if (expected.size() != actual.size()) {
            fail(sql + "\nrow count: DuckDB " + expected.size() + ", Ferry " + actual.size() + "\nDuckDB: "
                    + head(expected) + "\nFerry:  " + head(actual));
        }
        for (int r = 0; r < expected.size(); r++) {
            List<Object> e = expected.get(r);
            List<Object> a = actual.get(r);
            if (e.size() != a.size() || !rowEquals(e, a)) {
                fail(sql + "\nrow " + r + ": DuckDB " + e + ", Ferry " + a);
            }
        }
    }

    private static String head(List<List<Object>> rows) {
        return rows.subList(0, Math.min(5, rows.size())).toString();
    }

    private static boolean rowEquals(List<Object> e, List<Object> a) {
        for (int i = 0; i < e.size(); i++) {
            Object x = e.get(i);
            Object y = a.get(i);
            if (x == null || y == null) {
                if (x != y) {
                    return false;
                }
            } else if (x instanceof BigDecimal bx && y instanceof BigDecimal by) {
                BigDecimal diff = bx.subtract(by).abs();
                BigDecimal scale = bx.abs().max(by.abs()).max(BigDecimal.ONE);
                if (diff.compareTo(scale.multiply(new BigDecimal("1e-9"))) > 0) {
                    return false;
                }
            } else if (!x.equals(y)) {
                return false;
            }
        }
        return true;
    }

    private static final Comparator<List<Object>> ROW_ORDER = Comparator.comparing(ResultComparison::sortKey);

    private static String sortKey(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object o : row) {
            if (o == null) {
                sb.append("\u0000NULL");
            } else if (o instanceof BigDecimal d) {
                sb.append(d.round(new MathContext(8)).stripTrailingZeros().toPlainString());
            } else {
                sb.append(o);
            }
            sb.append('\u0001');
        }
        return sb.toString();
    }
}
