package io.ferry.core.exec;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Independent parts of one operator's work (the hash parts of an aggregation's merge) done on the calling thread and
 * on the executor's pool at once: every thread claims the next part until none is left, the caller among them, so
 * the work never waits for a pool thread that is busy elsewhere — a pool task that starts late finds nothing left.
 */
final class ParallelParts {
    private ParallelParts() {
    }

    /**
     * Runs {@code work} for parts {@code 0 .. parts}, on up to {@code helpers} pool threads and this one; returns when
     * every part is done, so what the parts wrote is visible to the caller.
     */
    static void run(int parts, Executor pool, int helpers, IntConsumer work) {
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(parts);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable claim = () -> {
            for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                try {
                    if (failure.get() == null) {
                        work.accept(p);
                    }
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }
        };
        for (int h = 0; h < Math.min(helpers, parts - 1); h++) {
            pool.execute(claim);
        }
        claim.run();
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FerryException(SqlStates.QUERY_CANCELED, "query interrupted");
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }
}
