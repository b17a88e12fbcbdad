package io.ferry.fabric;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/** Waiting for posted operations: always with a timeout, and with the operation's own error if it failed. */
public final class Completions {
    private Completions() {
    }

    public static void await(CompletableFuture<?> op, Duration timeout, String what) {
        result(op, timeout, what);
    }

    /**
     * {@code op} as a future that fails with 08006 naming {@code what} if {@code op} has not completed within
     * {@code timeout}: for chains of operations that no thread waits on.
     */
    public static <T> CompletableFuture<T> within(CompletableFuture<T> op, Duration timeout, String what) {
        CompletableFuture<T> out = new CompletableFuture<>();
        op.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS).whenComplete((value, error) -> {
            if (error == null) {
                out.complete(value);
                return;
            }
            Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            out.completeExceptionally(cause instanceof TimeoutException ? FabricException.timedOut(what, timeout)
                    : cause);
        });
        return out;
    }

    /** The operation's result, waiting at most {@code timeout}. */
    public static <T> T result(CompletableFuture<T> op, Duration timeout, String what) {
        try {
            return op.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw FabricException.timedOut(what, timeout);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof FerryException f) {
                throw f;
            }
            throw new FabricException(SqlStates.CONNECTION_FAILURE, what + " failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FabricException(SqlStates.QUERY_CANCELED, what + " was interrupted");
        }
    }
}
