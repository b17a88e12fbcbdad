package io.ferry.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.ferry.server.LocalNode;
import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry gen}: the demo data sets as CSV files, for loading here or into another database. */
@Command(name = "gen", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Write a demo data set as CSV files (with a header line) into a directory.")
final class GenCommand implements Callable<Integer> {
    /** The data sets. */
    enum Dataset {
        /** The ship-or-not paper's r(a, b): one file, r.csv. */
        paper,
        /** The Star Schema Benchmark: lineorder.csv, customer.csv, supplier.csv, part.csv, dwdate.csv. */
        ssb
    }

    @Spec
    private CommandSpec spec;

    @Option(names = "--dataset", required = true, paramLabel = "paper|ssb",
            description = "paper: the table r(a, b) of the ship-or-not paper; ssb: the Star Schema Benchmark.")
    private Dataset dataset;

    @Option(names = "--scale", paramLabel = "SF", defaultValue = "0.1",
            description = "SSB scale factor (default: ${DEFAULT-VALUE}; 1 is 6 million lineorder rows).")
    private double scale;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000",
            description = "Rows of r (default: ${DEFAULT-VALUE}).")
    private long rows;

    @Option(names = "--distinct", paramLabel = "N", defaultValue = "1000",
            description = "Distinct values of r.b (default: ${DEFAULT-VALUE}).")
    private long distinct;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "data",
            description = "Directory to write into, created if missing (default: ${DEFAULT-VALUE}).")
    private Path out;

    @Override
    public Integer call() throws IOException {
        Files.createDirectories(out);
        ProgressListener progress = ProgressListener.console(true);
        List<Path> written = new ArrayList<>();
        switch (dataset) {
            case paper -> {
                Path file = out.resolve(LocalNode.PAPER_TABLE + ".csv");
                PaperTable.writeCsv(file, rows, distinct, progress);
                written.add(file);
            }
            case ssb -> {
                new SsbGenerator(scale).writeCsv(out, progress);
                for (String table : SsbGenerator.TABLES) {
                    written.add(out.resolve(table + ".csv"));
                }
            }
        }
        PrintWriter w = spec.commandLine().getOut();
        for (Path file : written) {
            w.println(String.format(Locale.ROOT, "wrote %s (%,d bytes)", file, Files.size(file)));
        }
        String table = written.get(0).getFileName().toString().replace(".csv", "");
        w.println("Load into a running server with:   bin/ferry load --create --table " + table + " --csv "
                + written.get(0));
        w.flush();
        return 0;
    }
}
