package io.ferry.bench.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** Counts of outcomes per target and per construct family, and the shrunk findings, of one run. */
public final class FuzzReport {
    private final long seed;
    private final Map<String, EnumMap<Outcome, Integer>> byTarget = new LinkedHashMap<>();
    private final Map<Construct, EnumMap<Outcome, Integer>> byFamily = new EnumMap<>(Construct.class);
    private final List<Finding> findings = new ArrayList<>();
    private final Map<String, Refusal> refusals = new LinkedHashMap<>();
    private final Map<String, SlowPath> slowPaths = new LinkedHashMap<>();
    private int queries;
    private Duration elapsed = Duration.ZERO;
    private Duration querying = Duration.ZERO;

    FuzzReport(long seed) {
        this.seed = seed;
    }

    void query() {
        queries++;
    }

    void record(String target, Set<Construct> families, Outcome outcome) {
        byTarget.computeIfAbsent(target, t -> new EnumMap<>(Outcome.class)).merge(outcome, 1, Integer::sum);
        for (Construct c : families) {
            byFamily.computeIfAbsent(c, f -> new EnumMap<>(Outcome.class)).merge(outcome, 1, Integer::sum);
        }
    }

    void add(Finding f) {
        findings.add(f);
    }

    /**
     * A query only one engine refused (not a failure of the run, but worth reading: a refusal Ferry should not make
     * hides here), counted by its message with names and numbers blanked ({@link Verdict#signature}).
     */
    void refused(int index, String target, Query q, Verdict v) {
        refusals.merge(v.signature(), new Refusal(v, index, target, q.sql(), 1),
                (old, added) -> new Refusal(old.verdict(), old.index(), old.target(), old.sql(), old.count() + 1));
    }

    private record Refusal(Verdict verdict, int index, String target, String sql, int count) {
    }

    /**
     * A run whose plan had operators of Calcite's row engine, the slow path ({@code sys.queries.row_engine}): not a
     * failure, but a construct Ferry's operators do not cover yet; counted by the operators.
     */
    void rowEngine(int index, String target, Query q, String operators, Supplier<String> plan) {
        SlowPath seen = slowPaths.get(operators);
        slowPaths.put(operators, seen == null ? new SlowPath(index, target, q.sql(), plan.get(), 1)
                : new SlowPath(seen.index(), seen.target(), seen.sql(), seen.plan(), seen.count() + 1));
    }

    /** The first query that ran a set of row-engine operators, with its plan (EXPLAIN shows where they are). */
    private record SlowPath(int index, String target, String sql, String plan, int count) {
    }

    /** Runs that went through Calcite's row engine, per set of its operators ({@link #rowEngine}). */
    public Map<String, Integer> rowEngineRuns() {
        Map<String, Integer> out = new LinkedHashMap<>();
        slowPaths.forEach((operators, p) -> out.put(operators, p.count()));
        return out;
    }

    /** Queries refused by one engine, per kind of refusal ({@link #refused}). */
    public Map<String, Integer> refusals() {
        Map<String, Integer> out = new LinkedHashMap<>();
        refusals.forEach((signature, r) -> out.put(signature, r.count()));
        return out;
    }

    /** Time spent running the queries, and in all (with shrinking). */
    void elapsed(Duration queries, Duration all) {
        querying = queries;
        elapsed = all;
    }

    public int queries() {
        return queries;
    }

    public Duration elapsed() {
        return elapsed;
    }

    /** Runs with this outcome, over all targets. */
    public int count(Outcome outcome) {
        return byTarget.values().stream().mapToInt(m -> m.getOrDefault(outcome, 0)).sum();
    }

    public int count(String target, Outcome outcome) {
        return byTarget.getOrDefault(target, new EnumMap<>(Outcome.class)).getOrDefault(outcome, 0);
    }

    public List<Finding> findings() {
        return Collections.unmodifiableList(findings);
    }

    /** Whether any query gave a wrong answer or an internal error. */
    public boolean failed() {
        return count(Outcome.MISMATCH) + count(Outcome.INTERNAL_ERROR) > 0;
    }

    /** The console summary: a table of outcomes per target and per family, then one line per finding. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("ferry fuzz --seed %d: %d queries in %.1f s, %.1f s with shrinking%n%n", seed,
                queries, querying.toMillis() / 1000.0, elapsed.toMillis() / 1000.0));
        sb.append(table("target", byTarget));
        sb.append('\n');
        Map<String, EnumMap<Outcome, Integer>> families = new LinkedHashMap<>();
        byFamily.forEach((c, m) -> families.put(c.cliName(), m));
        sb.append(table("family (runs using it)", families));
        if (!findings.isEmpty()) {
            sb.append(String.format("%n%d distinct failures (shrunk):%n", findings.size()));
            for (int i = 0; i < findings.size(); i++) {
                Finding f = findings.get(i);
                sb.append(String.format("%n#%d %s on %s, seen %d time%s (first: query %d)%n  %s%n  Ferry:  %s%n"
                        + "  DuckDB: %s%n", i + 1, f.shrunkVerdict().outcome().label(), f.where(), f.occurrences(),
                        f.occurrences() == 1 ? "" : "s", f.index(), f.shrunk().sql(), f.shrunkVerdict().ferry()
                                .describe(), f.shrunkVerdict().duck().describe()));
                if (f.shrunkVerdict().outcome() == Outcome.MISMATCH) {
                    sb.append("  ").append(f.shrunkVerdict().detail()).append('\n');
                }
            }
        }
        int slow = slowPaths.values().stream().mapToInt(SlowPath::count).sum();
        if (slow > 0) {
            sb.append(String.format("%n%d runs planned operators of Calcite's row engine (the slow path): %s%n", slow,
                    rowEngineRuns()));
        }
        sb.append(failed() ? "\nFAILED: wrong answers or internal errors (above)\n" : "\nOK\n");
        return sb.toString();
    }

    private static String table(String title, Map<String, EnumMap<Outcome, Integer>> rows) {
        StringBuilder sb = new StringBuilder(String.format("%-24s", title));
        for (Outcome o : Outcome.values()) {
            sb.append(String.format(" %" + Math.max(8, o.label().length()) + "s", o.label()));
        }
        sb.append('\n');
        rows.forEach((name, counts) -> {
            sb.append(String.format("%-24s", name));
            for (Outcome o : Outcome.values()) {
                sb.append(String.format(" %" + Math.max(8, o.label().length()) + "d", counts.getOrDefault(o, 0)));
            }
            sb.append('\n');
        });
        return sb.toString();
    }

    /**
     * report.md: the summary, each finding with its original query and its regression test, then the queries only
     * one engine refused, one example of each kind.
     */
    public String markdown() {
        StringBuilder sb = new StringBuilder("# Fuzz report\n\n```\n").append(summary()).append("```\n");
        markdownFindings(sb);
        if (!refusals.isEmpty()) {
            sb.append("\n## Refused by one engine (not failures)\n\n")
                    .append("Each kind of refusal, by its message with names and numbers blanked, how often, and the "
                            + "first query that got it.\n");
            refusals.values().stream().sorted((a, b) -> b.count() - a.count()).forEach(r -> sb.append("\n- **")
                    .append(r.verdict().outcome().label()).append("**, ").append(r.count()).append(" time(s), first ")
                    .append("query ").append(r.index()).append(" (").append(r.target()).append(")\n  - Ferry: ")
                    .append(r.verdict().ferry().describe()).append("\n  - DuckDB: ")
                    .append(r.verdict().duck().describe()).append("\n  - `").append(r.sql().length() > 400
                            ? r.sql().substring(0, 400) + " …" : r.sql()).append("`\n"));
        }
        if (!slowPaths.isEmpty()) {
            sb.append("\n## Ran in Calcite's row engine (not failures)\n\n")
                    .append("Each set of row-engine operators a plan ran (sys.queries.row_engine), how often, and the "
                            + "first query that did: constructs Ferry's operators do not cover yet.\n");
            slowPaths.entrySet().stream().sorted((a, b) -> b.getValue().count() - a.getValue().count())
                    .forEach(e -> {
                        SlowPath p = e.getValue();
                        sb.append("\n- **").append(e.getKey()).append("**, ").append(p.count())
                                .append(" time(s), first query ").append(p.index()).append(" (").append(p.target())
                                .append(")\n  - `").append(p.sql()).append("`\n\n  ```\n  ")
                                .append(p.plan().replace("\n", "\n  ")).append("\n  ```\n");
                    });
        }
        return sb.toString();
    }

    private void markdownFindings(StringBuilder sb) {
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            sb.append("\n## #").append(i + 1).append(' ').append(f.shrunkVerdict().outcome().label()).append(" on ")
                    .append(f.where()).append("\n\n");
            sb.append("Minimal query:\n\n```sql\n").append(f.shrunk().sql()).append("\n```\n\n");
            sb.append("- Ferry: ").append(f.shrunkVerdict().ferry().describe()).append('\n');
            sb.append("- DuckDB: ").append(f.shrunkVerdict().duck().describe()).append('\n');
            if (!f.shrunkVerdict().detail().isEmpty()) {
                sb.append("- Difference: ").append(f.shrunkVerdict().detail()).append('\n');
            }
            sb.append("- Seen ").append(f.occurrences()).append(" time(s); data: ").append(f.dataNote()).append('\n');
            sb.append("\nAs generated (query ").append(f.index()).append("):\n\n```sql\n").append(f.query().sql())
                    .append("\n```\n\nRegression test:\n\n```java\n").append(f.repro()).append("```\n");
        }
    }
}
