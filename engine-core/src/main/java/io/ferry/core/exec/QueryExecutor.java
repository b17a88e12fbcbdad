package io.ferry.core.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.Evaluator;
import io.ferry.core.expr.Expr;
import io.ferry.core.expr.ExprCompiler;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Op;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BatchConcat;
import io.ferry.core.vector.Vector;

/**
 * Runs a {@link PlanNode} tree with morsel-driven parallelism: the tree is cut into pipelines at the
 * operators that must see all their input (aggregate, join build, sort); each pipeline runs on up to
 * {@code threads} threads that claim morsels (blocks) one at a time, stream them through the pipeline's
 * transforms, and feed a per-thread sink whose states are merged at the end.
 */
public final class QueryExecutor implements AutoCloseable {
    private final int threads;
    private final ExecutorService pool;

    public QueryExecutor(int threads) {
        this.threads = threads;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "ferry-exec-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.pool = Executors.newFixedThreadPool(threads, factory);
    }

    public int threads() {
        return threads;
    }

    /**
     * Runs the plan to completion, every morsel of its top pipeline at once ({@link #stream} read to its end); the
     * batches are decoded while the query still holds its blocks.
     */
    public List<Batch> execute(PlanNode plan, QueryContext ctx) {
        try (BatchStream rows = stream(plan, ctx)) {
            return rows.drain();
        }
    }

    /**
     * The plan's rows as they are read. What must see all its input first (a join's build side, an aggregate, a
     * sort, a window) runs now; the streaming part on top (scans, filters, projections, join probes, unions) runs a
     * wave of a few morsels each time the reader has read the rows of the last wave. So the first rows come after
     * the first morsels whatever the result's size, the rows held at once are those of one wave, and a reader that
     * stops early (a LIMIT in the client, a closed result set) stops the work. Rows come in morsel order.
     */
    public BatchStream stream(PlanNode plan, QueryContext ctx) {
        AtomicBoolean closed = new AtomicBoolean();
        Run run = new Run(ctx.stoppedBy(() -> closed.get() ? new FerryException(SqlStates.QUERY_CANCELED,
                "the result was closed while its rows were being made") : null));
        try {
            return new MorselStream(run, run.pipeline(plan), closed);
        } catch (RuntimeException | Error e) {
            run.close();
            throw e;
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** {@link #stream}'s result: the top pipeline's morsels, one wave at a time. */
    private final class MorselStream implements BatchStream {
        private final Run run;
        private final Pipeline pipeline;
        private final AtomicBoolean closed;
        private final ArrayDeque<Batch> ready = new ArrayDeque<>();
        private final int morsels;
        private int next;
        private boolean ended;
        /** When the last wave ended: the time until the next is the reader's ({@link QueryContext#extendDeadline}). */
        private long waveEnded;

        MorselStream(Run run, Pipeline pipeline, AtomicBoolean closed) {
            this.run = run;
            this.pipeline = pipeline;
            this.closed = closed;
            this.morsels = pipeline.source().morsels();
            this.waveEnded = System.nanoTime();
        }

        @Override
        public synchronized Batch next() {
            while (ready.isEmpty()) {
                if (ended || next >= morsels) {
                    end();
                    return null;
                }
                // a wave keeps every thread busy; the first is as small as that allows, for the first rows' sake
                wave(Math.min(morsels, next + threads * (next == 0 ? 1 : 2)));
            }
            return ready.poll();
        }

        @Override
        public synchronized List<Batch> drain() {
            List<Batch> out = new ArrayList<>(ready);
            ready.clear();
            if (!ended && next < morsels) {
                wave(morsels);
                out.addAll(ready);
                ready.clear();
            }
            end();
            return out;
        }

        private void wave(int to) {
            run.ctx.extendDeadline(System.nanoTime() - waveEnded);
            try {
                ready.addAll(run.morsels(pipeline, next, to));
            } catch (RuntimeException | Error e) {
                end();
                throw e;
            }
            next = to;
            waveEnded = System.nanoTime();
        }

        /** Frees what the query holds; the rows already made stay readable. */
        private void end() {
            if (!ended) {
                ended = true;
                run.close();
            }
        }

        @Override
        public void close() {
            closed.set(true); // a wave running now stops at its next check, and lets go of the lock
            synchronized (this) {
                ready.clear();
                end();
            }
        }
    }

    /** A plan by its wire form ({@link PlanCodec}), equal for equal plans, whatever their records' identity. */
    private record PlanKey(byte[] bytes) {
        /**
         * The key of {@code plan}, or null where running it twice may give other rows (a sample without REPEATABLE
         * draws a seed per run of its scan, RANDOM() per row), where it gathers from other nodes (the gatherer
         * plans each gather of a query), or where the wire form cannot hold it (nested beyond its depth).
         */
        static PlanKey of(PlanNode plan) {
            if (!sameRowsEachRun(plan)) {
                return null;
            }
            try {
                return new PlanKey(PlanCodec.encode(plan));
            } catch (FerryException e) {
                return null;
            }
        }

        private static boolean sameRowsEachRun(PlanNode node) {
            if (node instanceof PlanNode.Gather
                    || node instanceof PlanNode.Scan s && s.sample() != null && !s.sample().repeatable()
                    || node instanceof PlanNode.Filter f && random(f.condition())
                    || node instanceof PlanNode.Project p && p.exprs().stream().anyMatch(PlanKey::random)
                    || node instanceof PlanNode.Join j && j.residual() != null && random(j.residual())) {
                return false;
            }
            for (PlanNode input : node.inputs()) {
                if (!sameRowsEachRun(input)) {
                    return false;
                }
            }
            return true;
        }

        private static boolean random(Expr e) {
            return e instanceof Call c && (c.op() == Op.RANDOM || c.args().stream().anyMatch(PlanKey::random));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PlanKey k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** A pipeline: a source and the transforms its batches go through. */
    private record Pipeline(Source source, List<Transform> transforms) {
        Pipeline then(Transform t) {
            List<Transform> next = new ArrayList<>(transforms);
            next.add(t);
            return new Pipeline(source, next);
        }
    }

    /** One sink per thread; sinks are merged after the pipeline has drained. */
    private interface Sink {
        void consume(Batch batch);

        default boolean satisfied() {
            return false;
        }

        /** Whether the sink keeps the batches it is given (rather than folding them into state at once). */
        default boolean keepsRows() {
            return false;
        }

        /** The thread claimed morsel {@code morsel}; its batches come next. */
        default void morselStart(int morsel) {
        }

        /** Every batch of the morsel the thread claimed has been consumed (a scan's morsel is one whole block). */
        default void morselDone() {
        }
    }

    /** The state of one execution: table versions it holds and the hash tables it built. */
    private final class Run implements AutoCloseable {
        private final QueryContext ctx;
        private final List<BlockSource> sources = new ArrayList<>();
        private final List<Runnable> cleanups = new ArrayList<>();
        /**
         * The rows of the aggregates, sorts and windows computed so far, by their wire form: a subplan that occurs
         * twice in one plan runs once. A FULL join is planned as a LEFT join and an ANTI join over the same two
         * inputs (FullJoins in engine-sql), each read once as a probe side and once as a build side. Consumers only
         * read the batches.
         */
        private final Map<PlanKey, List<Batch>> computed = new HashMap<>();

        Run(QueryContext ctx) {
            this.ctx = ctx;
        }

        List<Batch> materialize(PlanNode node) {
            if (node instanceof PlanNode.Aggregate || node instanceof PlanNode.MergeAggregate
                    || node instanceof PlanNode.Sort || node instanceof PlanNode.Window) {
                PlanKey key = PlanKey.of(node);
                if (key == null) {
                    return compute(node);
                }
                List<Batch> done = computed.get(key);
                if (done == null) {
                    done = compute(node);
                    computed.put(key, done);
                } else {
                    // two consumers may now read a batch at once (the two inputs of a union run together): no column
                    // may be left to make on first use. Nothing runs yet that reads these batches: pipelines are
                    // built, and their breakers computed, before their streaming parts start.
                    for (Batch b : done) {
                        b.materialize();
                    }
                }
                return done;
            }
            return compute(node);
        }

        /** The rows of {@code node}: a pipeline breaker's, or a pipeline's collected. */
        private List<Batch> compute(PlanNode node) {
            return node.accept(breakers);
        }

        private Pipeline pipeline(PlanNode node) {
            return node.accept(pipelines);
        }

        /** The nodes that need all their input before they give a row: aggregates, sorts, windows. */
        private final PlanVisitor<List<Batch>> breakers = new PlanVisitor.Partial<>() {
            @Override
            protected List<Batch> otherwise(PlanNode node) {
                List<CollectSink> sinks = run(pipeline(node), CollectSink::new);
                List<Batch> out = new ArrayList<>();
                for (CollectSink s : sinks) {
                    out.addAll(s.batches);
                }
                return out;
            }

            @Override
            public List<Batch> aggregate(PlanNode.Aggregate agg) {
                return Run.this.aggregate(agg, true);
            }

            @Override
            public List<Batch> partialAggregate(PlanNode.PartialAggregate partial) {
                return Run.this.aggregate(partial.aggregate(), false);
            }

            @Override
            public List<Batch> mergeAggregate(PlanNode.MergeAggregate merge) {
                return Run.this.mergeAggregate(merge);
            }

            @Override
            public List<Batch> sort(PlanNode.Sort sort) {
                return Run.this.sort(sort);
            }

            @Override
            public List<Batch> window(PlanNode.Window window) {
                return Run.this.window(window);
            }
        };

        /**
         * The streaming part of a plan as a source and the transforms its batches flow through; a node that needs all
         * its input first ({@link #breakers}) is computed, and its rows are the source.
         */
        private final PlanVisitor<Pipeline> pipelines = new PlanVisitor.Partial<>() {
            @Override
            protected Pipeline otherwise(PlanNode node) {
                return new Pipeline(Source.of(materialize(node)), List.of());
            }

            @Override
            public Pipeline scan(PlanNode.Scan scan) {
                SampleSpec sample = scan.sample() == null ? null : scan.sample().forExecution();
                BlockSource blocks = ctx.binder().bind(scan, sample);
                sources.add(blocks);
                return new Pipeline(new ScanSource(blocks, scan.columns(), scan.types(), sample), List.of());
            }

            @Override
            public Pipeline gather(PlanNode.Gather gather) {
                List<Batch> rows = ctx.gatherer() == null ? materialize(gather.fragment())
                        : ctx.gatherer().gather(gather, ctx);
                return new Pipeline(Source.of(rows), List.of());
            }

            @Override
            public Pipeline filter(PlanNode.Filter filter) {
                return pipeline(filter.input()).then(filterTransform(filter));
            }

            @Override
            public Pipeline project(PlanNode.Project project) {
                List<Expr> list = project.exprs();
                List<Evaluator> exprs = ExprCompiler.compileAll(list);
                int[] carried = new int[list.size()];
                for (int i = 0; i < carried.length; i++) {
                    carried[i] = list.get(i) instanceof InputRef ref ? ref.index() : -1;
                }
                return pipeline(project.input()).then(b -> {
                    // Plain column references pass through still pending: projecting must not decode them.
                    // Expressions go first, so a column they decode is carried over decoded, not decoded again.
                    Batch.Builder out = Batch.builder(b.rowCount(), carried.length);
                    for (int i = 0; i < carried.length; i++) {
                        if (carried[i] < 0) {
                            out.set(i, exprs.get(i).eval(b));
                        }
                    }
                    for (int i = 0; i < carried.length; i++) {
                        if (carried[i] >= 0) {
                            out.carry(i, b, carried[i]);
                        }
                    }
                    return out.build();
                });
            }

            @Override
            public Pipeline join(PlanNode.Join join) {
                JoinHashTable table;
                try {
                    table = new JoinHashTable(buildSide(join.right()), join.rightKeys(), join.nullsMatch(),
                            ctx.memory());
                } catch (FerryException e) {
                    throw buildTooLarge(join.right(), e);
                }
                cleanups.add(table::close);
                Evaluator residual = join.residual() == null ? null : ExprCompiler.compile(join.residual());
                return pipeline(join.left()).then(new HashJoinProbe(table, join.leftKeys(), join.kind(), residual));
            }

            @Override
            public Pipeline values(PlanNode.Values values) {
                return new Pipeline(Source.of(List.of(values.rows())), List.of());
            }

            @Override
            public Pipeline union(PlanNode.Union union) {
                // One source over every input's morsels: the threads stream all inputs at once into the sink above,
                // each batch through its own input's transforms first.
                List<Pipeline> branches = new ArrayList<>();
                for (PlanNode input : union.inputs()) {
                    branches.add(pipeline(input));
                }
                List<Source> sources = branches.stream().map(Pipeline::source).toList();
                return new Pipeline(new ConcatSource(sources,
                        (branch, batch, out) -> flow(branches.get(branch).transforms(), 0, batch, out)), List.of());
            }

            @Override
            public Pipeline replicate(PlanNode.Replicate replicate) {
                return pipeline(replicate.input()).then(new Replicator(replicate.countColumn()));
            }
        };

        /** Conjuncts one after another, narrowing the batch between them: later ones see only surviving rows. */
        private Transform filterTransform(PlanNode.Filter filter) {
            List<Expr> conjuncts = new ArrayList<>();
            flattenAnd(filter.condition(), conjuncts);
            List<RowSelector> steps = RowSelector.forConjuncts(conjuncts);
            return b -> {
                Batch cur = b;
                for (RowSelector step : steps) {
                    int n = cur.rowCount();
                    int[] passed = new int[n];
                    int count = step.select(cur, passed);
                    if (count < n) {
                        cur = cur.gather(passed, count);
                    }
                    if (count == 0) {
                        break;
                    }
                }
                return cur;
            };
        }

        /**
         * Each thread aggregates its morsels into partial states; the states are merged, then finished (AVG divided)
         * unless {@code finish} is false, when the merged states are the output (a worker's side of the split).
         */
        private List<Batch> aggregate(PlanNode.Aggregate agg, boolean finish) {
            AggregatePlan plan = new AggregatePlan(agg);
            List<FerryType> inputTypes = agg.input().types();
            List<AggSink> partials = run(pipeline(agg.input()),
                    () -> new AggSink(new HashAggregator(inputTypes, agg.groupKeys(), plan.partialCalls(), ctx.memory())));
            return merge(agg, plan, plan.partialTypes(inputTypes), partials, finish);
        }

        /** Rows of partial states (from other nodes and this one) merged and finished. */
        private List<Batch> mergeAggregate(PlanNode.MergeAggregate node) {
            AggregatePlan plan = new AggregatePlan(node.aggregate());
            List<FerryType> stateTypes = plan.partialTypes(node.aggregate().input().types());
            List<AggSink> partials = run(pipeline(node.partials()),
                    () -> new AggSink(new HashAggregator(stateTypes, plan.finalKeys(), plan.finalCalls(), ctx.memory())));
            return merge(node.aggregate(), plan, stateTypes, partials, true);
        }

        /**
         * The threads' states merged by all group keys; finished unless {@code finish} is false. Grouping sets are
         * derived from the merged states here, where every partial has arrived ({@link GroupingSets}).
         */
        private List<Batch> merge(PlanNode.Aggregate agg, AggregatePlan plan, List<FerryType> stateTypes,
                List<AggSink> partials, boolean finish) {
            HashAggregator merge = new HashAggregator(stateTypes, plan.finalKeys(), plan.finalCalls(), ctx.memory());
            try {
                for (AggSink s : partials) {
                    ctx.check();
                    for (Batch b : s.aggregator.result()) {
                        merge.add(b);
                    }
                    s.aggregator.close();
                }
                if (finish && agg.grouped()) {
                    int keys = agg.groupKeys().length;
                    return new GroupingSets(plan, agg, stateTypes.subList(0, keys),
                            stateTypes.subList(keys, stateTypes.size()), ctx.memory()).expand(merge.result(), ctx::check);
                }
                List<Batch> out = new ArrayList<>();
                for (Batch b : merge.result()) {
                    out.add(finish ? plan.finish(b) : b);
                }
                return out;
            } finally {
                merge.close();
            }
        }

        private List<Batch> sort(PlanNode.Sort sort) {
            long limit = sort.fetch() < 0 ? Long.MAX_VALUE : sort.offset() + sort.fetch();
            List<FerryType> types = sort.types();
            if (sort.keys().isEmpty()) {
                AtomicLong remaining = new AtomicLong(limit);
                List<CollectSink> sinks = run(pipeline(sort.input()), () -> new CollectSink(remaining));
                List<Batch> all = new ArrayList<>();
                for (CollectSink s : sinks) {
                    all.addAll(s.batches);
                }
                return slice(all, types, sort.offset(), limit);
            }
            List<SortSink> sinks = run(pipeline(sort.input()), () -> new SortSink(sort.keys(), types, limit, ctx.memory()));
            List<Batch> all = new ArrayList<>();
            for (SortSink s : sinks) {
                all.addAll(s.drain());
            }
            Batch merged = BatchConcat.concat(nonEmpty(all, types), types);
            int[] order = Sorter.order(merged, sort.keys());
            int from = (int) Math.min(sort.offset(), order.length);
            int to = (int) Math.min(limit, order.length);
            int[] picked = java.util.Arrays.copyOfRange(order, from, Math.max(from, to));
            return List.of(merged.gather(picked, picked.length));
        }

        /**
         * A join's build side in one batch, its rows counted against the query's memory as they arrive (I-Store DPE
         * section 4.2: the build partitions a node streams in must fit it), so that a build side too large fails with
         * 53200 rather than exhausting the heap.
         */
        private Batch buildSide(PlanNode build) {
            List<FerryType> types = build.types();
            long perRow = 16L * Math.max(1, types.size());
            List<Batch> batches = new ArrayList<>();
            if (build instanceof PlanNode.Aggregate || build instanceof PlanNode.MergeAggregate
                    || build instanceof PlanNode.Sort || build instanceof PlanNode.Window) {
                batches.addAll(materialize(build));
                long bytes = perRow * Batch.totalRows(batches);
                ctx.memory().reserve(bytes);
                cleanups.add(() -> ctx.memory().release(bytes));
            } else {
                for (BuildSink sink : run(pipeline(build), () -> new BuildSink(ctx.memory(), perRow))) {
                    batches.addAll(sink.batches);
                    cleanups.add(() -> ctx.memory().release(sink.reserved));
                }
            }
            return BatchConcat.concat(nonEmpty(batches, types), types);
        }

        /** 53200 naming the tables a build side reads and the setting to raise; any other error as it is. */
        private FerryException buildTooLarge(PlanNode build, FerryException e) {
            if (!SqlStates.OUT_OF_MEMORY.equals(e.sqlState())) {
                return e;
            }
            java.util.Set<String> tables = new java.util.TreeSet<>();
            for (PlanNode.Scan scan : PlanCodec.scans(build)) {
                tables.add(scan.table().name());
            }
            return new FerryException(SqlStates.OUT_OF_MEMORY, String.format(java.util.Locale.ROOT,
                    "the build side of a join (reading %s) needs more than the query memory limit of %,d bytes; "
                            + "filter that side, or raise --query-memory of the node that runs the join (in a "
                            + "cluster: each compute server or worker)", tables.isEmpty() ? "no table"
                            : String.join(", ", tables), ctx.memory().limit()), e);
        }

        /** Every input row in one batch, then the window functions over them ({@link WindowOperator}). */
        private List<Batch> window(PlanNode.Window window) {
            List<FerryType> types = window.input().types();
            Batch all = BatchConcat.concat(nonEmpty(materialize(window.input()), types), types);
            // the sorted copy, the frame and partition arrays and the calls' columns, roughly
            long bytes = 16L * all.rowCount() * (types.size() + window.calls().size() + 6);
            ctx.memory().reserve(bytes);
            try {
                return List.of(new WindowOperator(window, ctx::check).apply(all));
            } finally {
                ctx.memory().release(bytes);
            }
        }

        private List<Batch> slice(List<Batch> all, List<FerryType> types, long offset, long limit) {
            Batch merged = BatchConcat.concat(nonEmpty(all, types), types);
            int from = (int) Math.min(offset, merged.rowCount());
            int to = (int) Math.min(limit, merged.rowCount());
            return List.of(merged.slice(from, Math.max(0, to - from)));
        }

        /**
         * Sends a batch through the transforms from {@code from} on into the sink, in slices where a transform asks
         * for fewer rows, and checks for cancellation once per batch: a block can take seconds when a join
         * multiplies its rows.
         */
        private void push(List<Transform> transforms, int from, Batch in, Sink sink, boolean transientBytes) {
            flow(transforms, from, in, b -> {
                if (transientBytes && sink.keepsRows()) {
                    b.materialize(); // the block's bytes go when read() returns
                }
                sink.consume(b);
            });
        }

        /** {@link #push}'s walk through the transforms, handing each non-empty batch that comes out to {@code out}. */
        private void flow(List<Transform> transforms, int from, Batch in, Consumer<Batch> out) {
            ctx.check();
            Batch b = in;
            for (int i = from; i < transforms.size(); i++) {
                Transform t = transforms.get(i);
                int max = t.maxInputRows();
                if (b.rowCount() > max) {
                    for (int off = 0; off < b.rowCount(); off += max) {
                        flow(transforms, i, b.slice(off, max), out);
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

        /** Morsels {@code [from, to)} of {@code p}'s top pipeline, their batches decoded and in morsel order. */
        List<Batch> morsels(Pipeline p, int from, int to) {
            Map<Integer, List<Batch>> byMorsel = new TreeMap<>();
            for (MorselSink sink : run(p, from, to, MorselSink::new)) {
                byMorsel.putAll(sink.done);
            }
            List<Batch> out = new ArrayList<>();
            byMorsel.values().forEach(out::addAll);
            return out;
        }

        private <S extends Sink> List<S> run(Pipeline p, Supplier<S> sinks) {
            return run(p, 0, p.source().morsels(), sinks);
        }

        private <S extends Sink> List<S> run(Pipeline p, int from, int to, Supplier<S> sinks) {
            int morsels = to - from;
            boolean transientBytes = p.source().transientBytes();
            int drivers = Math.max(1, Math.min(threads, morsels));
            List<S> created = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger next = new AtomicInteger();
            AtomicBoolean failed = new AtomicBoolean();
            List<Future<?>> futures = new ArrayList<>(drivers);
            for (int d = 0; d < drivers; d++) {
                S sink = sinks.get();
                created.add(sink);
                Runnable driver = () -> {
                    try {
                        while (!failed.get() && !sink.satisfied()) {
                            int m = from + next.getAndIncrement();
                            if (m >= to) {
                                break;
                            }
                            ctx.check();
                            sink.morselStart(m);
                            p.source().read(m, batch -> push(p.transforms(), 0, batch, sink, transientBytes));
                            sink.morselDone();
                        }
                    } catch (RuntimeException | Error e) {
                        failed.set(true);
                        throw e;
                    }
                };
                futures.add(drivers == 1 ? null : pool.submit(driver));
                if (drivers == 1) {
                    driver.run();
                }
            }
            RuntimeException first = null;
            for (Future<?> f : futures) {
                if (f == null) {
                    continue;
                }
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

        @Override
        public void close() {
            for (Runnable r : cleanups) {
                r.run();
            }
            for (BlockSource s : sources) {
                s.close();
            }
        }
    }

    private static RuntimeException asRuntime(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof OutOfMemoryError) {
            return new FerryException(SqlStates.OUT_OF_MEMORY, "the server ran out of heap memory during the query; "
                    + "lower --query-memory or give the JVM more heap (-Xmx)", t);
        }
        return new FerryException(SqlStates.INTERNAL_ERROR, "internal error: " + t, t);
    }

    private static List<Batch> nonEmpty(List<Batch> batches, List<FerryType> types) {
        if (!batches.isEmpty()) {
            return batches;
        }
        Vector[] cols = new Vector[types.size()];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = Vector.allNull(types.get(i).physical(), 0);
        }
        return List.of(new Batch(0, cols));
    }

    private static void flattenAnd(Expr e, List<Expr> out) {
        if (e instanceof Call c && c.op() == Op.AND) {
            for (Expr a : c.args()) {
                flattenAnd(a, out);
            }
        } else {
            out.add(e);
        }
    }

    private static final class CollectSink implements Sink {
        final List<Batch> batches = new ArrayList<>();
        private final AtomicLong remaining;

        CollectSink() {
            this(null);
        }

        CollectSink(AtomicLong remaining) {
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
    }

    /** A thread's share of a join's build side, each batch reserved against the query's memory as it arrives. */
    private static final class BuildSink implements Sink {
        final List<Batch> batches = new ArrayList<>();
        private final QueryMemory memory;
        private final long perRow;
        long reserved;

        BuildSink(QueryMemory memory, long perRow) {
            this.memory = memory;
            this.perRow = perRow;
        }

        @Override
        public void consume(Batch batch) {
            long bytes = perRow * batch.rowCount();
            memory.reserve(bytes);
            reserved += bytes;
            batches.add(batch);
        }

        @Override
        public boolean keepsRows() {
            return true;
        }
    }

    /** A thread's morsels of a streamed result, each morsel's batches decoded here, on the thread that made them. */
    private static final class MorselSink implements Sink {
        final Map<Integer, List<Batch>> done = new HashMap<>();
        private List<Batch> current;

        @Override
        public void morselStart(int morsel) {
            current = new ArrayList<>();
            done.put(morsel, current);
        }

        @Override
        public void consume(Batch batch) {
            current.add(batch.materialize());
        }

        @Override
        public boolean keepsRows() {
            return true;
        }
    }

    private record AggSink(HashAggregator aggregator) implements Sink {
        @Override
        public void consume(Batch batch) {
            aggregator.add(batch);
        }

        @Override
        public void morselDone() {
            aggregator.endUnit();
        }
    }

    /** Collects a thread's rows; with a LIMIT, keeps only its best {@code limit} rows as it goes (top-N). */
    private static final class SortSink implements Sink {
        private final List<SortKey> keys;
        private final List<FerryType> types;
        private final long limit;
        private final QueryMemory memory;
        private List<Batch> batches = new ArrayList<>();
        private long rows;
        private long reserved;

        SortSink(List<SortKey> keys, List<FerryType> types, long limit, QueryMemory memory) {
            this.keys = keys;
            this.types = types;
            this.limit = limit;
            this.memory = memory;
        }

        @Override
        public void consume(Batch batch) {
            batches.add(batch);
            rows += batch.rowCount();
            long bytes = 16L * batch.rowCount() * Math.max(1, types.size());
            memory.reserve(bytes);
            reserved += bytes;
            if (limit < Integer.MAX_VALUE && rows > Math.max(2 * limit, 8192)) {
                Batch merged = BatchConcat.concat(batches, types);
                int[] order = Sorter.order(merged, keys);
                int keep = (int) Math.min(limit, order.length);
                Batch top = merged.gather(java.util.Arrays.copyOf(order, keep), keep);
                batches = new ArrayList<>(List.of(top));
                rows = keep;
            }
        }

        @Override
        public boolean keepsRows() {
            return true;
        }

        List<Batch> drain() {
            memory.release(reserved);
            reserved = 0;
            return batches;
        }
    }
}
