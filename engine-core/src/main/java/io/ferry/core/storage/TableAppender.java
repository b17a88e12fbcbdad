package io.ferry.core.storage;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.stats.TableStats;
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
    /** The file whose rows these are, when a catalog is restored; null otherwise. */
    private final DataFile restored;
    private final PartitionScheme partitioning;
    private final Placement placement;
    private final List<Block> staged = new ArrayList<>();
    /** Rows waiting to fill a block, per partition: a block holds rows of one partition only. */
    private final List<List<Batch>> pending = new ArrayList<>();
    private final long[] pendingBytes;
    private int[] partitionIds = new int[0];
    private long rows;
    /** The blocks it staged, once {@link #collect} handed them over. */
    private int blockCount;
    private boolean done;

    /** With {@code replace}, the staged rows become the table's only rows; else they are added to its rows. */
    TableAppender(Table table, BlockStorage store, boolean replace) {
        this(table, store, replace, null);
    }

    /** Stages the rows read back from {@code restored}, which hold the table's next rows; committing writes nothing. */
    TableAppender(Table table, BlockStorage store, boolean replace, DataFile restored) {
        this.table = table;
        this.store = store;
        this.writer = new BlockWriter(table.schema());
        this.stats = new TableStatsBuilder(table.schema().types());
        this.keys = table.newKeys();
        this.replace = replace;
        this.restored = restored;
        this.partitioning = table.partitioning();
        this.placement = table.placement();
        int partitions = partitioning.partitions();
        for (int p = 0; p < partitions; p++) {
            pending.add(new ArrayList<>());
        }
        this.pendingBytes = new long[partitions];
    }

    /** Cuts the batch into blocks of at most the store's block size, each of one partition's rows. */
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
        rows += batch.rowCount();
        if (partitioning.isNone()) {
            add(0, batch);
            return;
        }
        // a counting sort of the rows by partition, then one gather per partition that has rows
        int n = batch.rowCount();
        if (partitionIds.length < n) {
            partitionIds = new int[n];
        }
        partitioning.partitionIds(batch, partitionIds);
        int partitions = pending.size();
        int[] start = new int[partitions + 1];
        for (int i = 0; i < n; i++) {
            start[partitionIds[i] + 1]++;
        }
        for (int p = 0; p < partitions; p++) {
            start[p + 1] += start[p];
        }
        int[] next = java.util.Arrays.copyOf(start, partitions);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[next[partitionIds[i]]++] = i;
        }
        Batch all = batch.materialize();
        for (int p = 0; p < partitions; p++) {
            int count = start[p + 1] - start[p];
            if (count > 0) {
                add(p, all.gather(java.util.Arrays.copyOfRange(order, start[p], start[p + 1]), count));
            }
        }
    }

    /**
     * Stages the block at {@code location}, left in place by an earlier process ({@link BlockStorage#adopt}), as the
     * next block of a restored file: nothing is written, the rows only read back for statistics and keys.
     */
    void adopt(String location) {
        if (done || restored == null) {
            throw new IllegalStateException("only a restorer adopts blocks");
        }
        staged.add(store.adopt(location, table.schema(), batch -> {
            for (UniqueKeys k : keys) {
                k.addAll(batch);
            }
            stats.add(batch);
            rows += batch.rowCount();
        }));
    }

    private void add(int partition, Batch batch) {
        pending.get(partition).add(batch);
        pendingBytes[partition] += writer.sizeOf(batch, 0, batch.rowCount());
        if (pendingBytes[partition] >= store.blockSize()) {
            writeBlocks(partition, false);
        }
    }

    /**
     * Cuts the pending rows into blocks filled up to the block size. Unless {@code all}, the rows that would
     * only half fill a last block wait for the next batch, so blocks stay full whatever the batch size.
     */
    private void writeBlocks(int partition, boolean all) {
        List<Batch> waiting = pending.get(partition);
        if (waiting.isEmpty()) {
            return;
        }
        Batch buffered = BatchConcat.concat(waiting, table.schema().types());
        waiting.clear();
        int from = 0;
        while (from < buffered.rowCount()) {
            int count = writer.fitRows(buffered, from, store.blockSize());
            if (!all && from + count == buffered.rowCount() && writer.sizeOf(buffered, from, count) < store.blockSize()) {
                break;
            }
            ZoneMap zones = ZoneMap.of(table.schema().types(), buffered, from, count);
            staged.add(store.write(writer, buffered, from, count, zones, partition, placement));
            from += count;
        }
        pendingBytes[partition] = 0;
        if (from < buffered.rowCount()) {
            int[] rest = new int[buffered.rowCount() - from];
            for (int i = 0; i < rest.length; i++) {
                rest[i] = from + i;
            }
            Batch tail = buffered.gather(rest, rest.length);
            waiting.add(tail);
            pendingBytes[partition] = writer.sizeOf(tail, 0, tail.rowCount());
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
        for (int p = 0; p < pending.size(); p++) {
            writeBlocks(p, true);
        }
        done = true;
        List<Block> blocks = List.copyOf(staged);
        staged.clear(); // publish owns them now, even when it fails (it releases them if the table was dropped)
        table.publish(blocks, stats.build(), keys, replace, restored);
    }

    /**
     * Commits the rows of {@code parts}, appenders that staged consecutive pieces of one restored data file side by
     * side, as one change: their blocks in the parts' order, their statistics merged, their keys checked against one
     * another. Closes them all, whether it succeeds or not.
     */
    static void commitRestored(List<TableAppender> parts) {
        TableAppender first = parts.get(0);
        try {
            for (TableAppender part : parts) {
                if (part.restored != first.restored) {
                    throw new IllegalStateException("appenders of different files");
                }
            }
            Staged all = collect(parts);
            first.table.publish(all.blocks(), all.stats(), first.keys, false, first.restored);
        } finally {
            for (TableAppender part : parts) {
                part.close();
            }
        }
    }

    /**
     * Replaces the table's blocks by those of {@code perFile}, one appender per data file of the table, in order,
     * each holding the file's rows read back ({@link Table#reload}); closes them all.
     */
    static void commitReloaded(Table table, List<TableAppender> perFile) {
        if (perFile.isEmpty()) {
            return;
        }
        try {
            Staged all = collect(perFile);
            List<DataFile> files = new ArrayList<>();
            int from = 0;
            for (TableAppender part : perFile) {
                files.add(part.restored.heldIn(all.blocks().subList(from, from + part.blockCount)));
                from += part.blockCount;
            }
            table.publishReloaded(all.blocks(), all.stats(), perFile.get(0).keys, files);
        } finally {
            for (TableAppender part : perFile) {
                part.close();
            }
        }
    }

    private record Staged(List<Block> blocks, TableStats stats) {
    }

    /**
     * Flushes every part's pending rows into blocks and hands their blocks over, in order, with their statistics
     * merged and their keys checked against one another (into the first part's); the parts are done after.
     */
    private static Staged collect(List<TableAppender> parts) {
        TableAppender first = parts.get(0);
        List<Block> blocks = new ArrayList<>();
        TableStats stats = null;
        for (TableAppender part : parts) {
            if (part.done || part.table != first.table) {
                throw new IllegalStateException("appenders of different tables, or one already committed");
            }
            for (int p = 0; p < part.pending.size(); p++) {
                part.writeBlocks(p, true);
            }
            blocks.addAll(part.staged);
            part.blockCount = part.staged.size();
            stats = stats == null ? part.stats.build() : stats.merge(part.stats.build());
            if (part != first) {
                for (int i = 0; i < first.keys.size(); i++) {
                    first.keys.get(i).checkDisjoint(part.keys.get(i));
                    first.keys.get(i).addDisjoint(part.keys.get(i));
                }
            }
        }
        for (TableAppender part : parts) {
            part.done = true;
            part.staged.clear(); // publishing owns them now, even when it fails
        }
        return new Staged(List.copyOf(blocks), stats);
    }

    /** Discards whatever was staged and not committed. */
    @Override
    public void close() {
        done = true;
        pending.forEach(List::clear);
        for (Block b : staged) {
            b.release();
        }
        staged.clear();
    }
}
