package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.vector.Batch;

/**
 * Stages rows for a table as blocks, then publishes them all at once: a load or INSERT that fails part-way
 * ({@link #close()} without {@link #commit()}) leaves the table exactly as it was.
 */
public final class TableAppender implements AutoCloseable {
    private final Table table;
    private final BlockStore store;
    private final BlockWriter writer;
    private final List<Block> staged = new ArrayList<>();
    private long rows;
    private boolean done;

    TableAppender(Table table, BlockStore store) {
        this.table = table;
        this.store = store;
        this.writer = new BlockWriter(table.schema());
    }

    /** Cuts the batch into blocks of at most the store's block size. */
    public void append(Batch batch) {
        if (done) {
            throw new IllegalStateException("appender already committed or closed");
        }
        if (batch.columnCount() != table.schema().size()) {
            throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, table '"
                    + table.name() + "' has " + table.schema().size());
        }
        int from = 0;
        while (from < batch.rowCount()) {
            int count = writer.fitRows(batch, from, store.blockSize());
            staged.add(store.write(writer, batch, from, count));
            from += count;
            rows += count;
        }
    }

    public long stagedRows() {
        return rows;
    }

    /** Makes every staged row visible at once. */
    public void commit() {
        if (done) {
            throw new IllegalStateException("appender already committed or closed");
        }
        done = true;
        table.publish(List.copyOf(staged));
        staged.clear();
    }

    /** Discards whatever was staged and not committed. */
    @Override
    public void close() {
        done = true;
        for (Block b : staged) {
            b.release();
        }
        staged.clear();
    }
}
