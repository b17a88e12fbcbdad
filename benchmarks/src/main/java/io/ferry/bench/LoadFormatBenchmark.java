package io.ferry.bench;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.server.data.CsvExporter;
import io.ferry.server.data.CsvLoader;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.server.parquet.ParquetExporter;
import io.ferry.server.parquet.ParquetLoader;
import io.ferry.sql.FerryEngine;

/**
 * Loading the same table from CSV and from Parquet, side by side in one JVM: SSB's lineorder (17 columns: integers,
 * dates as integers, text) is generated, written once as CSV (Ferry's writer) and once as SNAPPY Parquet (Ferry's
 * writer, one file as DuckDB would write it), then loaded from each into a new table in alternating rounds, the
 * table dropped after each load. Reports the median time per load, ns per row, and CSV / Parquet, as markdown. The
 * issue's bar: Parquet loads at least as fast per row as CSV.
 *
 * <pre>java -Xmx8g -cp benchmarks/target/ferry-benchmarks.jar io.ferry.bench.LoadFormatBenchmark --scale 0.5</pre>
 */
public final class LoadFormatBenchmark {
    private final SideBySideOptions options;

    private LoadFormatBenchmark(SideBySideOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        new LoadFormatBenchmark(SideBySideOptions.parse(args, 0.5, 1)).run();
    }

    private void run() throws Exception {
        Path dir = Files.createTempDirectory("ferry-load-bench");
        Path csv = dir.resolve("lineorder.csv");
        Path parquet = dir.resolve("lineorder.parquet");
        List<String> report = new ArrayList<>();
        try (FerryEngine engine = FerryEngine.start(options.engine())) {
            Catalog catalog = engine.catalog();
            BenchSql.log("generating SSB lineorder at scale %s", options.scale());
            Table lineorder = new SsbGenerator(options.scale()).load(catalog, "lineorder", ProgressListener.NONE);
            long rows = lineorder.rowCount();
            try (OutputStream out = Files.newOutputStream(csv);
                    CsvExporter writer = new CsvExporter(out, lineorder.schema(), ',', true)) {
                lineorder.forEachBatch(writer::write);
            }
            try (OutputStream out = Files.newOutputStream(parquet);
                    ParquetExporter writer = new ParquetExporter(out, lineorder.schema(), "snappy")) {
                lineorder.forEachBatch(writer::write);
            }
            catalog.drop("lineorder", false);
            report.add(String.format(Locale.ROOT, "Loading SSB lineorder at SF %s (%,d rows): CSV %,d MB, Parquet "
                    + "(SNAPPY) %,d MB; median of %d loads in each of %d alternating rounds (CSV parses on the loading thread; Parquet decodes on a second thread while the first stages the batches); "
                    + "%d cores, JVM %s.", options.scale(), rows, Files.size(csv) >> 20, Files.size(parquet) >> 20,
                    options.repeat(), options.rounds(), Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version")));
            report.add("");
            List<Double> csvMs = new ArrayList<>();
            List<Double> parquetMs = new ArrayList<>();
            for (int round = 0; round < options.rounds(); round++) {
                for (int i = 0; i < options.repeat(); i++) {
                    csvMs.add(time(() -> CsvLoader.load(catalog, "t", csv, CsvLoader.Options.DEFAULT,
                            lineorder.schema(), ProgressListener.NONE), catalog, rows));
                    parquetMs.add(time(() -> ParquetLoader.load(catalog, "t", parquet, ParquetLoader.Options.DEFAULT,
                            ProgressListener.NONE), catalog, rows));
                }
                BenchSql.log("round %d: CSV %.0f ms, Parquet %.0f ms", round + 1, csvMs.get(csvMs.size() - 1),
                        parquetMs.get(parquetMs.size() - 1));
            }
            double c = BenchSql.median(csvMs);
            double p = BenchSql.median(parquetMs);
            report.add("| format | median ms | ns per row | rows per s |");
            report.add("|---|---:|---:|---:|");
            report.add(line("CSV", c, rows));
            report.add(line("Parquet", p, rows));
            report.add("");
            report.add(String.format(Locale.ROOT, "CSV / Parquet: %.2f (above 1: Parquet loads faster per row)",
                    c / p));
        } finally {
            Files.deleteIfExists(csv);
            Files.deleteIfExists(parquet);
            Files.deleteIfExists(dir);
        }
        options.publish(report);
    }

    private static String line(String format, double ms, long rows) {
        return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %,.0f |", format, ms, ms * 1e6 / rows,
                rows / (ms / 1000));
    }

    /** A load to time. */
    private interface Load {
        long run() throws Exception;
    }

    private static double time(Load load, Catalog catalog, long expected) throws Exception {
        System.gc();
        long start = System.nanoTime();
        long rows = load.run();
        double ms = (System.nanoTime() - start) / 1e6;
        if (rows != expected) {
            throw new IllegalStateException("loaded " + rows + " rows, expected " + expected);
        }
        catalog.drop("t", false);
        return ms;
    }
}
