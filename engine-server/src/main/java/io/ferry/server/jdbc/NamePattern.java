package io.ferry.server.jdbc;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A name pattern of JDBC's metadata calls: {@code %} matches any run of characters, {@code _} any one character, and
 * the search string escape {@code \} makes the next character stand for itself. Calcite's embedded metadata reads
 * {@code _} as itself, so {@code getTables(null, null, "_ustomer", null)} found nothing; Ferry matches the patterns
 * itself. A null pattern matches every name, as JDBC says.
 */
record NamePattern(String pattern, Pattern regex) {
    static final char ESCAPE = '\\';

    static NamePattern of(String pattern) {
        if (pattern == null) {
            return new NamePattern(null, null);
        }
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == ESCAPE && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return new NamePattern(pattern, Pattern.compile(regex.toString(), Pattern.DOTALL));
    }

    boolean matches(Object name) {
        return regex == null || name instanceof String s && regex.matcher(s).matches();
    }

    /** The pattern with its letters in lower case: Ferry folds unquoted names so. */
    NamePattern lowerCase() {
        return pattern == null ? this : of(pattern.toLowerCase(Locale.ROOT));
    }

    boolean hasUpperCase() {
        return pattern != null && !pattern.equals(pattern.toLowerCase(Locale.ROOT));
    }
}
