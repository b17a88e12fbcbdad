package io.ferry.core.storage;

import static java.util.Objects.requireNonNull;

import java.util.function.Consumer;

import io.ferry.core.stats.TableStats;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/** A named table: its schema and its current {@link TableData} version. */
public final class Table implements TableHandle {
    private final String name;
    private final TableSchema schema;
    private final BlockStorage store;
    private final Runnable onChange;
    private TableData current;
    private boolean dropped;

    /** {@code onChange} runs after every change to the table's rows. */
    Table(String name, TableSchema schema, BlockStorage store, Runnable onChange) {
        this.name = requireNonNull(name, "name is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.store = store;
        this.onChange = onChange;
        this.current = TableData.empty(schema.size());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    /** The current version, retained for the caller: close it when done. */
    public synchronized TableData snapshot() {
        return current.retain();
    }

    public synchronized long rowCount() {
        return current.rowCount();
    }

    /** Statistics of the current version's rows (what the planner estimates result sizes from). */
    public synchronized TableStats stats() {
        return current.stats();
    }

    /**
     * Hands every block of the current version to {@code sink} as one batch of all columns, in order; returns the
     * number of rows. The version is held for the whole scan, so a concurrent INSERT or DROP cannot free blocks
     * under it.
     */
    public long forEachBatch(Consumer<Batch> sink) {
        long rows = 0;
        try (TableData data = snapshot()) {
            for (Block block : data.blocks()) {
                BlockReader reader = block.reader();
                int n = reader.rowCount();
                Vector[] columns = new Vector[schema.size()];
                for (int c = 0; c < columns.length; c++) {
                    columns[c] = reader.decode(c, schema.type(c), 0, n);
                }
                sink.accept(new Batch(n, columns));
                rows += n;
            }
        }
        return rows;
    }

    /** Starts staging new rows; nothing is visible until {@link TableAppender#commit()}. */
    public TableAppender appender() {
        return new TableAppender(this, store);
    }

    /** Makes {@code added} visible, with {@code addedStats} the stats of exactly their rows. */
    synchronized void publish(java.util.List<Block> added, TableStats addedStats) {
        if (dropped) {
            for (Block b : added) {
                b.release();
            }
            throw new io.ferry.core.FerryException(io.ferry.core.SqlStates.UNDEFINED_TABLE,
                    "table '" + name + "' was dropped while rows were being added to it");
        }
        TableData next = current.append(added, addedStats);
        current.close();
        current = next;
        onChange.run();
    }

    /** Removes every row at once; scans that began before see the rows they began with. */
    public synchronized void truncate() {
        if (dropped) {
            throw new io.ferry.core.FerryException(io.ferry.core.SqlStates.UNDEFINED_TABLE,
                    "table '" + name + "' was dropped");
        }
        current.close();
        current = TableData.empty(schema.size());
        onChange.run();
    }

    synchronized void drop() {
        dropped = true;
        current.close();
        current = TableData.empty(schema.size());
    }
}
