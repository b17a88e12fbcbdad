package io.ferry.core.exec;

import java.util.function.BooleanSupplier;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/** What one running query carries: its cancellation signal, deadline and working-memory budget. */
public final class QueryContext {
    private final BooleanSupplier cancelled;
    private final long deadlineNanos;
    private final QueryMemory memory;

    public QueryContext(BooleanSupplier cancelled, long timeoutMillis, QueryMemory memory) {
        this.cancelled = cancelled;
        this.deadlineNanos = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : Long.MAX_VALUE;
        this.memory = memory;
    }

    public static QueryContext unlimited() {
        return new QueryContext(() -> false, 0, new QueryMemory(Long.MAX_VALUE));
    }

    public QueryMemory memory() {
        return memory;
    }

    /** Throws if the query was cancelled or ran past its timeout; operators call it between morsels. */
    public void check() {
        if (cancelled.getAsBoolean()) {
            throw new FerryException(SqlStates.QUERY_CANCELED, "query cancelled by the client");
        }
        if (System.nanoTime() > deadlineNanos) {
            throw new FerryException(SqlStates.QUERY_CANCELED, "query ran past its timeout and was stopped; "
                    + "raise Statement.setQueryTimeout or make the query cheaper");
        }
    }
}
