package io.ferry.bench.fuzz;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads result sets into canonical values and compares two answers. Values become: exact numbers a BigDecimal
 * (INTEGER, BIGINT, DuckDB's HUGEINT sums and every DECIMAL, compared with compareTo so that scales may differ),
 * DOUBLE a Double with -0.0 folded into 0.0, DATE a LocalDate and TIMESTAMP a LocalDateTime parsed from the
 * driver's string (java.sql.Date would shift dates before 1582 to the Julian calendar), booleans and strings as
 * they are. Doubles match within a relative 1e-9 of the larger magnitude, or 1e-9 absolute below 1, since sums and
 * averages may add in another order; a DOUBLE against an exact number is compared as doubles.
 */
public final class ResultComparator {
    static final double TOLERANCE = 1e-9;
    private static final MathContext SORT_DIGITS = new MathContext(10);

    private ResultComparator() {
    }

    /**
     * The rows of {@code rs}, or {@link TooManyRows} past {@code maxRows}: a shrinking step that drops a join
     * condition can turn a join into a cross product of every table, which no answer of interest needs.
     */
    public static Result.Rows read(ResultSet rs, int maxRows) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        int[] types = new int[n];
        List<Integer> widestDecimalScales = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            types[i] = md.getColumnType(i + 1);
            boolean widest = (types[i] == Types.DECIMAL || types[i] == Types.NUMERIC) && md.getPrecision(i + 1) == 38;
            widestDecimalScales.add(widest ? md.getScale(i + 1) : -1);
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            if (rows.size() == maxRows) {
                throw new TooManyRows(maxRows);
            }
            List<Object> row = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                row.add(canonical(rs, i + 1, types[i]));
            }
            rows.add(row);
        }
        return new Result.Rows(rows, widestDecimalScales);
    }

    /** A result longer than the fuzzer reads: neither engine's answer is compared. */
    static final class TooManyRows extends SQLException {
        TooManyRows(int maxRows) {
            super("the result has more than " + maxRows + " rows, more than the fuzzer compares", "54000");
        }
    }

    private static Object canonical(ResultSet rs, int i, int type) throws SQLException {
        Object o = rs.getObject(i);
        if (o == null) {
            return null;
        }
        if (type == Types.DATE) {
            return LocalDate.parse(rs.getString(i).substring(0, 10));
        }
        if (type == Types.TIMESTAMP || type == Types.TIMESTAMP_WITH_TIMEZONE) {
            return LocalDateTime.parse(rs.getString(i).trim().replace(' ', 'T'));
        }
        return canonical(o);
    }

    /** The canonical form of a driver's value. */
    static Object canonical(Object o) {
        if (o instanceof Double || o instanceof Float) {
            double d = ((Number) o).doubleValue();
            return d == 0 ? 0.0 : d;
        }
        if (o instanceof Number) {
            return new BigDecimal(o.toString());
        }
        if (o instanceof Boolean || o instanceof String || o instanceof LocalDate || o instanceof LocalDateTime) {
            return o;
        }
        return o.toString();
    }

    /**
     * Null when the answers agree, else a sentence saying where they differ. Where DuckDB's column is a
     * DECIMAL(38, s), Ferry's exact values are first rounded (half away from zero) to scale s: DuckDB cuts the
     * scale of a common type that would need more than 38 digits (the CASE of a DECIMAL(38, 1) sum and a
     * DECIMAL(18, 2) answers 9988.5 for 9988.48), where Ferry, as PostgreSQL, keeps every fraction digit. Rows
     * whose values were rounded so are compared as multisets: values DuckDB's cut made equal may sort in another
     * order in Ferry's exact answer.
     */
    public static String difference(Result.Rows duck, Result.Rows ferry, boolean ordered) {
        return difference(duck, ferry, ordered, false);
    }

    /**
     * As {@link #difference(Result.Rows, Result.Rows, boolean)}; where the query removes duplicates last
     * ({@code deduplicated}) and the answers differ, they are compared again with the rows equal within the
     * tolerance merged on each side. Two DOUBLEs that differ in the last bits (window averages added in another
     * order, a DECIMAL sum made a DOUBLE before dividing) are two rows under DISTINCT where the other engine's are
     * bit-equal and one row. Merging never makes different values equal: only rows that already match within the
     * tolerance are merged, and only one engine's count of such near-duplicates is left unchecked.
     */
    public static String difference(Result.Rows duck, Result.Rows ferry, boolean ordered, boolean deduplicated) {
        return difference(duck, ferry, ordered, deduplicated, List.of());
    }

    /**
     * As {@link #difference(Result.Rows, Result.Rows, boolean, boolean)}, for an answer ordered by {@code keys}
     * (empty when the order of ties is not known, as under a LIMIT). Rows whose sort keys agree within the tolerance
     * are ties that either engine may put in any order: two window sums of DOUBLEs that differ in the last bits sort
     * one way in DuckDB and the other way in Ferry, and the next key then decides in one engine only (fuzzer, seed
     * 103 query 276). Such an answer matches when it is DuckDB's multiset of rows and is itself in the order of the
     * keys by its own values, exactly (7811.349999999999 before 7811.35 whatever the next key says: seed 202 query
     * 2804).
     */
    public static String difference(Result.Rows duck, Result.Rows ferry, boolean ordered, boolean deduplicated,
            List<Query.SortKey> keys) {
        String difference = compare(duck, ferry, ordered);
        if (difference != null && ordered && !keys.isEmpty() && compare(duck, ferry, false) == null
                && inOrder(ferry.rows(), keys)) {
            return null;
        }
        if (difference == null || !deduplicated) {
            return difference;
        }
        return compare(new Result.Rows(nearDuplicatesMerged(duck.rows(), ordered), duck.widestDecimalScales()),
                new Result.Rows(nearDuplicatesMerged(ferry.rows(), ordered)), ordered) == null ? null : difference;
    }

    /** Whether no row of {@code rows} sorts after the next one by {@code keys}. */
    static boolean inOrder(List<List<Object>> rows, List<Query.SortKey> keys) {
        for (int r = 1; r < rows.size(); r++) {
            if (compareByKeys(rows.get(r - 1), rows.get(r), keys) > 0) {
                return false;
            }
        }
        return true;
    }

    private static int compareByKeys(List<Object> x, List<Object> y, List<Query.SortKey> keys) {
        for (Query.SortKey k : keys) {
            Object a = x.get(k.ordinal() - 1);
            Object b = y.get(k.ordinal() - 1);
            int c;
            if (a == null || b == null) {
                c = a == b ? 0 : (a == null) == k.nullsFirst() ? -1 : 1;
            } else {
                c = k.descending() ? -compareValue(a, b) : compareValue(a, b);
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Numbers by value (NaN last, -0.0 read as 0.0 already); strings in code point order, as their UTF-8 bytes. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValue(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return x instanceof BigDecimal p && y instanceof BigDecimal q ? p.compareTo(q)
                    : Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof String s && b instanceof String t) {
            return java.util.Arrays.compare(s.codePoints().toArray(), t.codePoints().toArray());
        }
        return a.getClass() == b.getClass() && a instanceof Comparable c ? c.compareTo(b) : 0;
    }

    /** Rows in their order (or sorted, when the order is not the query's), each run of matching rows kept once. */
    private static List<List<Object>> nearDuplicatesMerged(List<List<Object>> rows, boolean ordered) {
        List<List<Object>> sorted = new ArrayList<>(rows);
        if (!ordered) {
            sorted.sort(ROW_ORDER);
        }
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : sorted) {
            if (out.isEmpty() || !sameRow(out.get(out.size() - 1), row)) {
                out.add(row);
            }
        }
        return out;
    }

    private static String compare(Result.Rows duck, Result.Rows ferry, boolean ordered) {
        List<List<Object>> expected = new ArrayList<>(duck.rows());
        List<List<Object>> actual = new ArrayList<>(ferry.rows().stream()
                .map(row -> atScales(row, duck.widestDecimalScales())).toList());
        if (!actual.equals(ferry.rows())) {
            ordered = false;
        }
        int expectedColumns = expected.isEmpty() ? -1 : expected.get(0).size();
        int actualColumns = actual.isEmpty() ? -1 : actual.get(0).size();
        if (expectedColumns >= 0 && actualColumns >= 0 && expectedColumns != actualColumns) {
            return "DuckDB gives " + expectedColumns + " columns, Ferry " + actualColumns;
        }
        if (ordered) {
            for (int r = 0; r < Math.min(expected.size(), actual.size()); r++) {
                if (!sameRow(expected.get(r), actual.get(r))) {
                    return "row " + (r + 1) + " of " + expected.size() + " (ordered): DuckDB " + expected.get(r)
                            + ", Ferry " + actual.get(r);
                }
            }
            return expected.size() == actual.size() ? null
                    : "DuckDB gives " + expected.size() + " rows, Ferry " + actual.size() + " (the first "
                            + Math.min(expected.size(), actual.size()) + " agree)";
        }
        expected.sort(ROW_ORDER);
        actual.sort(ROW_ORDER);
        List<List<Object>> onlyDuck = new ArrayList<>();
        List<List<Object>> onlyFerry = new ArrayList<>();
        int e = 0;
        int a = 0;
        while (e < expected.size() || a < actual.size()) {
            if (e < expected.size() && a < actual.size() && sameRow(expected.get(e), actual.get(a))) {
                e++;
                a++;
            } else if (a >= actual.size() || e < expected.size()
                    && ROW_ORDER.compare(expected.get(e), actual.get(a)) <= 0) {
                onlyDuck.add(expected.get(e++));
            } else {
                onlyFerry.add(actual.get(a++));
            }
        }
        pairLeftovers(onlyDuck, onlyFerry);
        if (onlyDuck.isEmpty() && onlyFerry.isEmpty()) {
            return null;
        }
        return "DuckDB gives " + expected.size() + " rows, Ferry " + actual.size() + "; only DuckDB's: "
                + sample(onlyDuck) + "; only Ferry's: " + sample(onlyFerry);
    }

    /**
     * Pairs the rows each side has left that match within the tolerance, and drops them from both. Sorting pairs up
     * nearly all rows, but not two DOUBLEs near a rounding boundary of the sort key: -9286.99992149801 and
     * -9286.999921500235 (window sums added in another order) sort to other places beside rows whose next column
     * differs (fuzzer, seed 112 query 765). What is left is few rows, so pairing them anyhow is cheap.
     */
    private static void pairLeftovers(List<List<Object>> onlyDuck, List<List<Object>> onlyFerry) {
        for (java.util.Iterator<List<Object>> d = onlyDuck.iterator(); d.hasNext();) {
            List<Object> row = d.next();
            for (java.util.Iterator<List<Object>> f = onlyFerry.iterator(); f.hasNext();) {
                if (sameRow(row, f.next())) {
                    f.remove();
                    d.remove();
                    break;
                }
            }
        }
    }

    private static List<Object> atScales(List<Object> row, List<Integer> scales) {
        List<Object> out = new ArrayList<>(row);
        for (int i = 0; i < Math.min(out.size(), scales.size()); i++) {
            if (scales.get(i) >= 0 && out.get(i) instanceof BigDecimal d && d.scale() > scales.get(i)) {
                out.set(i, d.setScale(scales.get(i), RoundingMode.HALF_UP));
            }
        }
        return out;
    }

    private static String sample(List<List<Object>> rows) {
        return rows.size() + (rows.isEmpty() ? "" : " " + rows.subList(0, Math.min(3, rows.size()))
                + (rows.size() > 3 ? " ..." : ""));
    }

    static boolean sameRow(List<Object> x, List<Object> y) {
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!same(x.get(i), y.get(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean same(Object x, Object y) {
        if (x == null || y == null) {
            return x == y;
        }
        if (x instanceof BigDecimal a && y instanceof BigDecimal b) {
            return a.compareTo(b) == 0;
        }
        if (x instanceof Number a && y instanceof Number b) {
            return sameDouble(a.doubleValue(), b.doubleValue());
        }
        return x.equals(y);
    }

    static boolean sameDouble(double a, double b) {
        if (a == b || Double.isNaN(a) && Double.isNaN(b)) {
            return true;
        }
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            return false;
        }
        return Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
    }

    /**
     * A total order of rows for comparing multisets: NULL first, numbers by value rounded to 10 digits (so that a
     * DOUBLE and its near-equal counterpart sort alike) and then, when not near-equal, by value, everything else by
     * its natural order.
     */
    static final Comparator<List<Object>> ROW_ORDER = (x, y) -> {
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = compareValues(x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    };

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        if (x instanceof Number a && y instanceof Number b) {
            int rounded = sortKey(a).compareTo(sortKey(b));
            // numbers equal in 10 digits but not within the tolerance (large integers) still need an order, or
            // the multisets, sorted alike, pair up different rows
            return rounded != 0 || same(a, b) ? rounded : Double.compare(a.doubleValue(), b.doubleValue());
        }
        if (x.getClass() == y.getClass() && x instanceof Comparable c) {
            return c.compareTo(y);
        }
        return x.getClass().getName().compareTo(y.getClass().getName());
    }

    private static BigDecimal sortKey(Number n) {
        double d = n.doubleValue();
        if (n instanceof BigDecimal b) {
            return b.round(SORT_DIGITS);
        }
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return BigDecimal.valueOf(d > 0 || Double.isNaN(d) ? Double.MAX_VALUE : -Double.MAX_VALUE)
                    .multiply(BigDecimal.TEN);
        }
        return new BigDecimal(d).round(SORT_DIGITS);
    }
}
