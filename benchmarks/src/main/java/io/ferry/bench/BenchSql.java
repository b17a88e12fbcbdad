package io.ferry.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/** What the side-by-side SQL benchmarks share: running a statement, reading every row, medians, progress lines. */
final class BenchSql {
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

    /** Runs a query and reads every row, as a client would. */
    static void drain(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }
}
