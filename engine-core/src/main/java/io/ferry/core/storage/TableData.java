package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One immutable version of a table's contents: its blocks in order. Queries hold a version for their whole run
 * ({@link #retain()} / {@link #close()}), so an INSERT or DROP that commits meanwhile never frees blocks under
 * them. A version holds one reference on each of its blocks.
 */
public final class TableData implements AutoCloseable {
    private final List<Block> blocks;
    private final long rowCount;
    private final AtomicInteger refs = new AtomicInteger(1);

    TableData(List<Block> blocks) {
        this.blocks = List.copyOf(blocks);
        long rows = 0;
        for (Block b : this.blocks) {
            rows += b.rowCount();
        }
        this.rowCount = rows;
    }

    static TableData empty() {
        return new TableData(List.of());
    }

    /** A new version with {@code added} after this one's blocks; takes over the references of {@code added}. */
    TableData append(List<Block> added) {
        List<Block> all = new ArrayList<>(blocks.size() + added.size());
        for (Block b : blocks) {
            all.add(b.retain());
        }
        all.addAll(added);
        return new TableData(all);
    }

    public List<Block> blocks() {
        return blocks;
    }

    public long rowCount() {
        return rowCount;
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
