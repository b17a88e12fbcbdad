package io.ferry.bench.tpcds;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.ferry.sql.EngineConfig;
import io.trino.tpcds.Table;

/**
 * One TPC-DS run: generate (or reuse) the data, load it into Ferry and DuckDB, run the statements, write the report
 * under {@link Settings#out()}: tpcds-sf{scale}.csv and .md. The engines are closed before this returns, so a run
 * whose Ferry leaked Arrow memory fails here.
 */
public final class TpcdsBenchmark {
    /**
     * @param scale          TPC-DS scale factor
     * @param queries        the TPC-DS query numbers to run; empty for all 99
     * @param out            where the report goes; the data goes under out/data-sf{scale}
     * @param threads        threads each engine runs a query with
     * @param timeoutSeconds Ferry's and DuckDB's per-statement query timeout
     * @param planningPasses times every statement is planned again after the run ({@link PlanningPasses})
     * @param cluster        where Ferry runs: null for local mode, else an in-process cluster
     */
    public record Settings(double scale, List<Integer> queries, Path out, int threads, int timeoutSeconds,
            int planningPasses, TpcdsRun.Cluster cluster, long queryMemory) {
        public Settings {
            requireNonNull(out, "out is null");
            queries = List.copyOf(queries);
        }

        /** Ferry's default query memory (half its heap). */
        public Settings(double scale, List<Integer> queries, Path out, int threads, int timeoutSeconds,
                int planningPasses, TpcdsRun.Cluster cluster) {
            this(scale, queries, out, threads, timeoutSeconds, planningPasses, cluster, 0);
        }

        /** Ferry in local mode. */
        public Settings(double scale, List<Integer> queries, Path out, int threads, int timeoutSeconds,
                int planningPasses) {
            this(scale, queries, out, threads, timeoutSeconds, planningPasses, null);
        }

        String scaleName() {
            return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
        }
    }

    /** Told what the run is doing, for a progress bar or a log. */
    public interface Listener {
        /** A phase of {@code steps} steps begins. */
        void phase(String name, int steps);

        /** One step of the current phase is done. */
        void step(String what);

        Listener NONE = new Listener() {
            @Override
            public void phase(String name, int steps) {
            }

            @Override
            public void step(String what) {
            }
        };
    }

    /** What a run produced. */
    public record Result(List<QueryResult> results, List<PlanningPasses.Pass> planning, TpcdsReport.Summary summary,
            Path markdown, String report) {
    }

    private TpcdsBenchmark() {
    }

    public static Result run(Settings settings, Listener listener) throws IOException, SQLException {
        String scale = settings.scaleName();
        TpcdsData data = new TpcdsData(settings.scale(), settings.out().resolve("data-sf" + scale));
        List<TpcdsQueries.Query> queries = settings.queries().isEmpty() ? TpcdsQueries.all()
                : TpcdsQueries.numbered(settings.queries());
        listener.phase("generating " + data, 1);
        data.generate(Math.max(1, Math.min(settings.threads(), 4)));
        listener.step("generated");

        EngineConfig config = EngineConfig.defaults().withThreads(settings.threads());
        if (settings.queryMemory() > 0) {
            config = config.withQueryMemoryLimit(settings.queryMemory());
        }
        List<QueryResult> results = new ArrayList<>();
        List<PlanningPasses.Pass> planning;
        TpcdsRun.Memory memory;
        Instant started = Instant.now();
        String duckVersion;
        try (TpcdsRun run = TpcdsRun.start(data, config, settings.timeoutSeconds(), settings.cluster())) {
            duckVersion = run.duckDbVersion();
            listener.phase("loading SF " + scale + " into Ferry and DuckDB", TpcdsTables.ALL.size());
            for (Table t : TpcdsTables.ALL) {
                long rows = run.load(t);
                listener.step(String.format(Locale.ROOT, "%s: %,d rows", t.getName(), rows));
            }
            run.warmUp();
            run.resetMemoryPeaks();
            listener.phase("running TPC-DS at SF " + scale, queries.size());
            for (TpcdsQueries.Query q : queries) {
                QueryResult r = run.run(q);
                results.add(r);
                listener.step("q" + q.name() + ": " + r.outcome().label());
            }
            memory = run.memory();
            listener.phase("planning every statement again", 1);
            planning = run.planningPasses(queries, settings.planningPasses());
            listener.step(settings.planningPasses() + " passes");
        }
        List<String> about = new ArrayList<>(List.of(
                String.format(Locale.ROOT, "Run %s; %d statements of %d TPC-DS queries at scale factor %s.",
                        started.truncatedTo(ChronoUnit.SECONDS), results.size(),
                        results.stream().mapToInt(QueryResult::number).distinct().count(), scale),
                String.format(Locale.ROOT, "Ferry %s and DuckDB %s in one JVM (%s), %d threads each, "
                        + "%d cores; query timeout %d s; each statement run once; Ferry's query memory %,d bytes "
                        + "(spilling to %s beyond half of it).", settings.cluster() == null
                                ? "local mode" : settings.cluster().describe(), duckVersion,
                        ManagementFactory.getRuntimeMXBean().getVmVersion(), settings.threads(),
                        Runtime.getRuntime().availableProcessors(), settings.timeoutSeconds(),
                        config.queryMemoryLimit(), config.spillDirectory()),
                "Planning: Ferry's prepareStatement on a fresh connection. Ferry/DuckDB: (planning + execution) / "
                        + "DuckDB's time.", memory.line()));
        String name = "tpcds-sf" + scale + (settings.cluster() == null ? "" : "-" + settings.cluster().name());
        if (!planning.isEmpty()) {
            about.add("First-execution planning of every statement again after the run, each pass under new texts "
                    + "(none from the plan cache; per statement in " + name + "-planning.csv):");
            planning.forEach(p -> about.add("- " + p.line()));
            PlanningPasses.writeCsv(settings.out().resolve(name + "-planning.csv"), queries, planning);
        }
        String markdown = TpcdsReport.write(settings.out(), name, "TPC-DS SF " + scale + ": Ferry against DuckDB",
                about, queries, results);
        return new Result(List.copyOf(results), planning, TpcdsReport.summarize(results),
                settings.out().resolve(name + ".md"), markdown);
    }
}
