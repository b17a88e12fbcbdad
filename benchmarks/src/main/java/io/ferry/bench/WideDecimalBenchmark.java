package io.ferry.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.FerryEngine;

/**
 * What 128-bit DECIMALs cost beside 64-bit values, side by side in one JVM on the same numbers: a copy of SSB's
 * lineorder holds each price twice, as a DECIMAL(15, 2) {@code d} and as a BIGINT {@code b} of the same unscaled
 * value. Each pair of queries does the same work on each: a SUM of DECIMALs is summed in 128 bits into a
 * DECIMAL(38, 2) (as DuckDB's), a SUM of BIGINTs in 64; a product of a DECIMAL(15, 2) with a BIGINT or with itself is a
 * DECIMAL of more than 18 digits, two longs multiplied into 128 bits, where the BIGINT product is one long; a
 * comparison with a 20-digit literal compares 16-byte values. (A SUM of the BIGINT squares would not even fit 64
 * bits.) The two variants alternate in rounds so that a noisy machine slows both alike; the report gives
 * medians and the ratio, as markdown.
 *
 * <pre>java -Xmx6g -cp benchmarks/target/ferry-benchmarks.jar io.ferry.bench.WideDecimalBenchmark --scale 1</pre>
 */
public final class WideDecimalBenchmark {
    private static final String[][] PAIRS = {
        {"SUM, 1000 groups", "SELECT k, SUM(d) FROM prices GROUP BY k", "SELECT k, SUM(b) FROM prices GROUP BY k"},
        {"SUM of products", "SELECT SUM(d * k) FROM prices", "SELECT SUM(b * k) FROM prices"},
        {"products, projected and filtered", "SELECT COUNT(*) FROM prices WHERE d * d > 100000000.0000",
            "SELECT COUNT(*) FROM prices WHERE b * b > 1000000000000"},
        {"comparison with a 20-digit literal", "SELECT COUNT(*) FROM prices WHERE CAST(d AS DECIMAL(22, 2)) "
                + "< 12345678901234567890.12", "SELECT COUNT(*) FROM prices WHERE b < 9223372036854775807"},
    };

    private final SideBySideOptions options;
    private final List<String> report = new ArrayList<>();

    private WideDecimalBenchmark(SideBySideOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        new WideDecimalBenchmark(SideBySideOptions.parse(args, 1, 5)).run();
    }

    private void run() throws Exception {
        try (FerryEngine engine = FerryEngine.start(options.engine()); Connection ferry = engine.connect()) {
            BenchSql.log("loading SSB lineorder at scale %s", options.scale());
            new SsbGenerator(options.scale()).load(engine.catalog(), "lineorder", ProgressListener.NONE);
            // d's unscaled value is b: the price in cents read as a DECIMAL of 2 fraction digits
            BenchSql.execute(ferry, "CREATE TABLE prices AS SELECT lo_orderkey % 1000 AS k, CAST(CAST(lo_extendedprice AS "
                    + "DECIMAL(17, 0)) * 0.01 AS DECIMAL(15, 2)) AS d, CAST(lo_extendedprice AS BIGINT) AS b "
                    + "FROM lineorder");
            BenchSql.execute(ferry, "DROP TABLE lineorder");
            long rows;
            try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM prices")) {
                rs.next();
                rows = rs.getLong(1);
            }
            report.add(String.format(Locale.ROOT, "128-bit against 64-bit values: %,d rows (SSB lineorder's "
                    + "lo_extendedprice at SF %s as DECIMAL(15, 2) and as BIGINT), %s", rows, options.scale(),
                    options.runs()));
            report.add("");
            report.add("| work | DECIMAL ms | BIGINT ms | DECIMAL / BIGINT |");
            report.add("|---|---:|---:|---:|");
            for (String[] pair : PAIRS) {
                compare(ferry, pair[0], pair[1], pair[2]);
            }
        }
        options.publish(report);
    }

    private void compare(Connection ferry, String name, String wide, String narrow) throws SQLException {
        BenchSql.log("timing %s", name);
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            for (boolean decimal : new boolean[] {true, false}) {
                String sql = decimal ? wide : narrow;
                BenchSql.drain(ferry, sql);
                for (int i = 0; i < options.repeat(); i++) {
                    long start = System.nanoTime();
                    BenchSql.drain(ferry, sql);
                    (decimal ? a : b).add((System.nanoTime() - start) / 1e6);
                }
            }
        }
        double x = BenchSql.median(a);
        double y = BenchSql.median(b);
        report.add(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |", name, x, y, x / y));
    }
}
