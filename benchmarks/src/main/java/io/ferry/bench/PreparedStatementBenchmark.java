package io.ferry.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.FerryEngine;

/**
 * SSB queries on lineorder with their constants written into the SQL and as parameters of a prepared statement,
 * side by side in one JVM on the same data. Parameters are bound into the plan as constants when the statement runs
 * (StatementValues), so both should run Ferry's vectorized operators at the same speed; before, any parameter sent
 * the whole statement to Calcite's row-at-a-time engine. The two variants alternate in rounds, so that a noisy
 * machine slows both alike; each statement's first run (planning) is not timed. Reports medians and the ratio as
 * markdown.
 *
 * <pre>java -Xmx6g -cp benchmarks/target/ferry-benchmarks.jar io.ferry.bench.PreparedStatementBenchmark --scale 0.1</pre>
 */
public final class PreparedStatementBenchmark {
    /** A query with its constant written in, the same with a parameter, and the parameter's value. */
    private static final Object[][] QUERIES = {
        {"filtered sum", "SELECT SUM(lo_revenue) FROM lineorder WHERE lo_discount > 3",
            "SELECT SUM(lo_revenue) FROM lineorder WHERE lo_discount > ?", 3},
        {"grouped, expression", "SELECT lo_orderpriority, COUNT(*), SUM(lo_extendedprice * lo_discount) FROM lineorder "
                + "WHERE lo_quantity < 25 GROUP BY lo_orderpriority",
            "SELECT lo_orderpriority, COUNT(*), SUM(lo_extendedprice * lo_discount) FROM lineorder "
                + "WHERE lo_quantity < ? GROUP BY lo_orderpriority", 25},
        {"Q1.1 with a date range", "SELECT SUM(lo_extendedprice * lo_discount) FROM lineorder WHERE lo_orderdate "
                + "BETWEEN 19930101 AND 19931231 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25",
            "SELECT SUM(lo_extendedprice * lo_discount) FROM lineorder WHERE lo_orderdate "
                + "BETWEEN ? AND 19931231 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25", 19930101},
    };

    private final SideBySideOptions options;

    private PreparedStatementBenchmark(SideBySideOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        new PreparedStatementBenchmark(SideBySideOptions.parse(args, 0.1, 7)).run();
    }

    private void run() throws Exception {
        List<String> report = new ArrayList<>();
        try (FerryEngine engine = FerryEngine.start(options.engine()); Connection ferry = engine.connect()) {
            BenchSql.log("loading SSB at scale %s", options.scale());
            new SsbGenerator(options.scale()).load(engine.catalog(), ProgressListener.NONE);
            report.add(String.format(Locale.ROOT, "Literals against parameters: SSB lineorder at SF %s, %s",
                    options.scale(), options.runs()));
            report.add("");
            report.add("| query | literal ms | parameter ms | parameter / literal |");
            report.add("|---|---:|---:|---:|");
            for (Object[] q : QUERIES) {
                report.add(compare(ferry, (String) q[0], (String) q[1], (String) q[2], (Integer) q[3]));
            }
        }
        options.publish(report);
    }

    private String compare(Connection ferry, String name, String literal, String parameterized, int value)
            throws SQLException {
        BenchSql.log("timing %s", name);
        List<Double> literals = new ArrayList<>();
        List<Double> parameters = new ArrayList<>();
        try (PreparedStatement prepared = ferry.prepareStatement(parameterized)) {
            prepared.setInt(1, value);
            BenchSql.drain(ferry, literal);
            drain(prepared);
            for (int round = 0; round < options.rounds(); round++) {
                for (int i = 0; i < options.repeat(); i++) {
                    long t0 = System.nanoTime();
                    BenchSql.drain(ferry, literal);
                    long t1 = System.nanoTime();
                    drain(prepared);
                    long t2 = System.nanoTime();
                    literals.add((t1 - t0) / 1e6);
                    parameters.add((t2 - t1) / 1e6);
                }
            }
        }
        double a = BenchSql.median(literals);
        double b = BenchSql.median(parameters);
        return String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |", name, a, b, b / a);
    }

    private static void drain(PreparedStatement p) throws SQLException {
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }
}
