package io.ferry.core.exec;

import java.util.concurrent.atomic.AtomicLong;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * The working memory of one query (hash tables, join build sides, sort buffers). Operators reserve before they
 * grow; going over the limit fails the query with SQLSTATE 53200 instead of exhausting the JVM heap.
 */
public final class QueryMemory {
    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    public QueryMemory(long limit) {
        this.limit = limit;
    }

    public void reserve(long bytes) {
        long now = used.addAndGet(bytes);
        if (now > limit) {
            used.addAndGet(-bytes);
            throw new FerryException(SqlStates.OUT_OF_MEMORY, String.format(
                    "query needs more than its memory limit of %,d bytes (hash tables and sort buffers); add filters, "
                            + "group by fewer distinct values, or raise the limit (--query-memory)", limit));
        }
        peak.accumulateAndGet(now, Math::max);
    }

    public void release(long bytes) {
        used.addAndGet(-bytes);
    }

    public long used() {
        return used.get();
    }

    public long peak() {
        return peak.get();
    }

    public long limit() {
        return limit;
    }
}
