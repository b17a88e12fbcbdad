package io.ferry.server.cli;

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

    /** The defaults with these options applied. */
    EngineConfig config(CommandLine commandLine) {
        EngineConfig config = EngineConfig.defaults();
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
        return config;
    }
}
