package io.ferry.core.expr;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Regular-expression functions over a pattern that is a constant, compiled once per query (java.util.regex, whose
 * syntax matches RE2's, DuckDB's engine, for the common constructs). A pattern that does not compile is 2201B.
 */
public final class RegexKernels {
    private final Op op;
    private final Pattern pattern;

    RegexKernels(Op op, String regex) {
        this.op = op;
        this.pattern = compile(regex);
    }

    static Pattern compile(String regex) {
        try {
            return Pattern.compile(regex, Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw new FerryException(SqlStates.INVALID_REGULAR_EXPRESSION, "invalid regular expression '" + regex
                    + "': " + e.getDescription() + " near index " + e.getIndex());
        }
    }

    /** {@code extra}: REGEXP_EXTRACT's group, REGEXP_SUBSTR's start and occurrence (null where not given). */
    Vector eval(BytesVector s, LongVector[] extra, int n) {
        if (op == Op.REGEXP_FULL_MATCH) {
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                r[i] = !s.isNull(i) && pattern.matcher(s.getString(i)).matches() ? 1 : 0;
            }
            return new LongVector(r, s.nulls(), n);
        }
        BytesVector.Builder out = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            boolean isNull = s.isNull(i);
            for (LongVector e : extra) {
                isNull |= e != null && e.isNull(i);
            }
            if (isNull) {
                out.appendNull();
                continue;
            }
            String found = op == Op.REGEXP_EXTRACT
                    ? extract(pattern, s.getString(i), extra.length > 0 && extra[0] != null ? extra[0].get(i) : 0)
                    : substr(pattern, s.getString(i), extra.length > 0 && extra[0] != null ? extra[0].get(i) : 1,
                            extra.length > 1 && extra[1] != null ? extra[1].get(i) : 1);
            if (found == null) {
                out.appendNull();
            } else {
                out.append(found.getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.build();
    }

    /** REGEXP_EXTRACT for Calcite's row engine: the same answer, the pattern compiled per call. */
    public static String extract(String s, String regex, long group) {
        return extract(compile(regex), s, group);
    }

    /** REGEXP_SUBSTR for Calcite's row engine. */
    public static String substr(String s, String regex, long start, long occurrence) {
        return substr(compile(regex), s, start, occurrence);
    }

    /** DuckDB: the group of the first match ('' when nothing matches); group 0 is the whole match. */
    private static String extract(Pattern pattern, String s, long group) {
        if (group < 0 || group > pattern.matcher("").groupCount()) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "REGEXP_EXTRACT group " + group + " is not in"
                    + " the pattern '" + pattern.pattern() + "', which has " + pattern.matcher("").groupCount()
                    + " groups; ask for 0 (the whole match) to " + pattern.matcher("").groupCount());
        }
        Matcher m = pattern.matcher(s);
        if (!m.find()) {
            return "";
        }
        String g = m.group((int) group);
        return g == null ? "" : g;
    }

    /** PostgreSQL: the {@code occurrence}th match at or after character {@code start}, NULL if there is none. */
    private static String substr(Pattern pattern, String s, long start, long occurrence) {
        if (start < 1 || occurrence < 1) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "REGEXP_SUBSTR's start (" + start + ") and "
                    + "occurrence (" + occurrence + ") count from 1");
        }
        int cps = s.codePointCount(0, s.length());
        if (start > cps) {
            return null;
        }
        Matcher m = pattern.matcher(s);
        m.region(s.offsetByCodePoints(0, (int) start - 1), s.length());
        for (long k = 0; k < occurrence; k++) {
            if (!m.find()) {
                return null;
            }
        }
        return m.group();
    }
}
