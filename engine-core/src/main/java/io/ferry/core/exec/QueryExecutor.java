package io.ferry.core.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

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
 * Runs a {@link PlanNode} tree with morsel-driven parallelism: the tree is cut into {@link Pipeline}s at the
 * operators that must see all their input (aggregate, join build, sort, window), walking it with {@link PlanVisitor}s;
 * each pipeline runs on up to {@code threads} threads ({@link PipelineDriver}) that claim morsels (blocks) one at a
 * time, stream them through the pipeline's operators, and feed a {@link Sink} per thread whose states are merged at
 * the end.
 */
public final class QueryExecutor implements AutoCloseable {
    private final int threads;
    private final ExecutorService pool;
    private final PipelineDriver driver;

    public QueryExecutor(int threads) {
        this.threads = threads;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "ferry-exec-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.pool = Executors.newFixedThreadPool(threads, factory);
        this.driver = new PipelineDriver(pool, threads);
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

    /** The state of one execution: table versions it holds and the hash tables it built. */
    private final class Run implements AutoCloseable {
        private final QueryContext ctx;
        private final List<BlockSource> sources = new ArrayList<>();
        /** Scans {@link JoinKeyRanges} narrowed, each to the plan's scan it stands for. */
        private final Map<PlanNode.Scan, PlanNode.Scan> narrowedScans = new IdentityHashMap<>();
        private final List<Runnable> cleanups = new ArrayList<>();
        /** Where this execution's operators spill; removed when it ends. */
        private final SpillSpace spill;
        /**
         * The rows of the aggregates, sorts and windows computed so far, by their wire form: a subplan that occurs
         * twice in one plan runs once. A FULL join is planned as a LEFT join and an ANTI join over the same two
         * inputs (FullJoins in engine-sql), each read once as a probe side and once as a build side. Consumers only
         * read the batches.
         */
        private final Map<PlanKey, List<Batch>> computed = new HashMap<>();

        Run(QueryContext ctx) {
            this.ctx = ctx;
            this.spill = new SpillSpace(ctx.memory());
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
                return CollectSink.all(driver.run(pipeline(node), CollectSink::new, ctx));
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
                return Pipeline.of(Source.of(materialize(node)));
            }

            @Override
            public Pipeline scan(PlanNode.Scan scan) {
                SampleSpec sample = scan.sample() == null ? null : scan.sample().forExecution();
                // a scan a join's build keys narrowed is bound as the plan's, which binders may know by identity
                PlanNode.Scan planned = narrowedScans.getOrDefault(scan, scan);
                BlockSource blocks = ctx.binder().bind(planned, sample, scan.zones());
                sources.add(blocks);
                return Pipeline.of(new ScanSource(blocks, scan.columns(), scan.types(), sample));
            }

            @Override
            public Pipeline gather(PlanNode.Gather gather) {
                List<Batch> rows = ctx.gatherer() == null ? materialize(gather.fragment())
                        : ctx.gatherer().gather(gather, ctx);
                return Pipeline.of(Source.of(rows));
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
                int[] repeated = repeatedColumns(carried);
                return pipeline(project.input()).then(b -> {
                    // Plain column references pass through still pending: projecting must not decode them.
                    // Expressions go first, so a column they decode is carried over decoded, not decoded again;
                    // and a column carried to several places is decoded once here (each place would decode its
                    // own copy: TPC-DS q43's seven FILTERed SUMs of one price column decoded it seven times)
                    Batch.Builder out = Batch.builder(b.rowCount(), carried.length);
                    for (int i = 0; i < carried.length; i++) {
                        if (carried[i] < 0) {
                            out.set(i, exprs.get(i).eval(b));
                        }
                    }
                    for (int column : repeated) {
                        b.column(column);
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
                GraceJoin grace = new GraceJoin(join, ctx, spill, driver);
                Batch build = buildSide(join.right(), grace);
                if (build == null) {
                    return Pipeline.of(Source.of(grace.run(pipeline(join.left()))));
                }
                JoinHashTable table;
                try {
                    table = new JoinHashTable(build, join.rightKeys(), join.nullsMatch(), ctx.memory());
                } catch (FerryException e) {
                    throw buildTooLarge(join.right(), e);
                }
                cleanups.add(table::close);
                Evaluator residual = join.residual() == null ? null : ExprCompiler.compile(join.residual());
                return pipeline(JoinKeyRanges.narrowProbe(join, build, narrowedScans))
                        .then(new HashJoinProbe(table, join.leftKeys(), join.kind(), residual));
            }

            @Override
            public Pipeline values(PlanNode.Values values) {
                return Pipeline.of(Source.of(List.of(values.rows())));
            }

            @Override
            public Pipeline generate(PlanNode.Generate generate) {
                return Pipeline.of(Source.of(generate.generator()));
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
                return Pipeline.of(new ConcatSource(sources, (branch, batch, out) ->
                        PipelineDriver.flow(branches.get(branch).transforms(), 0, batch, out, ctx)));
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
            AggregateMerge merge = merger(agg, plan);
            List<AggregateSink> partials = driver.run(pipeline(agg.input()), () -> new AggregateSink(
                    groups -> new HashAggregator(inputTypes, agg.groupKeys(), plan.partialCalls(), ctx.memory(),
                            groups), merge, agg.nearlyUnique()),
                    ctx);
            return finish(agg, plan, merge.merge(partials), finish);
        }

        /** Rows of partial states (from other nodes and this one) merged and finished. */
        private List<Batch> mergeAggregate(PlanNode.MergeAggregate node) {
            AggregatePlan plan = new AggregatePlan(node.aggregate());
            List<FerryType> stateTypes = plan.partialTypes(node.aggregate().input().types());
            AggregateMerge merge = merger(node.aggregate(), plan);
            List<AggregateSink> partials = driver.run(pipeline(node.partials()), () -> new AggregateSink(
                    groups -> new HashAggregator(stateTypes, plan.finalKeys(), plan.finalCalls(), ctx.memory(), groups),
                    merge, node.aggregate().nearlyUnique()),
                    ctx);
            return finish(node.aggregate(), plan, merge.merge(partials), true);
        }

        private AggregateMerge merger(PlanNode.Aggregate agg, AggregatePlan plan) {
            return new AggregateMerge(plan.partialTypes(agg.input().types()), plan.finalKeys(), plan.finalCalls(), ctx,
                    spill, pool, threads);
        }

        /**
         * The merged states finished, unless {@code finish} is false. Grouping sets are derived from the merged
         * states here, where every partial has arrived ({@link GroupingSets}).
         */
        private List<Batch> finish(PlanNode.Aggregate agg, AggregatePlan plan, List<Batch> merged, boolean finish) {
            List<FerryType> stateTypes = plan.partialTypes(agg.input().types());
            if (finish && agg.grouped()) {
                int keys = agg.groupKeys().length;
                return new GroupingSets(plan, agg, stateTypes.subList(0, keys),
                        stateTypes.subList(keys, stateTypes.size()), ctx.memory()).expand(merged, ctx::check);
            }
            List<Batch> out = new ArrayList<>();
            for (Batch b : merged) {
                out.add(finish ? plan.finish(b) : b);
            }
            return out;
        }

        private List<Batch> sort(PlanNode.Sort sort) {
            long limit = sort.fetch() < 0 ? Long.MAX_VALUE : sort.offset() + sort.fetch();
            List<FerryType> types = sort.types();
            if (sort.keys().isEmpty()) {
                AtomicLong remaining = new AtomicLong(limit);
                List<Batch> all = CollectSink.all(driver.run(pipeline(sort.input()), () -> new CollectSink(remaining),
                        ctx));
                return slice(all, types, sort.offset(), limit);
            }
            List<SortSink> sinks = driver.run(pipeline(sort.input()),
                    () -> new SortSink(sort.keys(), types, limit, ctx.memory(), spill), ctx);
            if (sinks.stream().anyMatch(s -> !s.runs().isEmpty())) {
                // an external sort: the runs on disk and each sink's rest, merged
                List<Iterator<Batch>> runs = new ArrayList<>();
                for (SortSink s : sinks) {
                    s.runs().forEach(f -> runs.add(f.batches()));
                    runs.add(s.sorted().iterator());
                    s.drain();
                }
                return RunMerger.merge(runs, sort.keys(), types, sort.offset(), limit, ctx::check);
            }
            List<Batch> all = new ArrayList<>();
            for (SortSink s : sinks) {
                all.addAll(s.drain());
            }
            Batch merged = BatchConcat.concat(nonEmpty(all, types), types);
            int[] order = Sorter.order(merged, sort.keys(), pool);
            int from = (int) Math.min(sort.offset(), order.length);
            int to = (int) Math.min(limit, order.length);
            int[] picked = java.util.Arrays.copyOfRange(order, from, Math.max(from, to));
            return List.of(merged.gather(picked, picked.length));
        }

        /**
         * A join's build side in one batch, its rows counted against the query's memory as they arrive; null when
         * they went to disk instead ({@link GraceJoin}).
         */
        private Batch buildSide(PlanNode build, GraceJoin grace) {
            List<FerryType> types = build.types();
            long perRow = grace.perRow();
            List<Batch> batches = new ArrayList<>();
            try {
                if (build instanceof PlanNode.Aggregate || build instanceof PlanNode.MergeAggregate
                        || build instanceof PlanNode.Sort || build instanceof PlanNode.Window) {
                    batches.addAll(materialize(build));
                    long bytes = perRow * Batch.totalRows(batches);
                    if (ctx.memory().shouldSpillBefore(bytes)) {
                        grace.spillBuild(batches);
                        return null;
                    }
                    ctx.memory().reserve(bytes);
                    cleanups.add(() -> ctx.memory().release(bytes));
                } else {
                    List<BuildSink> sinks = driver.run(pipeline(build), () -> new BuildSink(ctx.memory(), perRow,
                            grace), ctx);
                    if (grace.spilled()) {
                        sinks.forEach(BuildSink::spill);
                        return null;
                    }
                    for (BuildSink sink : sinks) {
                        batches.addAll(sink.batches());
                        cleanups.add(sink::release);
                    }
                }
            } catch (FerryException e) {
                throw buildTooLarge(build, e);
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
            return window(window, materialize(window.input()), 0);
        }

        /**
         * The window functions over {@code input}; when it would take more than the query's memory can spare, it is
         * split on disk by a hash of the PARTITION BY keys and each part computed alone (a partition is never split),
         * a part still too large split again, up to three levels.
         */
        private List<Batch> window(PlanNode.Window window, List<Batch> input, int level) {
            List<FerryType> types = window.input().types();
            // the sorted copy, the frame and partition arrays and the calls' columns, roughly
            long bytes = 16L * Batch.totalRows(input) * (types.size() + window.calls().size() + 6);
            // a part is split again only when it is large itself: when others hold the memory, splitting cannot help
            long limit = ctx.memory().limit();
            if (window.partitionKeys().length > 0 && level < 3 && spill.enabled()
                    && ctx.memory().used() + bytes > limit / 2 && (level == 0 || bytes > limit / 8)) {
                SpillPartitions parts = new SpillPartitions(spill, types, window.partitionKeys(), level);
                try {
                    parts.add(input);
                    List<Batch> out = new ArrayList<>();
                    for (int p = 0; p < SpillPartitions.PARTS; p++) {
                        SpillFile f = parts.part(p);
                        if (f != null) {
                            List<Batch> rows = f.readAll();
                            f.delete();
                            out.addAll(window(window, rows, level + 1));
                        }
                    }
                    return out;
                } finally {
                    parts.delete();
                }
            }
            Batch all = BatchConcat.concat(nonEmpty(input, types), types);
            ctx.memory().reserve(bytes);
            try {
                return List.of(new WindowOperator(window, ctx::check, pool).apply(all));
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

        /** Morsels {@code [from, to)} of {@code p}'s top pipeline, their batches decoded and in morsel order. */
        List<Batch> morsels(Pipeline p, int from, int to) {
            Map<Integer, List<Batch>> byMorsel = new TreeMap<>();
            for (MorselSink sink : driver.run(p, p.source().claims(from, to), to - from, MorselSink::new, ctx)) {
                byMorsel.putAll(sink.byMorsel());
            }
            List<Batch> out = new ArrayList<>();
            byMorsel.values().forEach(out::addAll);
            return out;
        }

        @Override
        public void close() {
            for (Runnable r : cleanups) {
                r.run();
            }
            for (BlockSource s : sources) {
                s.close();
            }
            spill.close();
        }
    }

    static List<Batch> nonEmpty(List<Batch> batches, List<FerryType> types) {
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

    /** The input columns that {@code carried} (an input column per output column, or -1) names more than once. */
    private static int[] repeatedColumns(int[] carried) {
        return Arrays.stream(carried).filter(c -> c >= 0)
                .filter(c -> Arrays.stream(carried).filter(d -> d == c).count() > 1).distinct().toArray();
    }

}
