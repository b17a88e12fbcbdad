package io.ferry.sql.translate;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * SQL's {@code SIMILAR TO} pattern as a java.util.regex pattern over the whole string: {@code %} is any text and
 * {@code _} any one character, as in LIKE; {@code | * + ? {m,n} ( ) [...]} are regular-expression syntax; every
 * other character, {@code .} included, stands for itself (SQL:2016 8.6, as PostgreSQL reads it). There is no
 * escape character unless the ESCAPE clause names one, as in Calcite's row engine.
 */
final class SimilarPatterns {
    private static final String REGEX_SYNTAX = "|*+?{}()";

    private SimilarPatterns() {
    }

    static String toRegex(String pattern, String escape) {
        if (escape != null && escape.codePointCount(0, escape.length()) != 1) {
            throw new FerryException("22019", "SIMILAR TO's ESCAPE must be one character, not '" + escape + "'");
        }
        int esc = escape == null ? -1 : escape.codePointAt(0);
        StringBuilder re = new StringBuilder(pattern.length() * 2);
        boolean inClass = false;
        int[] cps = pattern.codePoints().toArray();
        for (int i = 0; i < cps.length; i++) {
            int c = cps[i];
            if (c == esc) {
                if (++i == cps.length) {
                    throw new FerryException("22025", "SIMILAR TO pattern '" + pattern + "' ends with its escape "
                            + "character; follow it with the character it makes literal");
                }
                literal(re, cps[i]);
            } else if (inClass) {
                inClass = c != ']';
                if (c == '\\' || c == '[') {
                    re.append('\\');
                }
                re.appendCodePoint(c);
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else if (c == '[') {
                inClass = true;
                re.append('[');
            } else if (REGEX_SYNTAX.indexOf(c) >= 0) {
                re.append((char) c);
            } else {
                literal(re, c);
            }
        }
        if (inClass) {
            throw new FerryException(SqlStates.INVALID_REGULAR_EXPRESSION, "SIMILAR TO pattern '" + pattern
                    + "' opens a bracket expression '[' that it does not close");
        }
        return re.toString();
    }

    private static void literal(StringBuilder re, int c) {
        if (!Character.isLetterOrDigit(c) && c < 128) {
            re.append('\\');
        }
        re.appendCodePoint(c);
    }
}
