package io.ferry.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** What the side-by-side SQL benchmarks share: running a statement, reading every row, medians, progress lines. */
public final class BenchSql {
    private BenchSql() {
    }

    static double median(List<Double> times) {
        double[] t = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return t[t.length / 2];
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Runs a query and reads every value of every row, as a client would. */
    static void drain(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int cols = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= cols; i++) {
                    rs.getObject(i);
                }
            }
        }
    }

    /** The median time of {@code repeat} runs of a query ({@link #drain}) after {@code warmups} untimed, in ms. */
    static double medianMillis(Connection c, String sql, int warmups, int repeat) throws SQLException {
        for (int i = 0; i < warmups; i++) {
            drain(c, sql);
        }
        double[] t = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            long start = System.nanoTime();
            drain(c, sql);
            t[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(t);
        return t[repeat / 2];
    }

    /**
     * The answer's rows as text, numbers to 9 significant digits: how two engines' answers are compared here; in the
     * order they came, or sorted (for a query whose order SQL leaves open).
     */
    static List<String> answer(Connection c, String sql, boolean sorted) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int cols = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= cols; i++) {
                    Object v = rs.getObject(i);
                    row.append(v instanceof Number n ? String.format(Locale.ROOT, "%.9g", n.doubleValue())
                            : String.valueOf(v)).append('|');
                }
                out.add(row.toString());
            }
        }
        if (sorted) {
            out.sort(Comparator.naturalOrder());
        }
        return out;
    }

    static String duckVersion(Connection duck) throws SQLException {
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT version()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }

    /** Ferry's plan of {@code sql}, as EXPLAIN PLAN FOR gives it, one line per operator. */
    public static String plan(Connection c, String sql) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }
}
