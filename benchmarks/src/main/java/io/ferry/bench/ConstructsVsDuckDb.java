package io.ferry.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * The everyday constructs of the performance issue, each in its own query over one table, Ferry in local mode and
 * DuckDB side by side in one JVM on the same rows with the same threads: the median time of each and the ratio,
 * whether both gave the same answer, and whether Ferry's plan left its vectorized engine (a row-engine node in
 * EXPLAIN). Table {@code f} is made in Ferry by one statement over {@code generate_series} and copied into DuckDB.
 *
 * <pre>java -cp benchmarks/target/ferry-benchmarks.jar io.ferry.bench.ConstructsVsDuckDb --rows 5000000</pre>
 */
public final class ConstructsVsDuckDb {
    /** A construct's query in each engine's spelling (the same text where both take it). */
    record Construct(String name, String ferry, String duck) {
        Construct(String name, String sql) {
            this(name, sql, sql);
        }
    }

    static final List<Construct> CONSTRUCTS = List.of(
            new Construct("window SUM OVER (PARTITION BY g ORDER BY id)",
                    "SELECT SUM(s) FROM (SELECT SUM(x) OVER (PARTITION BY g ORDER BY id) AS s FROM f) t"),
            new Construct("window ROW_NUMBER, top 3 per partition",
                    "SELECT COUNT(*), SUM(x) FROM (SELECT x, ROW_NUMBER() OVER (PARTITION BY g ORDER BY x, id) AS r "
                            + "FROM f) t WHERE r <= 3"),
            new Construct("window LAG over the whole table",
                    "SELECT SUM(dx) FROM (SELECT x - LAG(x) OVER (ORDER BY id) AS dx FROM f) t"),
            new Construct("FLOOR(d TO MONTH) / date_trunc, grouped",
                    "SELECT FLOOR(d TO MONTH) AS m, COUNT(*) FROM f GROUP BY FLOOR(d TO MONTH)",
                    "SELECT CAST(date_trunc('month', d) AS DATE) AS m, COUNT(*) FROM f GROUP BY 1"),
            new Construct("EXTRACT(YEAR, MONTH), grouped",
                    "SELECT EXTRACT(YEAR FROM d) AS y, EXTRACT(MONTH FROM d) AS mo, COUNT(*) FROM f GROUP BY "
                            + "EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM d)"),
            new Construct("date + INTERVAL in a filter",
                    "SELECT COUNT(*) FROM f WHERE d + INTERVAL '30' DAY > DATE '2022-06-01'"),
            new Construct("FULL OUTER JOIN",
                    "SELECT COUNT(*), SUM(a.x), SUM(b.x) FROM (SELECT id, x FROM f WHERE id % 3 = 0) a FULL JOIN "
                            + "(SELECT id, x FROM f WHERE id % 5 = 0) b ON a.id = b.id"),
            new Construct("LEFT JOIN",
                    "SELECT COUNT(*), SUM(b.x) FROM f a LEFT JOIN (SELECT id, x FROM f WHERE g < 100) b "
                            + "ON a.id = b.id"),
            new Construct("SUBSTRING in a filter",
                    "SELECT COUNT(*) FROM f WHERE SUBSTRING(s, 6, 2) = '12'"),
            new Construct("LIKE '%12%'", "SELECT COUNT(*) FROM f WHERE s LIKE '%12%'"),
            new Construct("UPPER and ||, distinct",
                    "SELECT COUNT(DISTINCT UPPER(s) || '-x') FROM f"),
            new Construct("REPLACE and POSITION",
                    "SELECT SUM(POSITION('9' IN REPLACE(s, 'item', 'it'))) FROM f"),
            new Construct("TRIM and LENGTH",
                    "SELECT SUM(LENGTH(TRIM(BOTH 'i' FROM s))) FROM f"),
            new Construct("regular expression match",
                    "SELECT COUNT(*) FROM f WHERE REGEXP_LIKE(s, '^item-1[0-9]*7$')",
                    "SELECT COUNT(*) FROM f WHERE regexp_matches(s, '^item-1[0-9]*7$')"),
            new Construct("CASE with three branches",
                    "SELECT SUM(CASE WHEN g < 100 THEN x WHEN g < 500 THEN x * 2 ELSE 0 END) FROM f"),
            new Construct("INTERSECT",
                    "SELECT COUNT(*) FROM (SELECT g, x % 100 AS k FROM f INTERSECT SELECT g, x % 77 FROM f) t"),
            new Construct("EXCEPT",
                    "SELECT COUNT(*) FROM (SELECT g, x % 100 AS k FROM f EXCEPT SELECT g, x % 77 FROM f) t"),
            new Construct("UNION (distinct)",
                    "SELECT COUNT(*) FROM (SELECT g, x % 100 AS k FROM f UNION SELECT g, x % 77 FROM f) t"),
            new Construct("correlated EXISTS",
                    "SELECT COUNT(*) FROM f a WHERE EXISTS (SELECT 1 FROM f b WHERE b.id = a.id + 1 AND b.g < 10)"),
            new Construct("correlated NOT EXISTS",
                    "SELECT COUNT(*) FROM f a WHERE NOT EXISTS (SELECT 1 FROM f b WHERE b.id = a.id + 1 "
                            + "AND b.g < 10)"),
            new Construct("filtered aggregates over DECIMAL",
                    "SELECT SUM(price), AVG(price), MIN(price), MAX(price) FROM f WHERE price > 500.00"),
            new Construct("DECIMAL arithmetic",
                    "SELECT SUM(price * 1.07 - 0.50) FROM f"));

    /** The table, in Ferry's SQL: ids, a grouping key, a number, a DECIMAL price, a date and a string. */
    static String table(long rows) {
        return "CREATE TABLE f AS SELECT generate_series AS id, generate_series % 1000 AS g, "
                + "(generate_series * 7919) % 100003 AS x, "
                + "CAST(CAST((generate_series * 31) % 100000 AS DECIMAL(12, 2)) * 0.01 AS DECIMAL(12, 2)) AS price, "
                + "TIMESTAMPADD(DAY, CAST(generate_series % 1500 AS INTEGER), DATE '2020-01-01') AS d, "
                + "'item-' || CAST(generate_series % 5000 AS VARCHAR) AS s FROM generate_series(1, " + rows + ")";
    }

    private long rows = 5_000_000;
    private int threads = Runtime.getRuntime().availableProcessors();
    private int repeat = 5;
    /** Untimed runs first: Ferry's kernels are compiled by the JIT as they run, DuckDB's ahead of time. */
    private int warmups = 5;
    private Path out;
    private List<String> only = List.of();

    public static void main(String[] args) throws Exception {
        ConstructsVsDuckDb b = new ConstructsVsDuckDb();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> b.rows = Long.parseLong(args[++i].replace("_", ""));
                case "--threads" -> b.threads = Integer.parseInt(args[++i]);
                case "--repeat" -> b.repeat = Integer.parseInt(args[++i]);
                case "--warmups" -> b.warmups = Integer.parseInt(args[++i]);
                case "--out" -> b.out = Path.of(args[++i]);
                case "--only" -> b.only = List.of(args[++i].toLowerCase(Locale.ROOT).split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: --rows N "
                        + "--threads N --repeat N --warmups N --only word,word (constructs whose names hold a word) "
                        + "--out FILE");
            }
        }
        b.run();
    }

    private void run() throws Exception {
        List<String> report = new ArrayList<>();
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(threads)
                .withMemoryLimit(8L << 30));
                Connection ferry = engine.connect();
                Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement fs = ferry.createStatement(); Statement ds = duck.createStatement()) {
            ds.execute("SET threads TO " + threads);
            log("making f: %,d rows", rows);
            fs.execute(table(rows));
            DuckDbMirror.copy(engine.catalog().require("f"), duck);
            report.add(String.format(Locale.ROOT, "Ferry local mode vs DuckDB %s on table f of %,d rows, %d threads "
                    + "each, median of %d runs after %d untimed; %d cores, JVM %s (a shared, noisy machine: expect "
                    + "±15%%).", BenchSql.duckVersion(duck), rows, threads, repeat, warmups,
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
            report.add("");
            report.add("| construct | Ferry ms | DuckDB ms | Ferry / DuckDB | same answer | row engine in plan |");
            report.add("|---|---:|---:|---:|---|---|");
            List<Double> ratios = new ArrayList<>();
            for (Construct c : CONSTRUCTS) {
                if (!only.isEmpty() && only.stream().noneMatch(w -> c.name().toLowerCase(Locale.ROOT).contains(w))) {
                    continue;
                }
                log("timing %s", c.name());
                boolean rowEngine = BenchSql.plan(ferry, c.ferry()).replace("FerryToEnumerableConverter", "")
                        .contains("Enumerable");
                boolean same = BenchSql.answer(ferry, c.ferry(), true).equals(BenchSql.answer(duck, c.duck(), true));
                double f = BenchSql.medianMillis(ferry, c.ferry(), warmups, repeat);
                double d = BenchSql.medianMillis(duck, c.duck(), warmups, repeat);
                ratios.add(f / d);
                report.add(String.format(Locale.ROOT, "| %s | %.1f | %.1f | **%.2f** | %s | %s |", c.name(), f, d,
                        f / d, same ? "yes" : "**no**", rowEngine ? "**yes**" : "no"));
            }
            double logSum = ratios.stream().mapToDouble(Math::log).sum();
            report.add("");
            report.add(String.format(Locale.ROOT, "Geometric mean of Ferry / DuckDB over the %d constructs: %.2f.",
                    ratios.size(), Math.exp(logSum / ratios.size())));
        }
        PrintStream o = System.out;
        report.forEach(o::println);
        if (out != null) {
            Files.write(out, report);
        }
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[constructs] " + format + "%n", args);
    }
}
