package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import io.ferry.core.storage.BlockStore;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
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
     * Table {@code r(a BIGINT NOT NULL, b BIGINT)} of {@code rows} rows: a = row + 1, b = row mod {@code keys}, and
     * b NULL on every {@code nullEvery}-th row (0: b is NOT NULL and never NULL).
     */
    Table keyed(int rows, int keys, int nullEvery) {
        Table r = catalog.create("r", TableSchema.of(new Column("a", FerryType.BIGINT, false),
                new Column("b", FerryType.BIGINT, nullEvery > 0)), false);
        try (TableAppender app = r.appender()) {
            for (int from = 0; from < rows; from += 4096) {
                int n = Math.min(4096, rows - from);
                long[] a = new long[n];
                long[] b = new long[n];
                boolean[] nulls = nullEvery > 0 ? new boolean[n] : null;
                for (int i = 0; i < n; i++) {
                    a[i] = from + i + 1;
                    b[i] = (from + i) % keys;
                    if (nulls != null) {
                        nulls[i] = (from + i) % nullEvery == 0;
                    }
                }
                app.append(Batch.of(new LongVector(a, null), new LongVector(b, nulls)));
            }
            app.commit();
        }
        return r;
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
