package io.ferry.server.data;

import java.util.function.Consumer;

import io.ferry.core.storage.Block;
import io.ferry.core.storage.BlockReader;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableData;
import io.ferry.core.types.TableSchema;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/** Reads a table's committed rows, block by block, as batches (one batch per block). */
final class TableReader {
    private TableReader() {
    }

    /**
     * Hands every block of the table's current version to {@code sink} as a batch, in order; returns the number of
     * rows. The version is held for the whole scan, so a concurrent INSERT or DROP cannot free blocks under it.
     */
    static long forEachBatch(Table table, Consumer<Batch> sink) {
        TableSchema schema = table.schema();
        long rows = 0;
        try (TableData data = table.snapshot()) {
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
}
