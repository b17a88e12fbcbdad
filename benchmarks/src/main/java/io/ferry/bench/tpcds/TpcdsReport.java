package io.ferry.bench.tpcds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.ferry.bench.tpcds.QueryResult.Outcome;

/**
 * The run's results as CSV (one line per statement) and markdown (a summary line, a table, the text changes), and
 * the summary: "N/99 match, p95 planning X ms, max planning Y ms, geometric mean Ferry/DuckDB time ratio Z".
 */
public final class TpcdsReport {
    private TpcdsReport() {
    }

    /**
     * @param matched         TPC-DS queries all of whose statements match
     * @param queries         TPC-DS queries run (99 for a full run)
     * @param p95PlanningMs   95th percentile (nearest rank) of Ferry's planning over statements that planned
     * @param maxPlanningMs   the slowest planning
     * @param geoMeanRatio    geometric mean over matching statements of (Ferry planning + execution) / DuckDB time
     */
    public record Summary(int matched, int queries, double p95PlanningMs, double maxPlanningMs, double geoMeanRatio,
            long maxPeakBytes, int spilledStatements, int rowEngineStatements) {
        public String line() {
            return String.format(Locale.ROOT, "%d/%d match, p95 planning %.0f ms, max planning %.0f ms, "
                    + "geometric mean Ferry/DuckDB time ratio %.2f, peak query memory %.1f MiB, %d statements "
                    + "spilled, %d ran operators in the row engine", matched, queries, p95PlanningMs, maxPlanningMs,
                    geoMeanRatio, maxPeakBytes / 1048576.0, spilledStatements, rowEngineStatements);
        }
    }

    public static Summary summarize(List<QueryResult> results) {
        Map<Integer, Boolean> byNumber = new LinkedHashMap<>();
        for (QueryResult r : results) {
            byNumber.merge(r.number(), r.outcome() == Outcome.MATCH, Boolean::logicalAnd);
        }
        int matched = (int) byNumber.values().stream().filter(b -> b).count();
        double[] planning = results.stream().mapToDouble(QueryResult::planningMs).toArray();
        double p95 = quantile(planning, 0.95);
        double max = quantile(planning, 1);
        // statements that match because both engines failed have no times
        double[] logRatios = results.stream()
                .filter(r -> r.outcome() == Outcome.MATCH && Double.isFinite(ferryTotal(r))
                        && Double.isFinite(r.duckMs()))
                .mapToDouble(r -> Math.log(ferryTotal(r) / Math.max(r.duckMs(), 0.01)))
                .toArray();
        double geoMean = logRatios.length == 0 ? Double.NaN
                : Math.exp(Arrays.stream(logRatios).average().orElseThrow());
        long peak = results.stream().mapToLong(QueryResult::ferryPeakBytes).max().orElse(0);
        int spilled = (int) results.stream().filter(r -> r.ferrySpilledBytes() > 0).count();
        int rowEngine = (int) results.stream().filter(r -> r.rowEngine() != null).count();
        return new Summary(matched, byNumber.size(), p95, max, geoMean, peak, spilled, rowEngine);
    }

    /** The q-quantile (nearest rank) of the finite values; NaN if there is none. */
    static double quantile(double[] values, double q) {
        double[] sorted = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double ferryTotal(QueryResult r) {
        return r.planningMs() + r.ferryMs();
    }

    /** Writes {@code name}.csv and {@code name}.md into {@code dir}; returns the markdown. */
    public static String write(Path dir, String name, String title, List<String> about,
            List<TpcdsQueries.Query> queries, List<QueryResult> results) throws IOException {
        Files.createDirectories(dir);
        List<String> csv = new ArrayList<>();
        csv.add("query,outcome,planning_ms,ferry_ms,duckdb_ms,ferry_rows,duckdb_rows,ferry_peak_bytes,"
                + "ferry_spilled_bytes,row_engine,detail");
        for (QueryResult r : results) {
            csv.add(String.join(",", r.query(), r.outcome().label(), number(r.planningMs()), number(r.ferryMs()),
                    number(r.duckMs()), Long.toString(r.ferryRows()), Long.toString(r.duckRows()),
                    Long.toString(r.ferryPeakBytes()), Long.toString(r.ferrySpilledBytes()),
                    csvField(r.rowEngine() == null ? "" : r.rowEngine()), csvField(r.detail())));
        }
        Files.write(dir.resolve(name + ".csv"), csv);

        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n");
        about.forEach(line -> md.append(line).append("  \n"));
        md.append("\n**").append(summarize(results).line()).append("**\n\n");
        md.append("| query | outcome | planning ms | Ferry ms | DuckDB ms | Ferry/DuckDB | rows | Ferry peak MiB "
                + "| spilled MiB | detail |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (QueryResult r : results) {
            double ratio = ferryTotal(r) / r.duckMs();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s |%n", r.query(),
                    r.outcome().label(), number(r.planningMs()), number(r.ferryMs()), number(r.duckMs()),
                    Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f", ratio) : "",
                    r.duckRows() >= 0 ? Long.toString(r.duckRows()) : "", r.ferryPeakBytes() / 1048576.0,
                    r.ferrySpilledBytes() == 0 ? "" : String.format(Locale.ROOT, "%.1f",
                            r.ferrySpilledBytes() / 1048576.0), markdownCell(r.rowEngine() == null ? r.detail()
                                    : "row engine: " + r.rowEngine() + (r.detail().isEmpty() ? "" : "; ")
                                            + r.detail())));
        }
        md.append("\nText changes (docs/tpcds.md says why):\n\n");
        for (TpcdsQueries.Rewrite rewrite : TpcdsQueries.REWRITES) {
            String changed = queries.stream().filter(q -> q.rewrites().contains(rewrite.name()))
                    .map(TpcdsQueries.Query::name).collect(Collectors.joining(", "));
            md.append("- ").append(rewrite.name()).append(": ").append(rewrite.why()).append(". Queries: ")
                    .append(changed.isEmpty() ? "none in this run" : changed).append('\n');
        }
        Files.writeString(dir.resolve(name + ".md"), md);
        return md.toString();
    }

    private static String number(double ms) {
        return Double.isFinite(ms) ? String.format(Locale.ROOT, "%.1f", ms) : "";
    }

    private static String csvField(String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 ? s
                : '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String markdownCell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
