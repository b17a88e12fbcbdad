package io.ferry.core.exec;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * What one running query carries: its cancellation signal, deadline and working-memory budget, and where its scans
 * find their blocks ({@link ScanBinder}) and its gathers their rows ({@link Gatherer}; null: the fragment runs here).
 */
public final class QueryContext {
    private final BooleanSupplier cancelled;
    /** Shared by the contexts derived from one another: they are one query. */
    private final Deadline deadline;
    private final QueryMemory memory;
    private final ScanBinder binder;
    private final Gatherer gatherer;
    private final Supplier<FerryException> failure;

    public QueryContext(BooleanSupplier cancelled, long timeoutMillis, QueryMemory memory) {
        this(cancelled, new Deadline(timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L
                : Long.MAX_VALUE), memory, LocalScanBinder.INSTANCE, null, () -> null);
    }

    private QueryContext(BooleanSupplier cancelled, Deadline deadline, QueryMemory memory, ScanBinder binder,
            Gatherer gatherer, Supplier<FerryException> failure) {
        this.cancelled = cancelled;
        this.deadline = deadline;
        this.memory = memory;
        this.binder = binder;
        this.gatherer = gatherer;
        this.failure = failure;
    }

    public static QueryContext unlimited() {
        return new QueryContext(() -> false, 0, new QueryMemory(Long.MAX_VALUE));
    }

    /** The same query, its scans bound by {@code binder}. */
    public QueryContext withBinder(ScanBinder binder) {
        return new QueryContext(cancelled, deadline, memory, binder, gatherer, failure);
    }

    /** The same query, its gathers answered by {@code gatherer}. */
    public QueryContext withGatherer(Gatherer gatherer) {
        return new QueryContext(cancelled, deadline, memory, binder, gatherer, failure);
    }

    /**
     * The same query, also stopped by the first error {@code failed} reports: a part running here stops as soon as
     * a part running elsewhere has failed (a node lost mid-query), instead of finishing work nobody will use.
     */
    public QueryContext stoppedBy(Supplier<FerryException> failed) {
        Supplier<FerryException> mine = failure;
        return new QueryContext(cancelled, deadline, memory, binder, gatherer, () -> {
            FerryException f = mine.get();
            return f != null ? f : failed.get();
        });
    }

    public QueryMemory memory() {
        return memory;
    }

    public ScanBinder binder() {
        return binder;
    }

    /** Null when gathers run their fragment on this node. */
    public Gatherer gatherer() {
        return gatherer;
    }

    public boolean isCancelled() {
        return cancelled.getAsBoolean();
    }

    /** Milliseconds until the deadline (at least 1), or 0 when the query has no timeout. */
    public long remainingMillis() {
        long at = deadline.nanos;
        if (at == Long.MAX_VALUE) {
            return 0;
        }
        return Math.max(1, (at - System.nanoTime()) / 1_000_000L);
    }

    /**
     * Moves the deadline {@code nanos} later: a streamed result's query waits while its reader is away, and that
     * time is the reader's, not the query's.
     */
    public void extendDeadline(long nanos) {
        synchronized (deadline) {
            if (deadline.nanos != Long.MAX_VALUE) {
                deadline.nanos = Math.min(Long.MAX_VALUE - 1, deadline.nanos + Math.max(0, nanos));
            }
        }
    }

    /** Throws if the query was cancelled, ran past its timeout or failed elsewhere; operators call it between morsels. */
    public void check() {
        FerryException failed = failure.get();
        if (failed != null) {
            throw new FerryException(failed.sqlState(), failed.getMessage(), failed);
        }
        if (cancelled.getAsBoolean()) {
            throw new FerryException(SqlStates.QUERY_CANCELED, "query cancelled by the client");
        }
        if (System.nanoTime() > deadline.nanos) {
            throw new FerryException(SqlStates.QUERY_CANCELED, "query ran past its timeout and was stopped; "
                    + "raise Statement.setQueryTimeout or make the query cheaper");
        }
    }

    /** When the query must have finished, in {@link System#nanoTime} terms; {@code Long.MAX_VALUE} for never. */
    private static final class Deadline {
        volatile long nanos;

        Deadline(long nanos) {
            this.nanos = nanos;
        }
    }
}
