package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.ferry.core.stats.TableStats;

/**
 * One immutable version of a table's contents: its blocks in order. Queries hold a version for their whole run
 * ({@link #retain()} / {@link #close()}), so an INSERT or DROP that commits meanwhile never frees blocks under
 * them. A version holds one reference on each of its blocks, and the {@link TableStats} of its rows, kept as they
 * were loaded.
 */
public final class TableData implements AutoCloseable {
    private final List<Block> blocks;
    private final long rowCount;
    private final TableStats stats;
    private final AtomicInteger refs = new AtomicInteger(1);

    private TableData(List<Block> blocks, TableStats stats) {
        this.blocks = List.copyOf(blocks);
        long rows = 0;
        for (Block b : this.blocks) {
            rows += b.rowCount();
        }
        this.rowCount = rows;
        this.stats = stats;
    }

    static TableData empty(int columnCount) {
        return new TableData(List.of(), TableStats.empty(columnCount));
    }

    /** A version of exactly {@code blocks}, whose references it takes over, with {@code stats} their rows'. */
    static TableData of(List<Block> blocks, TableStats stats) {
        TableData data = new TableData(blocks, stats);
        if (data.rowCount != stats.rowCount()) {
            throw new IllegalStateException(data.rowCount + " rows with stats of " + stats.rowCount());
        }
        return data;
    }

    /**
     * A new version with {@code added} after this one's blocks, and stats that merge this version's with
     * {@code addedStats} (the stats of exactly those rows); takes over the references of {@code added}.
     */
    TableData append(List<Block> added, TableStats addedStats) {
        long addedRows = 0;
        for (Block b : added) {
            addedRows += b.rowCount();
        }
        if (addedRows != addedStats.rowCount()) {
            throw new IllegalStateException(addedRows + " rows appended with stats of " + addedStats.rowCount());
        }
        // Everything that can fail comes before the blocks are retained, so a failure leaks no reference.
        TableStats merged = stats.merge(addedStats);
        List<Block> all = new ArrayList<>(blocks.size() + added.size());
        for (Block b : blocks) {
            all.add(b.retain());
        }
        all.addAll(added);
        return new TableData(all, merged);
    }

    public List<Block> blocks() {
        return blocks;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Statistics of this version's rows: immutable, like the version. */
    public TableStats stats() {
        return stats;
    }

    public long bytes() {
        long n = 0;
        for (Block b : blocks) {
            n += b.length();
        }
        return n;
    }

    TableData retain() {
        if (refs.getAndIncrement() <= 0) {
            throw new IllegalStateException("table version already released");
        }
        return this;
    }

    @Override
    public void close() {
        if (refs.decrementAndGet() == 0) {
            for (Block b : blocks) {
                b.release();
            }
        }
    }
}
