package io.ferry.sql.rel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.ferry.core.exec.QueryMemory;

/**
 * The working memory of the Ferry plans one statement runs, for EXPLAIN ANALYZE to report: while a meter is open on a
 * thread, each plan that thread starts ({@link FerryQuery#execute}) registers its {@link QueryMemory} with it.
 */
public final class MemoryMeter implements AutoCloseable {
    private static final ThreadLocal<MemoryMeter> CURRENT = new ThreadLocal<>();

    private final List<QueryMemory> memories = new CopyOnWriteArrayList<>();
    private final MemoryMeter outer;

    private MemoryMeter(MemoryMeter outer) {
        this.outer = outer;
    }

    /** Opens a meter on this thread until {@link #close}. */
    public static MemoryMeter open() {
        MemoryMeter m = new MemoryMeter(CURRENT.get());
        CURRENT.set(m);
        return m;
    }

    static void register(QueryMemory memory) {
        MemoryMeter m = CURRENT.get();
        if (m != null) {
            m.memories.add(memory);
        }
    }

    /** The most any one plan held at once. */
    public long peak() {
        return memories.stream().mapToLong(QueryMemory::peak).max().orElse(0);
    }

    /** The bytes the plans wrote to disk, together. */
    public long spilled() {
        return memories.stream().mapToLong(QueryMemory::spilled).sum();
    }

    /** The limit each plan ran under (they share one), or 0 when none ran. */
    public long limit() {
        return memories.isEmpty() ? 0 : memories.get(0).limit();
    }

    @Override
    public void close() {
        CURRENT.set(outer);
    }
}
