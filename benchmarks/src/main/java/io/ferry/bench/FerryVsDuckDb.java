package io.ferry.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.server.data.SsbQueries;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * Runs the foundation issue's benchmark: Ferry in local mode and DuckDB in the same JVM, same data, same thread
 * count, each query warmed up then timed several times; reports medians and the Ferry/DuckDB ratio as markdown.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.ferry.bench.FerryVsDuckDb --rows 100000000 --scale 1</pre>
 */
public final class FerryVsDuckDb {
    private static final String PAPER_QUERY = "SELECT b, COUNT(*) FROM r GROUP BY b";

    private long rows = 100_000_000L;
    private long[] distinct = {1_000, 1_000_000};
    private double scale = 1;
    private int threads = Runtime.getRuntime().availableProcessors();
    private int repeat = 5;
    private Path out;
    private List<String> queries = List.of("Q1.1", "Q2.1", "Q3.1", "Q4.1");
    private final List<String> report = new ArrayList<>();
    private final List<String> plans = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        FerryVsDuckDb b = new FerryVsDuckDb();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> b.rows = Long.parseLong(args[++i].replace("_", ""));
                case "--distinct" -> b.distinct = Arrays.stream(args[++i].split(",")).mapToLong(Long::parseLong).toArray();
                case "--scale" -> b.scale = Double.parseDouble(args[++i]);
                case "--threads" -> b.threads = Integer.parseInt(args[++i]);
                case "--repeat" -> b.repeat = Integer.parseInt(args[++i]);
                case "--out" -> b.out = Path.of(args[++i]);
                case "--ssb" -> b.queries = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --rows N --distinct D1,D2 --scale SF --threads N --repeat N --ssb Q1.1,Q2.1 --out FILE (--rows 0 skips r)");
            }
        }
        b.run();
    }

    private void run() throws Exception {
        EngineConfig config = EngineConfig.defaults().withThreads(threads).withMemoryLimit(20L << 30);
        try (FerryEngine engine = FerryEngine.start(config);
                Connection ferry = engine.connect();
                Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = duck.createStatement()) {
                s.execute("SET threads TO " + threads);
            }
            report.add(String.format(Locale.ROOT, "Ferry local mode vs DuckDB %s, %d threads each, median of %d runs "
                    + "after warm-up; %d cores, JVM %s.", BenchSql.duckVersion(duck), threads, repeat,
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
            report.add("");
            report.add("| query | Ferry ms | DuckDB ms | Ferry / DuckDB | Ferry rows/s/core |");
            report.add("|---|---:|---:|---:|---:|");
            for (long d : rows > 0 ? distinct : new long[0]) {
                log("loading r: %,d rows, %,d distinct b", rows, d);
                PaperTable.load(engine.catalog(), "r", rows, d, ProgressListener.NONE);
                DuckDbMirror.copy(engine.catalog().require("r"), duck);
                compare(ferry, duck, "r group by b, " + String.format(Locale.ROOT, "%,d", d) + " groups", PAPER_QUERY,
                        rows);
                if (d == distinct[0]) {
                    planning(ferry);
                }
                engine.catalog().drop("r", false);
                try (Statement s = duck.createStatement()) {
                    s.execute("DROP TABLE r");
                }
            }
            log("loading SSB at scale %s", scale);
            new SsbGenerator(scale).load(engine.catalog(), ProgressListener.NONE);
            for (String t : SsbGenerator.TABLES) {
                DuckDbMirror.copy(engine.catalog().require(t), duck);
            }
            long lineorder = engine.catalog().require("lineorder").rowCount();
            for (String q : queries) {
                compare(ferry, duck, "SSB " + q + " (SF " + scale + ")", SsbQueries.get(q), lineorder);
            }
            planning(ferry, SsbQueries.get("Q4.1"));
            ssbPlanning(ferry);
        }
        report.add("");
        report.add("Ferry's plans:");
        report.addAll(plans);
        PrintStream o = System.out;
        report.forEach(o::println);
        if (out != null) {
            Files.write(out, report);
        }
    }

    private void compare(Connection ferry, Connection duck, String name, String sql, long inputRows)
            throws SQLException {
        log("timing %s", name);
        plans.add("");
        plans.add(name + ":");
        plans.add("```");
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rs.next()) {
                plans.add(rs.getString(1).stripTrailing());
            }
        }
        plans.add("```");
        double f = BenchSql.medianMillis(ferry, sql, 2, repeat);
        double d = BenchSql.medianMillis(duck, sql, 2, repeat);
        double rowsPerSecCore = inputRows / (f / 1000) / threads;
        report.add(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.2f | %,.0f |", name, f, d, f / d,
                rowsPerSecCore));
    }

    /** Planning time of a simple query, new and cached. */
    private void planning(Connection ferry) throws SQLException {
        planning(ferry, "SELECT b, COUNT(*) FROM r WHERE a > 10 GROUP BY b");
    }

    /**
     * Time to parse, validate and plan {@code sql} ({@code prepareStatement}), median of 200 after warm-up: once with
     * a new comment appended each time, so the plan cache never has it, and once as is, served from the cache.
     */
    private void planning(Connection ferry, String sql) throws SQLException {
        String label = sql.length() > 60 ? sql.substring(0, 57) + "..." : sql;
        for (boolean cached : new boolean[] {false, true}) {
            double[] t = new double[200];
            for (int i = -50; i < t.length; i++) {
                String text = cached ? sql : sql + " /* " + System.nanoTime() + " */";
                long start = System.nanoTime();
                try (PreparedStatement ps = ferry.prepareStatement(text)) {
                    if (i >= 0) {
                        t[i] = (System.nanoTime() - start) / 1e6;
                    }
                }
            }
            Arrays.sort(t);
            report.add(String.format(Locale.ROOT, "| planning `%s` (prepareStatement, %s) | %.2f | | | |", label,
                    cached ? "plan cached" : "new plan", t[t.length / 2]));
        }
    }

    /**
     * Planning of each of the thirteen SSB queries ({@code prepareStatement}): the first time its text is seen
     * (planned before only as other queries were), and the median of 30 more, each with a new comment appended so
     * that the plan cache never has it.
     */
    private void ssbPlanning(Connection ferry) throws SQLException {
        report.add("");
        report.add("| SSB query | first planning, ms | new plan, median of 30, ms |");
        report.add("|---|---:|---:|");
        for (Map.Entry<String, String> q : SsbQueries.all().entrySet()) {
            double first = prepareMillis(ferry, q.getValue() + " /* first */");
            double[] t = new double[30];
            for (int i = 0; i < t.length; i++) {
                t[i] = prepareMillis(ferry, q.getValue() + " /* " + i + " */");
            }
            Arrays.sort(t);
            report.add(String.format(Locale.ROOT, "| %s | %.1f | %.1f |", q.getKey(), first, t[t.length / 2]));
        }
    }

    private static double prepareMillis(Connection ferry, String sql) throws SQLException {
        long start = System.nanoTime();
        ferry.prepareStatement(sql).close();
        return (System.nanoTime() - start) / 1e6;
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }
}
