package io.ferry.bench.fuzz;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The outcome of one query on one Ferry target, with what each engine said. */
public record Verdict(Outcome outcome, Result duck, Result ferry, String detail) {
    private static final Set<String> UNSUPPORTED_STATES = Set.of("0A000", "42883");
    /** A Java class name in a message: an exception leaked through instead of being translated to a sentence. */
    private static final Pattern JAVA_CLASS = Pattern.compile(
            "\\b(?:java|javax|jdk|sun|org\\.apache|io\\.ferry|io\\.netty)\\.[a-z]\\w*\\.[\\w.$]+"
                    + "|\\b[A-Z]\\w*(?:Exception|Error)\\b");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"|`[^`]*`");
    private static final Pattern NUMBER = Pattern.compile("\\d+");

    public Verdict {
        requireNonNull(outcome, "outcome is null");
        requireNonNull(duck, "duck is null");
        requireNonNull(ferry, "ferry is null");
    }

    public static Verdict of(Result duck, Result ferry, boolean ordered) {
        return of(duck, ferry, ordered, false);
    }

    /** {@code deduplicated}: the query removes duplicate rows last (see {@link ResultComparator#difference}). */
    public static Verdict of(Result duck, Result ferry, boolean ordered, boolean deduplicated) {
        return of(duck, ferry, ordered, deduplicated, List.of());
    }

    /** Ferry's answer to {@code q} against DuckDB's. */
    public static Verdict of(Result duck, Result ferry, Query q) {
        return of(duck, ferry, q.ordered(), q.deduplicated(), q.tieTolerantKeys());
    }

    private static Verdict of(Result duck, Result ferry, boolean ordered, boolean deduplicated,
            List<Query.SortKey> keys) {
        if (ferry instanceof Result.Failure f) {
            if (internal(f)) {
                return new Verdict(Outcome.INTERNAL_ERROR, duck, ferry, f.describe());
            }
            if (f.timedOut() || "57014".equals(f.sqlState())) {
                return new Verdict(Outcome.TIMEOUT, duck, ferry, f.describe());
            }
            if (duck instanceof Result.Failure) {
                return new Verdict(Outcome.BOTH_ERROR, duck, ferry, f.describe());
            }
            return new Verdict(UNSUPPORTED_STATES.contains(f.sqlState()) ? Outcome.UNSUPPORTED : Outcome.FERRY_ERROR,
                    duck, ferry, f.describe());
        }
        if (duck instanceof Result.Failure d) {
            return new Verdict(Outcome.DUCKDB_ERROR, duck, ferry, "DuckDB " + d.describe());
        }
        String difference = ResultComparator.difference((Result.Rows) duck, (Result.Rows) ferry, ordered,
                deduplicated, keys);
        return difference == null ? new Verdict(Outcome.MATCH, duck, ferry, "")
                : new Verdict(Outcome.MISMATCH, duck, ferry, difference);
    }

    /**
     * This mismatch put down to the order of the additions of edge DOUBLEs: {@code check}, the same query with the
     * huge values left out of its sums, matched ({@link OverflowSums}).
     */
    Verdict orderDependent(Verdict check) {
        return new Verdict(Outcome.ORDER_DEPENDENT, duck, ferry,
                detail + "; without the huge values: " + check.outcome().label());
    }

    static boolean internal(Result.Failure f) {
        return !f.timedOut() && (f.sqlState() == null || f.sqlState().equals("XX000")
                || JAVA_CLASS.matcher(f.message()).find());
    }

    /**
     * What two failures must share to be the same failure: the outcome, and for errors the message with its
     * quoted names and numbers blanked out (they change as the query shrinks).
     */
    public String signature() {
        if (ferry instanceof Result.Failure f) {
            return outcome + ": " + blanked(f.message());
        }
        if (duck instanceof Result.Failure d) {
            return outcome + ": " + blanked(d.message());
        }
        return outcome.toString();
    }

    private static String blanked(String message) {
        String m = NUMBER.matcher(QUOTED.matcher(message).replaceAll("?")).replaceAll("#");
        return m.substring(0, Math.min(120, m.length()));
    }
}
