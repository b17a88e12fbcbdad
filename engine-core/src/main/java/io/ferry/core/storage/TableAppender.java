package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.stats.TableStatsBuilder;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;

/**
 * Stages rows for a table as blocks, then publishes them all at once: a load or INSERT that fails part-way
 * ({@link #close()} without {@link #commit()}) leaves the table exactly as it was, its statistics included: they
 * are gathered here as batches arrive and merged into the table's only by the commit that publishes the rows.
 */
public final class TableAppender implements AutoCloseable {
    private final Table table;
    private final BlockStorage store;
    private final BlockWriter writer;
    private final TableStatsBuilder stats;
    private final List<UniqueKeys> keys;
    private final boolean replace;
    private final List<Block> staged = new ArrayList<>();
    private final List<Batch> pending = new ArrayList<>();
    private long pendingBytes;
    private long rows;
    private boolean done;

    /** With {@code replace}, the staged rows become the table's only rows; else they are added to its rows. */
    TableAppender(Table table, BlockStorage store, boolean replace) {
        this.table = table;
        this.store = store;
        this.writer = new BlockWriter(table.schema());
        this.stats = new TableStatsBuilder(table.schema().types());
        this.keys = table.newKeys();
        this.replace = replace;
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
        if (batch.rowCount() == 0) {
            return;
        }
        for (UniqueKeys k : keys) {
            k.addAll(batch);
        }
        stats.add(batch);
        pending.add(batch);
        pendingBytes += writer.sizeOf(batch, 0, batch.rowCount());
        rows += batch.rowCount();
        if (pendingBytes >= store.blockSize()) {
            writeBlocks(false);
        }
    }

    /**
     * Cuts the pending rows into blocks filled up to the block size. Unless {@code all}, the rows that would
     * only half fill a last block wait for the next batch, so blocks stay full whatever the batch size.
     */
    private void writeBlocks(boolean all) {
        if (pending.isEmpty()) {
            return;
        }
        Batch buffered = BatchConcat.concat(pending, table.schema().types());
        pending.clear();
        int from = 0;
        while (from < buffered.rowCount()) {
            int count = writer.fitRows(buffered, from, store.blockSize());
            if (!all && from + count == buffered.rowCount() && writer.sizeOf(buffered, from, count) < store.blockSize()) {
                break;
            }
            ZoneMap zones = ZoneMap.of(table.schema().types(), buffered, from, count);
            staged.add(store.write(writer, buffered, from, count, zones));
            from += count;
        }
        pendingBytes = 0;
        if (from < buffered.rowCount()) {
            int[] rest = new int[buffered.rowCount() - from];
            for (int i = 0; i < rest.length; i++) {
                rest[i] = from + i;
            }
            Batch tail = buffered.gather(rest, rest.length);
            pending.add(tail);
            pendingBytes = writer.sizeOf(tail, 0, tail.rowCount());
        }
    }

    public long stagedRows() {
        return rows;
    }

    /**
     * Makes every staged row visible at once (and the table's old rows invisible, for a {@link Table#rewriter()}),
     * unless a staged key duplicates one already in the table: then nothing changes and it fails with 23505.
     */
    public void commit() {
        if (done) {
            throw new IllegalStateException("appender already committed or closed");
        }
        writeBlocks(true);
        done = true;
        List<Block> blocks = List.copyOf(staged);
        staged.clear(); // publish owns them now, even when it fails (it releases them if the table was dropped)
        table.publish(blocks, stats.build(), keys, replace);
    }

    /** Discards whatever was staged and not committed. */
    @Override
    public void close() {
        done = true;
        pending.clear();
        for (Block b : staged) {
            b.release();
        }
        staged.clear();
    }
}
