package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import io.ferry.core.vector.Batch;

/**
 * A query's result read batch by batch. A streamed result ({@link QueryExecutor#stream}) does its work as it is read
 * and holds the query's table versions and hash tables until it is closed or read to its end; closing it early stops
 * the work. Not thread-safe for reading; {@link #close} may come from another thread.
 */
public interface BatchStream extends AutoCloseable {
    /** The next batch of rows (never empty), or null when there are no more. */
    Batch next();

    /** Every batch not yet read, as fast as the executor can make them; the stream is then at its end. */
    default List<Batch> drain() {
        List<Batch> out = new ArrayList<>();
        for (Batch b = next(); b != null; b = next()) {
            out.add(b);
        }
        return out;
    }

    @Override
    void close();

    /** A result already made. */
    static BatchStream of(List<Batch> batches) {
        Iterator<Batch> it = batches.stream().filter(b -> b.rowCount() > 0).iterator();
        return new BatchStream() {
            @Override
            public Batch next() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public void close() {
            }
        };
    }
}
