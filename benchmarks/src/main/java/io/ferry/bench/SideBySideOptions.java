package io.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import io.ferry.sql.EngineConfig;

/**
 * The command line of the benchmarks that time two variants of the same work side by side in one JVM, alternating
 * in rounds: {@code --scale SF --threads N --repeat N --rounds N --out FILE}, and where their markdown report goes.
 */
record SideBySideOptions(double scale, int threads, int repeat, int rounds, Path out) {
    static SideBySideOptions parse(String[] args, double scale, int repeat) {
        int threads = Runtime.getRuntime().availableProcessors();
        int rounds = 3;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scale" -> scale = Double.parseDouble(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --scale SF --threads N --repeat N --rounds N --out FILE");
            }
        }
        return new SideBySideOptions(scale, threads, repeat, rounds, out);
    }

    /** The engine the variants run on: these threads, memory for the data. */
    EngineConfig engine() {
        return EngineConfig.defaults().withThreads(threads).withMemoryLimit(8L << 30);
    }

    /** How the runs were made, for the report's first line. */
    String runs() {
        return String.format(Locale.ROOT, "%d threads, median of %d runs in each of %d alternating rounds; %d cores, "
                + "JVM %s.", threads, repeat, rounds, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
    }

    /** Prints the report, and writes it to {@link #out} if given. */
    void publish(List<String> report) throws IOException {
        report.forEach(System.out::println);
        if (out != null) {
            Files.write(out, report);
        }
    }
}
