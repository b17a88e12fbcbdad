package io.ferry.core.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * REGEXP_REPLACE's replacement text read as DuckDB (RE2) reads it: {@code \0} to {@code \9} stand for the match and
 * its groups, {@code \\} for a backslash, and every other character for itself ({@code $1} too). A backslash before
 * anything else, a trailing one, or a group the pattern lacks is 22023. Parsed once for a constant replacement.
 */
final class RegexRewrite {
    /** The literal text before each group reference, then the text after the last one. */
    private final String[] texts;
    /** The group each reference names; {@code texts[k]} comes before group {@code groups[k]}. */
    private final int[] groups;

    private RegexRewrite(String[] texts, int[] groups) {
        this.texts = texts;
        this.groups = groups;
    }

    static RegexRewrite parse(String replacement, int groupCount) {
        List<String> texts = new ArrayList<>();
        List<Integer> groups = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int k = 0; k < replacement.length(); k++) {
            char c = replacement.charAt(k);
            if (c != '\\') {
                text.append(c);
                continue;
            }
            char next = k + 1 < replacement.length() ? replacement.charAt(k + 1) : 0;
            k++;
            if (next == '\\') {
                text.append('\\');
            } else if (next >= '0' && next <= '9') {
                if (next - '0' > groupCount) {
                    throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "REGEXP_REPLACE's replacement '"
                            + replacement + "' refers to group " + next + ", but the pattern has " + groupCount);
                }
                texts.add(text.toString());
                groups.add(next - '0');
                text.setLength(0);
            } else {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "REGEXP_REPLACE's replacement '"
                        + replacement + "' has a backslash that is followed by neither a digit nor a backslash;"
                        + " write \\\\ for a backslash");
            }
        }
        texts.add(text.toString());
        return new RegexRewrite(texts.toArray(new String[0]), groups.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Appends the replacement of {@code m}'s match in {@code input}; a group that took no part adds nothing. */
    void appendTo(StringBuilder out, Matcher m, String input) {
        for (int k = 0; k < groups.length; k++) {
            out.append(texts[k]);
            int start = m.start(groups[k]);
            if (start >= 0) {
                out.append(input, start, m.end(groups[k]));
            }
        }
        out.append(texts[groups.length]);
    }
}
