package io.ferry.core.exec;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * The working memory of one query (hash tables, join build sides, sort buffers). Operators reserve before they
 * grow; going over the limit fails the query with SQLSTATE 53200 instead of exhausting the JVM heap. With a spill
 * directory, the operators that can (hash aggregation, sort, hash join) move their state to disk once the query holds
 * a third of its limit ({@link #shouldSpill}), so that what is larger than memory still runs.
 */
public final class QueryMemory {
    private final long limit;
    private final Path spillDirectory;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong spilled = new AtomicLong();
    private final LongConsumer spills;

    public QueryMemory(long limit) {
        this(limit, null);
    }

    /** @param spillDirectory where the query's operators may spill; null: they may not */
    public QueryMemory(long limit, Path spillDirectory) {
        this(limit, spillDirectory, bytes -> { });
    }

    /** @param spills told of the bytes each spill writes (the process's total of them, for its metrics) */
    public QueryMemory(long limit, Path spillDirectory, LongConsumer spills) {
        this.limit = limit;
        this.spillDirectory = spillDirectory;
        this.spills = spills;
    }

    public Path spillDirectory() {
        return spillDirectory;
    }

    /**
     * Whether an operator holding {@code holding} bytes should move them to disk now: the query is past a third of its
     * limit and the operator holds a sixteenth of it (so that a small one does not write many tiny files while
     * something else holds the memory). A third, so that what every thread's operator holds may double at once and
     * still fit: a hash table's slots, keys and states can all double in one batch, on every thread between two of
     * their checks (past half, two threads' tables doubling together passed the limit: SpillTest failed with 53200
     * in CI). The operator's bytes are asked for only past that point: operators ask after every batch they take.
     */
    public boolean shouldSpill(LongSupplier holding) {
        return spillDirectory != null && used.get() > limit / 3 && holding.getAsLong() >= limit / 16;
    }

    /**
     * Whether an operator about to take {@code bytes} at once (a build side already computed) should write them to
     * disk instead: with them the query would be past half its limit. Asking before reserving matters: the operator
     * that made the rows may have given its memory back, so the query can hold little now and far too much after.
     */
    public boolean shouldSpillBefore(long bytes) {
        return spillDirectory != null && used.get() + bytes > limit / 2;
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

    /** Bytes the query's operators wrote to disk so far (compressed). */
    public long spilled() {
        return spilled.get();
    }

    void addSpilled(long bytes) {
        spilled.addAndGet(bytes);
        spills.accept(bytes);
    }

    public long limit() {
        return limit;
    }
}
