package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executor;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;

/**
 * Partial aggregate states merged into one row of states per group: in one hash table while the groups fit the
 * query's memory, else part by part. Once the query holds a third of its memory ({@link QueryMemory#shouldSpill}), a
 * table (a thread's partial, or the merge's own) is written to {@link SpillPartitions} by a hash of its group keys and
 * emptied; at the end each part is merged alone, equal keys being in one part, and a part still too large is split
 * again one level deeper. States merge associatively, so a group's rows may be folded in any number of steps.
 */
final class AggregateMerge {
    /** 32^4 parts at most: a million times the memory, beyond which the query fails with 53200 as before. */
    private static final int MAX_LEVEL = 4;
    /** Groups below which merging on one thread beats splitting the states among threads. */
    private static final long PARALLEL_GROUPS = 1 << 16;
    /** The hash level of the in-memory split, unlike any spill level's, so a part's spill spreads over all files. */
    private static final int SPLIT_LEVEL = 7;

    private final List<FerryType> stateTypes;
    private final int[] keys;
    private final List<AggCall> calls;
    private final QueryContext ctx;
    private final SpillSpace space;
    private final Executor pool;
    private final int threads;
    private SpillPartitions partials;
    /** States of tables handed over before the end ({@link #hold}), and the memory they reserved. */
    private final List<Batch> held = new ArrayList<>();
    private long heldBytes;

    /**
     * @param keys the group keys among the state columns
     * @param space where tables go when memory runs short (if the query's memory has a spill directory)
     * @param pool where parts of a large merge run beside this thread, on up to {@code threads - 1} of its threads
     */
    AggregateMerge(List<FerryType> stateTypes, int[] keys, List<AggCall> calls, QueryContext ctx, SpillSpace space,
            Executor pool, int threads) {
        this.pool = pool;
        this.threads = threads;
        this.stateTypes = stateTypes;
        this.keys = keys;
        this.calls = calls;
        this.ctx = ctx;
        this.space = space;
    }

    /** Whether a table should go to disk now; a grand total (no keys) is one row and never does. */
    boolean shouldSpill(HashAggregator table) {
        return keys.length > 0 && ctx.memory().shouldSpill(table::footprint);
    }

    /** Writes a thread's partial states to disk by part, and closes its table. */
    void spill(HashAggregator partial) {
        SpillPartitions parts;
        synchronized (this) {
            if (partials == null) {
                partials = new SpillPartitions(space, stateTypes, keys, 0);
            }
            parts = partials;
        }
        try {
            parts.add(partial.result());
        } finally {
            partial.close();
        }
    }

    /**
     * Takes a thread's table before the end ({@link AggregateSink}): its states wait here for the merge, or on disk
     * when memory is short; the table is closed.
     */
    void hold(HashAggregator partial) {
        long bytes = partial.footprint();
        if (ctx.memory().shouldSpillBefore(bytes)) {
            spill(partial);
            return;
        }
        List<Batch> states;
        try {
            states = partial.result();
        } finally {
            partial.close();
        }
        ctx.memory().reserve(bytes);
        synchronized (this) {
            held.addAll(states);
            heldBytes += bytes;
        }
    }

    /** The states of every sink's table merged, one row per group; the tables are closed. */
    List<Batch> merge(List<AggregateSink> sinks) {
        try {
            if (partials != null) {
                if (!held.isEmpty()) {
                    partials.add(held);
                }
                for (AggregateSink s : sinks) {
                    ctx.check();
                    spill(s.aggregator());
                }
                return mergeParts(partials, 1);
            }
            long groups = sinks.stream().mapToLong(s -> s.aggregator().groupCount()).sum() + Batch.totalRows(held);
            boolean parallel = pool != null && threads > 1 && keys.length > 0 && groups >= PARALLEL_GROUPS;
            return mergeInMemory(sinks, parallel ? 4 * threads : 1);
        } finally {
            held.clear();
            ctx.memory().release(heldBytes);
            heldBytes = 0;
        }
    }

    /**
     * The sinks' states split by a hash of the group keys into {@code parts}, equal keys in one part, and the parts
     * merged at once on all threads (radix-partitioned aggregation): the merge of a million groups is otherwise one
     * thread's work after the threads have aggregated in parallel. One part is the plain merge on this thread.
     */
    private List<Batch> mergeInMemory(List<AggregateSink> sinks, int parts) {
        List<Batch> states = new ArrayList<>(held);
        for (AggregateSink s : sinks) {
            ctx.check();
            try {
                states.addAll(s.aggregator().result());
            } finally {
                s.aggregator().close();
            }
        }
        List<List<Batch>> split = new HashPartitioner(keys, parts, SPLIT_LEVEL).split(states);
        // each part's slot is written by one thread before ParallelParts.run returns, which orders it before the reads
        List<List<Batch>> merged = new ArrayList<>(Collections.nCopies(parts, List.<Batch>of()));
        ParallelParts.run(parts, pool, threads - 1, p -> {
            // the part's states are at most its groups: room for them at once
            Merger m = new Merger(0, (int) Math.min(Integer.MAX_VALUE, Batch.totalRows(split.get(p))));
            try {
                for (Batch b : split.get(p)) {
                    ctx.check();
                    m.add(b);
                }
                merged.set(p, m.finish());
            } finally {
                m.close();
            }
        });
        List<Batch> out = new ArrayList<>();
        merged.forEach(out::addAll);
        return out;
    }

    private List<Batch> mergeParts(SpillPartitions parts, int level) {
        List<Batch> out = new ArrayList<>();
        try {
            for (int p = 0; p < SpillPartitions.PARTS; p++) {
                SpillFile f = parts.part(p);
                if (f == null) {
                    continue;
                }
                Merger m = new Merger(level, 0);
                try {
                    for (Iterator<Batch> it = f.batches(); it.hasNext();) {
                        ctx.check();
                        m.add(it.next());
                    }
                    f.delete();
                    out.addAll(m.finish());
                } finally {
                    m.close();
                }
            }
            return out;
        } finally {
            parts.delete();
        }
    }

    /** One merge table; when memory runs short it goes to disk by part, one level deeper than its input. */
    private final class Merger {
        private final int level;
        private HashAggregator table;
        private SpillPartitions parts;

        /** @param expected the groups its first table makes room for (0: unknown) */
        Merger(int level, int expected) {
            this.level = level;
            this.table = new HashAggregator(stateTypes, keys, calls, ctx.memory(), expected);
        }

        void add(Batch states) {
            table.add(states);
            if (level < MAX_LEVEL && shouldSpill(table)) {
                if (parts == null) {
                    parts = new SpillPartitions(space, stateTypes, keys, level);
                }
                parts.add(table.result());
                table.close();
                table = new HashAggregator(stateTypes, keys, calls, ctx.memory());
            }
        }

        List<Batch> finish() {
            List<Batch> merged = table.result();
            if (parts == null) {
                return merged;
            }
            parts.add(merged);
            close();
            return mergeParts(parts, level + 1);
        }

        void close() {
            if (table != null) {
                table.close();
                table = null;
            }
        }
    }
}
