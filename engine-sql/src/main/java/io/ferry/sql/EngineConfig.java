package io.ferry.sql;

/**
 * How an embedded engine is sized.
 *
 * @param threads          worker threads for morsel-driven execution (default: all cores)
 * @param blockSize        bytes per storage block
 * @param memoryLimit      off-heap bytes all tables may take together
 * @param queryMemoryLimit bytes one query's operators (hash tables, sort buffers) may take
 */
public record EngineConfig(int threads, int blockSize, long memoryLimit, long queryMemoryLimit) {
    public static final int DEFAULT_BLOCK_SIZE = 1 << 20;

    public EngineConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (blockSize < 4096) {
            throw new IllegalArgumentException("block size must be at least 4096 bytes, got " + blockSize);
        }
    }

    /**
     * All cores; tables may fill the off-heap memory the JVM allows (Arrow allocates it through Netty, so that is
     * Netty's direct-memory ceiling: -XX:MaxDirectMemorySize, else the heap size); one query's operators may use
     * half the heap.
     */
    public static EngineConfig defaults() {
        long heap = Runtime.getRuntime().maxMemory();
        return new EngineConfig(Runtime.getRuntime().availableProcessors(), DEFAULT_BLOCK_SIZE,
                io.netty.util.internal.PlatformDependent.maxDirectMemory(), Math.max(256L << 20, heap / 2));
    }

    public EngineConfig withThreads(int n) {
        return new EngineConfig(n, blockSize, memoryLimit, queryMemoryLimit);
    }

    public EngineConfig withBlockSize(int n) {
        return new EngineConfig(threads, n, memoryLimit, queryMemoryLimit);
    }

    public EngineConfig withMemoryLimit(long n) {
        return new EngineConfig(threads, blockSize, n, queryMemoryLimit);
    }

    public EngineConfig withQueryMemoryLimit(long n) {
        return new EngineConfig(threads, blockSize, memoryLimit, n);
    }
}
