package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.Catalog;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;

/**
 * What executor tests run on: an allocator, a block store of small blocks (so a table spans many), a catalog and a
 * two-thread executor. {@link #close()} fails the test if any Arrow byte leaked.
 */
final class ExecFixture implements AutoCloseable {
    final BufferAllocator allocator = new RootAllocator();
    final BlockStore store;
    final Catalog catalog;
    final QueryExecutor executor = new QueryExecutor(2);

    ExecFixture(int blockSize) {
        store = new BlockStore(allocator, blockSize, 4 << 20);
        catalog = new Catalog(store);
    }

    /**
     * The rows of a (key, COUNT, SUM, AVG, MIN or MAX) aggregate by key (NULL as -1), the other columns joined by
     * '|': equal maps mean equal answers whatever the order of rows and batches.
     */
    static Map<Long, String> byKey(List<Batch> out) {
        Map<Long, String> rows = new TreeMap<>();
        for (Batch b : out) {
            LongVector key = (LongVector) b.column(0);
            for (int i = 0; i < b.rowCount(); i++) {
                rows.put(key.isNull(i) ? -1L : key.get(i), ((LongVector) b.column(1)).get(i) + "|"
                        + ((LongVector) b.column(2)).get(i) + "|" + ((DoubleVector) b.column(3)).get(i) + "|"
                        + ((LongVector) b.column(4)).get(i));
            }
        }
        return rows;
    }

    @Override
    public void close() {
        executor.close();
        catalog.clear();
        store.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow bytes leaked");
        allocator.close();
    }
}
