package io.ferry.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.rel.MemoryMeter;

/**
 * What spilling costs, side by side with DuckDB's: a GROUP BY with one group per row, a sort far past its memory and a
 * join with a build side of every row, each run by Ferry with its default query memory and with a small one (its
 * operators spilling beyond half of it), and by DuckDB in memory and under the same memory_limit (spilling to its
 * temp directory; its tables in a database file, so the limit bounds its operators, not its storage). One run, one
 * machine, medians; answers compared across all four.
 *
 * <pre>
 * java -cp ferry-benchmarks.jar io.ferry.bench.SpillVsDuckDb [--rows 2000000] [--memory-mib 64] [--repeat 3]
 *     [--out FILE]
 * </pre>
 */
public final class SpillVsDuckDb {
    private record Query(String name, String sql) {
    }

    private static final List<Query> QUERIES = List.of(
            new Query("GROUP BY id (a group per row)",
                    "SELECT COUNT(*), SUM(c), MAX(m) FROM (SELECT id, COUNT(*) AS c, MAX(x) AS m FROM f GROUP BY id) t"),
            new Query("ORDER BY x, id, a page from the middle",
                    "SELECT id, x, s FROM f ORDER BY x, id LIMIT 10 OFFSET 1000000"),
            new Query("JOIN on id (build side: every row)",
                    "SELECT COUNT(*), SUM(a.x + b.x) FROM f a JOIN f b ON a.id = b.id + 1"),
            new Query("COUNT(DISTINCT s || x)", "SELECT COUNT(DISTINCT s || CAST(x AS VARCHAR)) FROM f"));

    private long rows = 2_000_000;
    private long memoryMib = 64;
    private int repeat = 3;
    private Path out;

    public static void main(String[] args) throws Exception {
        SpillVsDuckDb b = new SpillVsDuckDb();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> b.rows = Long.parseLong(args[++i].replace("_", ""));
                case "--memory-mib" -> b.memoryMib = Long.parseLong(args[++i]);
                case "--repeat" -> b.repeat = Integer.parseInt(args[++i]);
                case "--out" -> b.out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: --rows N "
                        + "--memory-mib N --repeat N --out FILE");
            }
        }
        b.run();
    }

    private void run() throws Exception {
        int threads = Runtime.getRuntime().availableProcessors();
        Path duckFile = Files.createTempDirectory("ferry-spill-bench").resolve("small.duckdb");
        EngineConfig config = EngineConfig.defaults().withThreads(threads).withMemoryLimit(4L << 30);
        List<String> report = new ArrayList<>();
        try (FerryEngine big = FerryEngine.start(config);
                FerryEngine small = FerryEngine.start(config.withQueryMemoryLimit(memoryMib << 20));
                Connection ferry = big.connect(); Connection ferrySmall = small.connect();
                Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Connection duckSmall = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
            BenchSql.log("making f: %,d rows, twice", rows);
            BenchSql.execute(ferry, ConstructsVsDuckDb.table(rows));
            BenchSql.execute(ferrySmall, ConstructsVsDuckDb.table(rows));
            DuckDbMirror.copy(big.catalog().require("f"), duck);
            DuckDbMirror.copy(big.catalog().require("f"), duckSmall);
            for (Connection d : List.of(duck, duckSmall)) {
                BenchSql.execute(d, "SET threads TO " + threads);
            }
            BenchSql.execute(duckSmall, "SET memory_limit = '" + memoryMib + "MiB'");
            report.add(String.format(Locale.ROOT, "Table f of %,d rows; Ferry with its default query memory (%,d MiB) "
                    + "and with %d MiB (spilling beyond half of it, to %s); DuckDB %s in memory and with memory_limit "
                    + "%d MiB (tables in a file, spilling to its temp directory); %d threads each, median of %d runs "
                    + "after one untimed; %d cores, JVM %s (a shared, noisy machine: expect ±15%%).", rows,
                    config.queryMemoryLimit() >> 20, memoryMib, config.spillDirectory(), BenchSql.duckVersion(duck),
                    memoryMib, threads, repeat, Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version")));
            report.add("");
            report.add("| query | Ferry ms | Ferry spilling ms | spilled MiB | DuckDB ms | DuckDB spilling ms "
                    + "| Ferry/DuckDB spilling | same answer |");
            report.add("|---|---:|---:|---:|---:|---:|---:|---|");
            for (Query q : QUERIES) {
                BenchSql.log("timing %s", q.name());
                List<String> answer = BenchSql.answer(ferry, q.sql(), false);
                boolean same = answer.equals(BenchSql.answer(ferrySmall, q.sql(), false))
                        && answer.equals(BenchSql.answer(duck, q.sql(), false))
                        && answer.equals(BenchSql.answer(duckSmall, q.sql(), false));
                double f = BenchSql.medianMillis(ferry, q.sql(), 1, repeat);
                long spilled;
                try (MemoryMeter meter = MemoryMeter.open()) {
                    BenchSql.drain(ferrySmall, q.sql());
                    spilled = meter.spilled();
                }
                double fs = BenchSql.medianMillis(ferrySmall, q.sql(), 0, repeat);
                double d = BenchSql.medianMillis(duck, q.sql(), 1, repeat);
                double ds = BenchSql.medianMillis(duckSmall, q.sql(), 1, repeat);
                report.add(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.1f | %.0f | %.0f | **%.2f** | %s |",
                        q.name(), f, fs, spilled / 1048576.0, d, ds, fs / ds, same ? "yes" : "**no**"));
            }
        } finally {
            Files.deleteIfExists(duckFile);
            Files.deleteIfExists(duckFile.resolveSibling("small.duckdb.wal"));
            Files.deleteIfExists(duckFile.getParent());
        }
        PrintStream o = System.out;
        report.forEach(o::println);
        if (out != null) {
            Files.write(out, report);
        }
    }
}
