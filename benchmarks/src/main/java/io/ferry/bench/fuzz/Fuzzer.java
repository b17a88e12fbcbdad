package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The differential fuzzer: loads one random {@link Dataset} into DuckDB and into Ferry (local mode, and optionally
 * a two-worker cluster), runs random queries on all of them, classifies each Ferry answer against DuckDB's, and
 * shrinks what fails — first the query, then, in a scratch local engine, the rows — into a regression test.
 */
public final class Fuzzer implements AutoCloseable {
    /** Outcomes where one engine refused the query: listed in the report, one example of each kind. */
    private static final Set<Outcome> REFUSALS = EnumSet.of(Outcome.UNSUPPORTED, Outcome.FERRY_ERROR,
            Outcome.DUCKDB_ERROR);

    /**
     * @param cluster     also start a two-worker cluster
     * @param alternate   with a cluster, run each query on one Ferry in turn (local, cluster, local, ...) instead of
     *                    on both: twice the queries in the same time, for a time-boxed test
     * @param scale       row counts relative to the default (about 850 rows over up to four tables)
     * @param maxShrinks  distinct failures to shrink; later ones of the same kind are only counted
     * @param shrinkTries candidate queries (and row subsets) tried per shrink
     * @param shipping the cluster's SET shipping values, one per query in turn
     */
    public record Options(long seed, int queries, boolean cluster, boolean alternate, Constructs constructs,
            Duration timeout, double scale, int maxShrinks, int shrinkTries, List<String> shipping) {
        public Options {
            requireNonNull(constructs, "constructs is null");
            requireNonNull(timeout, "timeout is null");
            shipping = List.copyOf(shipping);
        }

        public static Options defaults(long seed, int queries) {
            return new Options(seed, queries, false, false, Constructs.ALL, Duration.ofSeconds(20), 1.0, 25, 250,
                    FerryTarget.SHIPPING);
        }

        public Options withCluster(boolean on, boolean alternating) {
            return new Options(seed, queries, on, alternating, constructs, timeout, scale, maxShrinks, shrinkTries,
                    shipping);
        }

        public Options withConstructs(Constructs c) {
            return new Options(seed, queries, cluster, alternate, c, timeout, scale, maxShrinks, shrinkTries, shipping);
        }

        public Options withTimeout(Duration t) {
            return new Options(seed, queries, cluster, alternate, constructs, t, scale, maxShrinks, shrinkTries, shipping);
        }

        public Options withShrinking(int shrinks, int tries) {
            return new Options(seed, queries, cluster, alternate, constructs, timeout, scale, shrinks, tries, shipping);
        }

        /** The cluster's SET shipping values, one per query in turn (default function, data, auto). */
        public Options withShipping(List<String> modes) {
            return new Options(seed, queries, cluster, alternate, constructs, timeout, scale, maxShrinks, shrinkTries,
                    modes);
        }

        public Options withScale(double s) {
            return new Options(seed, queries, cluster, alternate, constructs, timeout, s, maxShrinks, shrinkTries, shipping);
        }
    }

    /** A failing run before shrinking. */
    private record Failure(int index, Query query, FerryTarget target, String shipping, Verdict verdict) {
    }

    private final Options options;
    private final Dataset data;
    private final QueryGenerator generator;
    private final Execution execution;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final Connection duck;
    private final List<FerryTarget> targets = new ArrayList<>();

    private Fuzzer(Options options) throws SQLException {
        this.options = options;
        this.data = Dataset.generate(options.seed(), options.scale());
        this.generator = new QueryGenerator(data, options.constructs());
        this.execution = new Execution(options.timeout());
        closing.add(execution);
        this.duck = Execution.duckDb();
        closing.add(duck);
    }

    /**
     * Generates the dataset and loads it into DuckDB, Ferry local mode and (with options.cluster) a cluster. Local
     * mode keeps its tables in a data directory and is restarted from it before the first query, so every query also
     * checks what a restart brings back (docs/storage.md).
     */
    public static Fuzzer start(Options options) throws SQLException {
        Fuzzer f = new Fuzzer(options);
        try {
            f.load(f.duck, "DuckDB");
            Path data = Files.createTempDirectory("ferry-fuzz-data");
            f.closing.add(() -> deleteTree(data));
            FerryTarget local = FerryTarget.local(data);
            try {
                f.load(local.connection(), "Ferry local");
            } catch (SQLException | RuntimeException e) {
                local.close();
                throw e;
            }
            f.targets.add(f.started(local.restarted()));
            if (options.cluster()) {
                FerryTarget cluster = f.started(FerryTarget.cluster());
                f.load(cluster.connection(), "Ferry cluster");
                f.targets.add(cluster);
            }
            return f;
        } catch (IOException e) {
            f.close();
            throw new SQLException("cannot make a data directory for Ferry: " + e.getMessage(), e);
        } catch (SQLException | RuntimeException e) {
            f.close();
            throw e;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private FerryTarget started(FerryTarget t) {
        closing.add(0, t);
        return t;
    }

    private void load(Connection c, String who) throws SQLException {
        for (LoadStatement s : data.load()) {
            try {
                s.run(c);
            } catch (SQLException e) {
                throw new SQLException(who + " could not load the generated data (" + e.getMessage() + "): "
                        + s.sql().substring(0, Math.min(300, s.sql().length())), e.getSQLState(), e);
            }
        }
    }

    /** The seed of query {@code index}: each query can be regenerated alone. */
    static long querySeed(long seed, int index) {
        return seed * 0x9E3779B97F4A7C15L + index;
    }

    /** Runs every query on every target, then shrinks the failures; {@code progress} hears of each query done. */
    public FuzzReport run(IntConsumer progress) throws SQLException {
        return run(IntStream.range(0, options.queries()).boxed().toList(), progress);
    }

    /**
     * Runs only the queries numbered {@code indices} (each as it is in a full run: same seed, target and shipping
     * setting), to check a fix against a run's failures.
     */
    public FuzzReport run(List<Integer> indices, IntConsumer progress) throws SQLException {
        long start = System.nanoTime();
        FuzzReport report = new FuzzReport(options.seed());
        List<Failure> failures = new ArrayList<>();
        int done = 0;
        for (int i : indices) {
            Query q = generator.generate(querySeed(options.seed(), i));
            String sql = q.sql();
            Result expected = execution.duck(duck, sql);
            report.query();
            List<FerryTarget> on = options.alternate() ? List.of(targets.get(i % targets.size())) : targets;
            int turn = options.alternate() ? i / targets.size() : i;
            for (FerryTarget t : on) {
                String shipping = t.clustered() ? options.shipping().get(turn % options.shipping().size()) : null;
                Verdict v = verdict(t, shipping, q, expected);
                report.record(t.name(), q.families(), v.outcome());
                String rowEngine = t.rowEngine(sql);
                if (rowEngine != null) {
                    report.rowEngine(i, t.name(), q, rowEngine, () -> t.explain(sql));
                }
                if (v.outcome().failure()) {
                    failures.add(new Failure(i, q, t, shipping, v));
                } else if (REFUSALS.contains(v.outcome())) {
                    report.refused(i, t.name(), q, v);
                }
            }
            progress.accept(++done);
        }
        Duration querying = Duration.ofNanos(System.nanoTime() - start);
        shrinkAll(failures, report);
        report.elapsed(querying, Duration.ofNanos(System.nanoTime() - start));
        return report;
    }

    private Verdict verdict(FerryTarget t, String shipping, Query q, Result expected) throws SQLException {
        if (shipping != null) {
            t.shipping(shipping);
        }
        return judge(execution, duck, t.connection(), q, expected);
    }

    /**
     * Ferry's answer to {@code q} on {@code ferry} against DuckDB's {@code expected}. A mismatch of a query that sums
     * edge DOUBLEs is checked once more without their huge values ({@link OverflowSums}).
     */
    static Verdict judge(Execution execution, Connection duck, Connection ferry, Query q, Result expected)
            throws SQLException {
        Verdict v = Verdict.of(expected, execution.ferry(ferry, q.sql()), q);
        if (v.outcome() != Outcome.MISMATCH || !OverflowSums.present(q)) {
            return v;
        }
        Query plain = OverflowSums.withoutHugeValues(q);
        Verdict check = Verdict.of(execution.duck(duck, plain.sql()), execution.ferry(ferry, plain.sql()), plain);
        return check.outcome() == Outcome.MATCH ? v.orderDependent(check) : v;
    }

    /**
     * Shrinks up to maxShrinks failures. Internal errors with the same signature are one failure (only the first
     * is shrunk); mismatches cannot be told apart before shrinking, so each is shrunk, and failures that shrink to
     * the same query on the same target are merged.
     */
    private void shrinkAll(List<Failure> failures, FuzzReport report) throws SQLException {
        Map<String, Finding> found = new LinkedHashMap<>();
        Map<String, String> bySignature = new LinkedHashMap<>();
        int shrunk = 0;
        for (Failure f : failures) {
            String signature = f.target().name() + " " + f.verdict().signature();
            if (f.verdict().outcome() == Outcome.INTERNAL_ERROR && bySignature.containsKey(signature)) {
                String key = bySignature.get(signature);
                found.put(key, found.get(key).seen(1));
                continue;
            }
            if (shrunk >= options.maxShrinks()) {
                String key = "unshrunk " + f.index() + " " + f.target().name();
                found.put(key, finding(f, f.query(), f.verdict(), data.tables(), "not shrunk (over --max-shrinks)"));
                continue;
            }
            shrunk++;
            Finding finding = shrink(f);
            String key = f.target().name() + " " + finding.shrunk().sql();
            found.merge(key, finding, (a, b) -> a.seen(b.occurrences()));
            bySignature.putIfAbsent(signature, key);
        }
        found.values().forEach(report::add);
    }

    private Finding shrink(Failure f) throws SQLException {
        Predicate<Query> reproduces = candidate -> {
            try {
                Result expected = execution.duck(duck, candidate.sql());
                return same(f.verdict(), verdict(f.target(), f.shipping(), candidate, expected));
            } catch (SQLException e) {
                return false;
            }
        };
        Query small = new Shrinker(reproduces, options.shrinkTries()).shrink(f.query());
        Verdict smallVerdict = verdict(f.target(), f.shipping(), small, execution.duck(duck, small.sql()));
        List<TableDef> read = small.tableNames().stream().map(data::table).toList();
        RowShrinker.Reduced reduced = new RowShrinker(execution, small, v -> same(f.verdict(), v))
                .shrink(read, options.shrinkTries());
        return finding(f, small, reduced.verdict() != null ? reduced.verdict() : smallVerdict, reduced.tables(),
                reduced.note());
    }

    private static boolean same(Verdict original, Verdict candidate) {
        return candidate.outcome() == original.outcome() && (original.outcome() != Outcome.INTERNAL_ERROR
                || candidate.signature().equals(original.signature()));
    }

    private Finding finding(Failure f, Query small, Verdict v, List<TableDef> tables, String dataNote) {
        String name = "fuzzSeed" + Long.toString(options.seed()).replace('-', 'm') + "Query" + f.index()
                + (f.target().clustered() ? "Cluster" : "");
        String comment = "Found by bin/ferry fuzz --seed " + options.seed() + " (query " + f.index() + ", "
                + f.target().name() + (f.shipping() == null ? "" : ", shipping = '" + f.shipping() + "'") + "): "
                + v.outcome().label() + ".\nFerry:  " + v.ferry().describe() + "\nDuckDB: " + v.duck().describe()
                + (v.detail().isEmpty() || v.outcome() != Outcome.MISMATCH ? "" : "\n" + v.detail())
                + "\nData: " + dataNote + ".";
        return new Finding(f.index(), f.target().name(), f.shipping(), f.query(), f.verdict(), small, v, tables,
                dataNote, 1, ReproWriter.junit(name, comment, tables, small));
    }

    /** Closes the cluster, local engine and DuckDB; an engine that leaked Arrow memory throws here. */
    @Override
    public void close() throws SQLException {
        Exception first = null;
        for (AutoCloseable a : closing) {
            try {
                a.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        closing.clear();
        if (first instanceof SQLException s) {
            throw s;
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first != null) {
            throw new SQLException(first);
        }
    }
}
