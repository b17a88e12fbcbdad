package io.ferry.core.storage;

import java.util.List;
import java.util.function.UnaryOperator;

import io.ferry.core.types.TableSchema;

/**
 * Where a catalog's tables and views are kept across restarts: a data directory, or nowhere ({@link #NONE}). A
 * change is made durable before it becomes visible: rows are written to new files first, then a new
 * {@link Manifest} naming them replaces the old one in one step, so a process killed at any point restarts with
 * the catalog as it was before the change or after it, never half (docs/storage.md).
 */
public interface Persistence {
    /** Tables live in memory only. */
    Persistence NONE = new Persistence() {
        @Override
        public boolean durable() {
            return false;
        }

        @Override
        public DataFile write(String table, TableSchema schema, List<Block> blocks) {
            throw new IllegalStateException("an in-memory catalog writes no files");
        }

        @Override
        public void commit(UnaryOperator<Manifest> change) {
        }

        @Override
        public void release(List<DataFile> files) {
        }
    };

    /** Whether changes are kept; false for {@link #NONE}. */
    boolean durable();

    /**
     * Writes the rows of {@code blocks}, in order, as a new file, flushed to disk; no table holds it until a
     * committed manifest names it ({@link #release} it if none will).
     */
    DataFile write(String table, TableSchema schema, List<Block> blocks);

    /** Makes the manifest {@code change} gives durable, in one step; if it throws, the manifest is unchanged. */
    void commit(UnaryOperator<Manifest> change);

    /** Deletes those of {@code files} that the manifest no longer names: they were replaced, dropped or never committed. */
    void release(List<DataFile> files);
}
