package io.ferry.server.jdbc;

/**
 * What the JDBC server reads from a statement's text before handing it to the planner: whether it holds any
 * statement at all, and how many parameter markers ({@code ?}) it has outside literals, quoted names and comments.
 */
final class StatementText {
    private final int markers;
    private final boolean empty;

    private StatementText(int markers, boolean empty) {
        this.markers = markers;
        this.empty = empty;
    }

    static StatementText of(String sql) {
        int markers = 0;
        boolean empty = true;
        int n = sql == null ? 0 : sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closing(sql, i, c);
                empty = false;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? n : nl;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 1;
            } else if (c == '?') {
                markers++;
                empty = false;
            } else if (!Character.isWhitespace(c) && c != ';') {
                empty = false;
            }
        }
        return new StatementText(markers, empty);
    }

    /** The index of the quote closing the one at {@code open} (a doubled quote is an escaped one), or the end. */
    private static int closing(String sql, int open, char quote) {
        for (int i = open + 1; i < sql.length(); i++) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return sql.length();
    }

    /** Parameter markers outside literals, quoted names and comments. */
    int parameterMarkers() {
        return markers;
    }

    /** Whether the text is only whitespace, comments and semicolons. */
    boolean isEmpty() {
        return empty;
    }
}
