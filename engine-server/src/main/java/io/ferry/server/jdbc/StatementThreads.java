package io.ferry.server.jdbc;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads statements are planned and run on. Parsing, validation and planning recurse over the statement's
 * tree, one level per nested expression or subquery: on a request thread's default stack, 3000 chained NOTs or 500
 * nested subqueries overflowed it. These threads have a deep stack (reserved address space, committed only as it is
 * used); a statement deeper still fails with 54001 ({@code SqlErrors}).
 */
final class StatementThreads implements AutoCloseable {
    static final long STACK_BYTES = 512L << 20;

    private final AtomicInteger ids = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(null, r, "ferry-statement-" + ids.incrementAndGet(), STACK_BYTES);
        t.setDaemon(true);
        return t;
    });

    /** A request's work, and the checked exception it may throw. */
    interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /** Runs {@code work} on a deep-stack thread and waits for it; its exceptions reach the caller as they were. */
    @SuppressWarnings("unchecked")
    <T, E extends Exception> T run(Work<T, E> work) throws E {
        Future<T> future = pool.submit(work::run);
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error err) {
                throw err;
            }
            throw (E) cause; // a RuntimeException, or the E that work.run() declares
        } catch (InterruptedException | CancellationException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the request was interrupted", e);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
