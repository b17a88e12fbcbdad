package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.ferry.core.vector.Batch;

/** Keeps a thread's batches; with a shared row budget (a LIMIT without ORDER BY), stops once it is spent. */
public final class CollectSink implements Sink {
    private final List<Batch> batches = new ArrayList<>();
    private final AtomicLong remaining;

    public CollectSink() {
        this(null);
    }

    /** @param remaining the rows still wanted, shared by the threads' sinks; null for all rows */
    public CollectSink(AtomicLong remaining) {
        this.remaining = remaining;
    }

    @Override
    public void consume(Batch batch) {
        batches.add(batch);
        if (remaining != null) {
            remaining.addAndGet(-batch.rowCount());
        }
    }

    @Override
    public boolean satisfied() {
        return remaining != null && remaining.get() <= 0;
    }

    @Override
    public boolean keepsRows() {
        return true;
    }

    public List<Batch> batches() {
        return batches;
    }

    /** The batches of every sink, in the sinks' order. */
    public static List<Batch> all(List<CollectSink> sinks) {
        List<Batch> out = new ArrayList<>();
        for (CollectSink s : sinks) {
            out.addAll(s.batches);
        }
        return out;
    }
}
