package io.ferry.bench.tpcds;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Whether Ferry's result is DuckDB's, under the rule docs/tpcds.md explains:
 *
 * <ul>
 * <li>Values: numbers of any type are equal when they differ by at most 1e-9 of the larger magnitude (at least
 * 1e-9 absolute), so DECIMAL and DOUBLE results of the same aggregate compare; strings exactly; NULL equals only
 * NULL, so NULL and '' differ; dates and timestamps by value.</li>
 * <li>No ORDER BY (or keys this cannot name as result columns): the results are compared as multisets.</li>
 * <li>ORDER BY: both results are cut into runs of consecutive rows with equal ORDER BY keys. The runs' keys and
 * sizes must match in order, and each run's rows must match as a multiset — rows that tie on every key may come in
 * any order. When the result is exactly LIMIT rows long, the last run may have been cut by the LIMIT, so there only
 * its keys and size must match: which of the tying rows make it in is the engine's choice.</li>
 * </ul>
 */
public final class ResultComparison {
    private static final double TOLERANCE = 1e-9;
    private static final int MAX_SHOWN = 400;

    private ResultComparison() {
    }

    /** A JDBC value in a form both engines' values compare in: BigDecimal for finite numbers, java.time for dates. */
    public static Object normalize(Object value) {
        if (value instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? d : BigDecimal.valueOf(d);
        } else if (value instanceof Float f) {
            return normalize(f.doubleValue());
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        } else if (value instanceof BigInteger b) {
            return new BigDecimal(b);
        } else if (value instanceof Date d) {
            return d.toLocalDate();
        } else if (value instanceof Timestamp t) {
            return t.toLocalDateTime();
        }
        return value;
    }

    /** Empty if the results match; else the first difference, in a sentence. */
    public static Optional<String> compare(List<List<Object>> ferry, List<List<Object>> duck, ResultOrder order) {
        int ferryColumns = ferry.isEmpty() ? -1 : ferry.get(0).size();
        int duckColumns = duck.isEmpty() ? -1 : duck.get(0).size();
        if (ferryColumns >= 0 && duckColumns >= 0 && ferryColumns != duckColumns) {
            return Optional.of("Ferry returns " + ferryColumns + " columns, DuckDB " + duckColumns);
        }
        if (ferry.size() != duck.size()) {
            String first = firstDifference(sorted(ferry), sorted(duck), 0).orElse("");
            return Optional.of(cut("Ferry returns " + ferry.size() + " rows, DuckDB " + duck.size()
                    + (first.isEmpty() ? "" : "; sorted, " + first)));
        }
        if (!order.ordered() || order.keyColumns() == null) {
            return firstDifference(sorted(ferry), sorted(duck), 0).map(ResultComparison::cut);
        }
        List<Integer> keys = order.keyColumns();
        int n = ferry.size();
        boolean cutByLimit = order.limit() >= 0 && n == order.limit();
        int start = 0;
        while (start < n) {
            if (!equalOn(ferry.get(start), duck.get(start), keys)) {
                return Optional.of(cut("row " + (start + 1) + " (in ORDER BY order): Ferry " + show(ferry.get(start))
                        + ", DuckDB " + show(duck.get(start))));
            }
            int ferryEnd = runEnd(ferry, start, keys);
            int duckEnd = runEnd(duck, start, keys);
            if (ferryEnd != duckEnd) {
                return Optional.of(cut("rows from " + (start + 1) + " tie on the ORDER BY keys: Ferry has "
                        + (ferryEnd - start) + " such rows, DuckDB " + (duckEnd - start) + "; Ferry's first "
                        + show(ferry.get(start))));
            }
            if (!(cutByLimit && ferryEnd == n)) {
                Optional<String> d = firstDifference(sorted(ferry.subList(start, ferryEnd)),
                        sorted(duck.subList(start, duckEnd)), start);
                if (d.isPresent()) {
                    return d.map(s -> cut(s + " (rows tying on the ORDER BY keys compared as a multiset)"));
                }
            }
            start = ferryEnd;
        }
        return Optional.empty();
    }

    private static int runEnd(List<List<Object>> rows, int start, List<Integer> keys) {
        int end = start + 1;
        while (end < rows.size() && equalOn(rows.get(start), rows.get(end), keys)) {
            end++;
        }
        return end;
    }

    private static boolean equalOn(List<Object> a, List<Object> b, List<Integer> columns) {
        for (int c : columns) {
            if (!equal(a.get(c), b.get(c))) {
                return false;
            }
        }
        return true;
    }

    private static Optional<String> firstDifference(List<List<Object>> ferry, List<List<Object>> duck, int offset) {
        for (int i = 0; i < Math.min(ferry.size(), duck.size()); i++) {
            List<Object> f = ferry.get(i);
            List<Object> d = duck.get(i);
            boolean same = f.size() == d.size();
            for (int c = 0; same && c < f.size(); c++) {
                same = equal(f.get(c), d.get(c));
            }
            if (!same) {
                return Optional.of("row " + (offset + i + 1) + ": Ferry " + show(f) + ", DuckDB " + show(d));
            }
        }
        return Optional.empty();
    }

    static boolean equal(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            if (x.compareTo(y) == 0) {
                return true;
            }
            BigDecimal scale = x.abs().max(y.abs()).max(BigDecimal.ONE);
            return x.subtract(y).abs().compareTo(scale.multiply(BigDecimal.valueOf(TOLERANCE),
                    MathContext.DECIMAL64)) <= 0;
        }
        return a.equals(b);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(ROWS);
        return copy;
    }

    private static final Comparator<Object> VALUES = (a, b) -> {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y);
        }
        if (a.getClass() == b.getClass() && a instanceof Comparable<?>) {
            @SuppressWarnings("unchecked")
            Comparable<Object> c = (Comparable<Object>) a;
            return c.compareTo(b);
        }
        int byClass = a.getClass().getName().compareTo(b.getClass().getName());
        return byClass != 0 ? byClass : a.toString().compareTo(b.toString());
    };

    private static final Comparator<List<Object>> ROWS = (a, b) -> {
        for (int c = 0; c < Math.min(a.size(), b.size()); c++) {
            int r = VALUES.compare(a.get(c), b.get(c));
            if (r != 0) {
                return r;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    static String show(List<Object> row) {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        for (Object v : row) {
            j.add(v == null ? "NULL" : v instanceof String s ? "'" + s + "'"
                    : v instanceof BigDecimal d ? d.stripTrailingZeros().toPlainString() : v.toString());
        }
        return j.toString();
    }

    private static String cut(String s) {
        return s.length() <= MAX_SHOWN ? s : s.substring(0, MAX_SHOWN) + "...";
    }
}
