package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.Batch;

/**
 * Runs a {@link Pipeline} with morsel-driven parallelism: up to {@code threads} drivers, each with a sink of its own,
 * pull morsels from a {@link MorselClaims} until none is left (or their sink is satisfied), and push each morsel's
 * batches through the pipeline's operators into their sink. The caller's thread is one of the drivers.
 */
public final class PipelineDriver {
    private final ExecutorService pool;
    private final int threads;

    public PipelineDriver(ExecutorService pool, int threads) {
        this.pool = pool;
        this.threads = threads;
    }

    /** Every morsel of {@code p}'s source, in a sink per driver. */
    public <S extends Sink> List<S> run(Pipeline p, Supplier<S> sinks, QueryContext ctx) {
        int morsels = p.source().morsels();
        return run(p, p.source().claims(0, morsels), morsels, sinks, ctx);
    }

    /**
     * The morsels {@code claims} hands out, in a sink per driver; the sinks, once every driver has stopped.
     *
     * @param most how many morsels the claims may hand out at most: no more drivers than that start
     */
    public <S extends Sink> List<S> run(Pipeline p, MorselClaims claims, int most, Supplier<S> sinks,
            QueryContext ctx) {
        boolean transientBytes = p.source().transientBytes();
        int drivers = Math.max(1, Math.min(threads, most));
        List<S> created = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<?>> futures = new ArrayList<>(drivers);
        for (int d = 0; d < drivers; d++) {
            S sink = sinks.get();
            created.add(sink);
            Runnable driver = () -> {
                try {
                    while (!failed.get() && !sink.satisfied()) {
                        int m = claims.claim();
                        if (m < 0) {
                            break;
                        }
                        ctx.check();
                        sink.morselStart(m);
                        p.source().read(m, batch -> flow(p.transforms(), 0, batch, b -> {
                            if (transientBytes && sink.keepsRows()) {
                                b.materialize(); // the block's bytes go when read() returns
                            }
                            sink.consume(b);
                        }, ctx));
                        sink.morselDone();
                    }
                } catch (RuntimeException | Error e) {
                    failed.set(true);
                    throw e;
                }
            };
            if (drivers == 1) {
                driver.run();
            } else {
                futures.add(pool.submit(driver));
            }
        }
        RuntimeException first = null;
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = asRuntime(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failed.set(true);
                first = new FerryException(SqlStates.QUERY_CANCELED, "query interrupted");
            }
        }
        if (first != null) {
            throw first;
        }
        return created;
    }

    /**
     * Sends a batch through {@code transforms} from {@code from} on, handing each non-empty batch that comes out to
     * {@code out}: in slices where an operator asks for fewer rows, checking for cancellation once per batch, since
     * a block can take seconds when a join multiplies its rows.
     */
    public static void flow(List<Transform> transforms, int from, Batch in, Consumer<Batch> out, QueryContext ctx) {
        ctx.check();
        Batch b = in;
        for (int i = from; i < transforms.size(); i++) {
            Transform t = transforms.get(i);
            int max = t.maxInputRows();
            if (b.rowCount() > max) {
                for (int off = 0; off < b.rowCount(); off += max) {
                    flow(transforms, i, b.slice(off, max), out, ctx);
                }
                return;
            }
            b = t.apply(b);
            if (b.rowCount() == 0) {
                return;
            }
        }
        out.accept(b);
    }

    static RuntimeException asRuntime(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof OutOfMemoryError) {
            return new FerryException(SqlStates.OUT_OF_MEMORY, "the server ran out of heap memory during the query; "
                    + "lower --query-memory or give the JVM more heap (-Xmx)", t);
        }
        return new FerryException(SqlStates.INTERNAL_ERROR, "internal error: " + t, t);
    }
}
