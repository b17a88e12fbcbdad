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
    private final int groupCount;
    /** REGEXP_REPLACE's 'g': every match, not only the first. */
    private final boolean global;

    RegexKernels(Op op, String regex) {
        this(op, regex, "");
    }

    /**
     * {@code flags}, read left to right so a later letter overrides an earlier one, as DuckDB does: 'i' ignores
     * case (Unicode case folding), 'c' respects it, 's' lets '.' match a newline (the default, as PostgreSQL; DuckDB
     * needs 's'), 'n', 'm' or 'p' make '.' stop at newlines and '^' and '$' match at them (PostgreSQL's
     * newline-sensitive matching), 'l' reads the pattern as literal text, and 'g' (REGEXP_REPLACE only) replaces
     * every match. Any other letter is 22023.
     */
    RegexKernels(Op op, String regex, String flags) {
        this.op = op;
        int javaFlags = Pattern.DOTALL;
        boolean all = false;
        for (int k = 0; k < flags.length(); k++) {
            switch (flags.charAt(k)) {
                case 'i' -> javaFlags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                case 'c' -> javaFlags &= ~(Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
                case 's' -> javaFlags = javaFlags & ~(Pattern.MULTILINE | Pattern.UNIX_LINES) | Pattern.DOTALL;
                case 'n', 'm', 'p' -> javaFlags = javaFlags & ~Pattern.DOTALL | Pattern.MULTILINE | Pattern.UNIX_LINES;
                case 'l' -> javaFlags |= Pattern.LITERAL;
                case 'g' -> all = op == Op.REGEXP_REPLACE || badFlag(op, flags, k);
                default -> badFlag(op, flags, k);
            }
        }
        this.pattern = compile(regex, javaFlags);
        this.groupCount = pattern.matcher("").groupCount();
        this.global = all;
    }

    private static boolean badFlag(Op op, String flags, int at) {
        throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, op + " does not know the flag '" + flags.charAt(at)
                + "' in '" + flags + "'; it takes i, c, s, n, m, p, l" + (op == Op.REGEXP_REPLACE ? " and g" : ""));
    }

    static Pattern compile(String regex) {
        return compile(regex, Pattern.DOTALL);
    }

    private static Pattern compile(String regex, int flags) {
        try {
            return Pattern.compile(regex, flags);
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

    /** REGEXP_LIKE: whether the pattern matches anywhere in the string. */
    LongVector like(BytesVector s, int n) {
        long[] r = new long[n];
        Matcher m = pattern.matcher("");
        for (int i = 0; i < n; i++) {
            r[i] = !s.isNull(i) && m.reset(s.getString(i)).find() ? 1 : 0;
        }
        return new LongVector(r, s.nulls(), n);
    }

    /** The rewrite of REGEXP_REPLACE's replacement text, checked against this pattern's groups. */
    RegexRewrite rewrite(String replacement) {
        return RegexRewrite.parse(replacement, groupCount);
    }

    /**
     * REGEXP_REPLACE: the first match, or every match with 'g', replaced by {@code constant} or else by each row's
     * replacement (then parsed per row). As RE2 (DuckDB's engine), an empty match right where the previous match
     * ended is skipped: {@code REGEXP_REPLACE('abc', 'b*', '-', 'g')} is '-a-c-', not Java's '-a--c-'.
     */
    BytesVector replace(BytesVector s, BytesVector replacement, RegexRewrite constant, int n) {
        BytesVector.Builder out = new BytesVector.Builder(n);
        Matcher m = pattern.matcher("");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (s.isNull(i) || replacement.isNull(i)) {
                out.appendNull();
                continue;
            }
            RegexRewrite rewrite = constant != null ? constant : rewrite(replacement.getString(i));
            String str = s.getString(i);
            int len = str.length();
            m.reset(str);
            sb.setLength(0);
            int copied = 0;
            int lastEnd = -1;
            for (int from = 0; from <= len && m.find(from); ) {
                int start = m.start();
                int end = m.end();
                if (start == end && start == lastEnd) {
                    from = start < len ? start + Character.charCount(str.codePointAt(start)) : len + 1;
                    continue;
                }
                sb.append(str, copied, start);
                rewrite.appendTo(sb, m, str);
                copied = end;
                lastEnd = end;
                if (!global) {
                    break;
                }
                // after an empty match step a whole code point on, not into the middle of a surrogate pair
                from = start < end ? end : end < len ? end + Character.charCount(str.codePointAt(end)) : len + 1;
            }
            if (lastEnd < 0) {
                out.append(s.data(), s.start(i), s.length(i));
                continue;
            }
            sb.append(str, copied, len);
            out.append(sb.toString().getBytes(StandardCharsets.UTF_8));
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
