package io.ferry.sql;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How an embedded engine is sized.
 *
 * @param threads          worker threads for morsel-driven execution (default: all cores)
 * @param blockSize        bytes per storage block
 * @param memoryLimit      off-heap bytes all tables may take together
 * @param queryMemoryLimit bytes one query's operators (hash tables, sort buffers) may take
 * @param clientTimeout    how long a served result may sit with its client fetching none of it before the JDBC
 *                         server abandons it (stops its query, frees its memory), as Trino abandons a query whose
 *                         client stopped polling
 * @param queryTimeout     how long the JDBC server lets a statement plan and run before it stops it (57014);
 *                         zero for no limit
 * @param spillDirectory   where a query's hash aggregations, sorts and hash joins spill once they pass half of
 *                         {@code queryMemoryLimit} (each execution in a directory of its own, removed when it ends);
 *                         null: they do not spill, and a query that does not fit fails with 53200
 * @param plannerWarmup    whether the first engine of the JVM plans a corpus of statements in the background when it
 *                         starts, so that the first statements clients send find the planner compiled
 *                         ({@link PlannerWarmup})
 */
public record EngineConfig(int threads, int blockSize, long memoryLimit, long queryMemoryLimit,
        Duration clientTimeout, Duration queryTimeout, Path spillDirectory, boolean plannerWarmup) {
    public static final Duration DEFAULT_CLIENT_TIMEOUT = Duration.ofMinutes(5);
    public static final int DEFAULT_BLOCK_SIZE = 1 << 20;

    public EngineConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (blockSize < 4096) {
            throw new IllegalArgumentException("block size must be at least 4096 bytes, got " + blockSize);
        }
        if (clientTimeout.isNegative() || clientTimeout.isZero()) {
            throw new IllegalArgumentException("client timeout must be positive, got " + clientTimeout);
        }
        if (queryTimeout.isNegative()) {
            throw new IllegalArgumentException("query timeout must not be negative, got " + queryTimeout);
        }
    }

    /** The JVM's temporary directory ({@code java.io.tmpdir}), where queries spill unless told otherwise. */
    public static Path defaultSpillDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * All cores; tables may fill the off-heap memory the JVM allows (Arrow allocates it through Netty, so that is
     * Netty's direct-memory ceiling: -XX:MaxDirectMemorySize, else the heap size); one query's operators may use
     * half the heap, and spills to the temporary directory beyond half of that.
     */
    public static EngineConfig defaults() {
        long heap = Runtime.getRuntime().maxMemory();
        return new EngineConfig(Runtime.getRuntime().availableProcessors(), DEFAULT_BLOCK_SIZE,
                io.netty.util.internal.PlatformDependent.maxDirectMemory(), Math.max(256L << 20, heap / 2), DEFAULT_CLIENT_TIMEOUT,
                Duration.ZERO, defaultSpillDirectory(), true);
    }

    public EngineConfig withThreads(int n) {
        return new EngineConfig(n, blockSize, memoryLimit, queryMemoryLimit, clientTimeout, queryTimeout, spillDirectory,
                plannerWarmup);
    }

    public EngineConfig withBlockSize(int n) {
        return new EngineConfig(threads, n, memoryLimit, queryMemoryLimit, clientTimeout, queryTimeout, spillDirectory,
                plannerWarmup);
    }

    public EngineConfig withMemoryLimit(long n) {
        return new EngineConfig(threads, blockSize, n, queryMemoryLimit, clientTimeout, queryTimeout, spillDirectory,
                plannerWarmup);
    }

    public EngineConfig withQueryMemoryLimit(long n) {
        return new EngineConfig(threads, blockSize, memoryLimit, n, clientTimeout, queryTimeout, spillDirectory,
                plannerWarmup);
    }

    public EngineConfig withClientTimeout(Duration d) {
        return new EngineConfig(threads, blockSize, memoryLimit, queryMemoryLimit, d, queryTimeout, spillDirectory,
                plannerWarmup);
    }

    public EngineConfig withQueryTimeout(Duration d) {
        return new EngineConfig(threads, blockSize, memoryLimit, queryMemoryLimit, clientTimeout, d, spillDirectory,
                plannerWarmup);
    }

    /** @param dir where queries spill; null: nowhere */
    public EngineConfig withSpillDirectory(Path dir) {
        return new EngineConfig(threads, blockSize, memoryLimit, queryMemoryLimit, clientTimeout, queryTimeout, dir,
                plannerWarmup);
    }

    public EngineConfig withPlannerWarmup(boolean warmup) {
        return new EngineConfig(threads, blockSize, memoryLimit, queryMemoryLimit, clientTimeout, queryTimeout,
                spillDirectory, warmup);
    }
}
