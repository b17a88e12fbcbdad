package io.ferry.bench.tpcds;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 99 TPC-DS queries (103 statements: 14, 23, 24 and 39 come in parts a and b), as Apache Spark's test jar ships
 * them ({@code org.apache.spark:spark-sql_2.13:tests}, resources {@code tpcds/q*.sql}): the TPC-DS v1.4 templates
 * with the specification's qualification substitution parameters, so every run sees the same texts.
 *
 * <p>The texts are changed only where they are not SQL that both engines accept — Spark's own dialect, or the
 * templates' v1 column name that the v2 schema (and so the generator) renamed. Every change is one of
 * {@link #REWRITES}, listed in docs/tpcds.md, and each query records which it needed.
 */
public final class TpcdsQueries {
    /** The queries with two parts. */
    private static final Set<Integer> SPLIT = Set.of(14, 23, 24, 39);

    /** A textual change: what it does and why, and the queries it applies to (empty: wherever it matches). */
    public record Rewrite(String name, String why, Set<String> queries, UnaryOperator<String> change) {
        String apply(String queryName, String sql) {
            return queries.isEmpty() || queries.contains(queryName) ? change.apply(sql) : sql;
        }
    }

    /** A query's name ("1", "14a"), its text as run, and the rewrites that changed it. */
    public record Query(String name, String sql, List<String> rewrites) {
        /** The TPC-DS query number, which parts a and b share. */
        public int number() {
            return Integer.parseInt(name.replaceAll("[ab]$", ""));
        }
    }

    private static final Pattern INTERVAL_DAYS = Pattern.compile("(?i)\\binterval\\s+(\\d+)\\s+days?\\b");
    private static final Pattern BACKTICKS = Pattern.compile("`([^`]*)`");
    private static final Pattern CONCAT = Pattern.compile("(?i)\\bconcat\\(");

    public static final List<Rewrite> REWRITES = List.of(
            new Rewrite("interval", "Spark's INTERVAL 30 days becomes the standard INTERVAL '30' DAY", Set.of(),
                    sql -> INTERVAL_DAYS.matcher(sql).replaceAll("INTERVAL '$1' DAY")),
            new Rewrite("quoted-alias", "Spark's `backquoted` column aliases become standard \"double-quoted\" ones "
                    + "(the TPC-DS templates have them double-quoted too)", Set.of(),
                    sql -> BACKTICKS.matcher(sql).replaceAll(m -> Matcher.quoteReplacement('"' + m.group(1) + '"'))),
            new Rewrite("concat", "Spark's concat(a, b, ...) becomes the standard a || b || ..., which is what the "
                    + "TPC-DS templates have", Set.of(), TpcdsQueries::concatToOperator),
            new Rewrite("c_last_review_date", "the v1.4 template's column c_last_review_date is "
                    + "c_last_review_date_sk in the TPC-DS v2 schema the generator writes", Set.of("30"),
                    sql -> sql.replaceAll("\\bc_last_review_date\\b", "c_last_review_date_sk")),
            new Rewrite("at-alias", "query 90 names a derived table at, a reserved word of the standard (AT TIME "
                    + "ZONE) that DuckDB rejects too; it is quoted", Set.of("90"),
                    sql -> sql.replaceAll("\\)\\s+at\\s*,", ") \"at\",")));

    private TpcdsQueries() {
    }

    /** All 103 statements in order: 1, 2, ..., 14a, 14b, ..., 99. */
    public static List<Query> all() {
        List<Query> queries = new ArrayList<>();
        for (int n = 1; n <= 99; n++) {
            if (SPLIT.contains(n)) {
                queries.add(load(n + "a"));
                queries.add(load(n + "b"));
            } else {
                queries.add(load(Integer.toString(n)));
            }
        }
        return queries;
    }

    /** The statements of the given TPC-DS query numbers (both parts of a split one). */
    public static List<Query> numbered(Collection<Integer> numbers) {
        for (int n : numbers) {
            if (n < 1 || n > 99) {
                throw new IllegalArgumentException("TPC-DS queries are numbered 1 to 99, got " + n);
            }
        }
        return all().stream().filter(q -> numbers.contains(q.number())).toList();
    }

    static Query load(String name) {
        String resource = "tpcds/q" + name + ".sql";
        String text;
        try (InputStream in = TpcdsQueries.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path: it comes from "
                        + "org.apache.spark:spark-sql_2.13:tests, a dependency of the benchmarks module");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String sql = text.strip();
        List<String> applied = new ArrayList<>();
        for (Rewrite r : REWRITES) {
            String changed = r.apply(name, sql);
            if (!changed.equals(sql)) {
                applied.add(r.name());
                sql = changed;
            }
        }
        return new Query(name, sql, List.copyOf(applied));
    }

    /** Replaces each concat(a, b, ...) by (a || b || ...); the arguments may hold strings with commas. */
    static String concatToOperator(String sql) {
        StringBuilder out = new StringBuilder();
        int from = 0;
        Matcher m = CONCAT.matcher(sql);
        while (m.find(from)) {
            out.append(sql, from, m.start());
            List<String> args = new ArrayList<>();
            int depth = 0;
            boolean quoted = false;
            int argStart = m.end();
            int i = m.end();
            for (; i < sql.length(); i++) {
                char c = sql.charAt(i);
                if (c == '\'') {
                    quoted = !quoted;
                } else if (!quoted && c == '(') {
                    depth++;
                } else if (!quoted && c == ')' && depth-- == 0) {
                    break;
                } else if (!quoted && c == ',' && depth == 0) {
                    args.add(sql.substring(argStart, i).strip());
                    argStart = i + 1;
                }
            }
            if (i == sql.length()) {
                throw new IllegalArgumentException("unbalanced concat( in " + sql);
            }
            args.add(sql.substring(argStart, i).strip());
            out.append('(').append(String.join(" || ", args)).append(')');
            from = i + 1;
        }
        return out.append(sql, from, sql.length()).toString();
    }
}
