package io.ferry.server.cli;

import java.nio.file.Path;
import java.time.Duration;

import io.ferry.sql.EngineConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** How a node that plans and runs queries is sized: the options {@code local} and {@code coordinator} share. */
final class EngineOptions {
    @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: all cores).")
    Integer threads;

    @Option(names = "--block-size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Storage block size, e.g. 64k or 1m (default: 1m).")
    Long blockSize;

    @Option(names = "--query-memory", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Memory one query's operators may take (default: half the heap).")
    Long queryMemory;

    @Option(names = "--spill-dir", paramLabel = "DIR",
            description = "Where a query's hash aggregations, sorts and hash joins spill once they pass half of "
                    + "--query-memory; 'none' to fail with 53200 instead (default: the JVM's temporary directory).")
    String spillDir;

    @Option(names = "--client-timeout", paramLabel = "SECONDS",
            description = "Abandon a result whose client has fetched none of it for this long: its query stops and "
                    + "its memory is freed (default: 300).")
    Integer clientTimeoutSeconds;

    @Option(names = "--query-timeout", paramLabel = "SECONDS",
            description = "Stop any statement a client runs that has planned and run this long, with SQLSTATE 57014 "
                    + "(default: 0, no limit; clients may set a shorter one with setQueryTimeout).")
    Integer queryTimeoutSeconds;

    @Option(names = "--planner-warmup", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Plan a corpus of everyday statements in the background at start, so that the first "
                    + "statements clients send are planned by a compiled planner (default: on; --no-planner-warmup "
                    + "to skip it).")
    boolean plannerWarmup;

    /** {@code --spill-dir}'s value as a directory; null for {@code none}. */
    static Path spillDirectory(String option) {
        return option.equalsIgnoreCase("none") ? null : Path.of(option);
    }

    /** The defaults with these options applied. */
    EngineConfig config(CommandLine commandLine) {
        EngineConfig config = EngineConfig.defaults().withPlannerWarmup(plannerWarmup);
        if (threads != null) {
            config = config.withThreads(threads);
        }
        if (blockSize != null) {
            if (blockSize > Integer.MAX_VALUE) {
                throw new CommandLine.ParameterException(commandLine, "--block-size must be below 2g, got "
                        + blockSize + " bytes");
            }
            config = config.withBlockSize((int) (long) blockSize);
        }
        if (queryMemory != null) {
            config = config.withQueryMemoryLimit(queryMemory);
        }
        if (spillDir != null) {
            config = config.withSpillDirectory(spillDirectory(spillDir));
        }
        if (clientTimeoutSeconds != null) {
            if (clientTimeoutSeconds < 1) {
                throw new CommandLine.ParameterException(commandLine, "--client-timeout must be at least 1 second, "
                        + "got " + clientTimeoutSeconds);
            }
            config = config.withClientTimeout(Duration.ofSeconds(clientTimeoutSeconds));
        }
        if (queryTimeoutSeconds != null) {
            if (queryTimeoutSeconds < 0) {
                throw new CommandLine.ParameterException(commandLine, "--query-timeout must be 0 (no limit) or more "
                        + "seconds, got " + queryTimeoutSeconds);
            }
            config = config.withQueryTimeout(Duration.ofSeconds(queryTimeoutSeconds));
        }
        return config;
    }
}
