package io.ferry.sql.jdbc;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * What a statement's text says before the planner reads it: whether it holds any statement at all, and how many
 * parameter markers ({@code ?}) it has outside literals, quoted names and comments.
 */
public final class StatementText {
    private final int markers;
    private final boolean empty;

    private StatementText(int markers, boolean empty) {
        this.markers = markers;
        this.empty = empty;
    }

    public static StatementText of(String sql) {
        int markers = 0;
        boolean empty = true;
        int n = sql == null ? 0 : sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = closing(sql, i, c);
                empty = false;
            } else if (c == '?') {
                markers++;
                empty = false;
            } else if (c != ';') {
                int next = afterBlanks(sql, i);
                if (next == i) {
                    empty = false;
                } else {
                    i = next - 1;
                }
            }
        }
        return new StatementText(markers, empty);
    }

    /** The index past the whitespace and comments (line and block comments) that start at {@code i}. */
    static int afterBlanks(String sql, int i) {
        int n = sql.length();
        while (i < n) {
            if (Character.isWhitespace(sql.charAt(i))) {
                i++;
            } else if (sql.startsWith("--", i)) {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? n : nl + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        return i;
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
    public int parameterMarkers() {
        return markers;
    }

    /**
     * Why a statement run without preparing it cannot run, or null if it can: it must hold a statement, and no
     * parameter markers (Calcite would bind a missing parameter as NULL and answer as if nothing were wrong).
     */
    public static FerryException checkPlain(String sql) {
        StatementText text = of(sql);
        if (text.isEmpty()) {
            return new FerryException(SqlStates.SYNTAX_ERROR, "empty statement: there is "
                    + "no SQL to run; send a statement such as SELECT 1");
        }
        if (text.parameterMarkers() > 0) {
            return new FerryException(SqlStates.WRONG_NUMBER_OF_PARAMETERS, "the "
                    + "statement has " + text.parameterMarkers() + " parameter marker(s) (?) and no values for them: "
                    + "run it as a PreparedStatement and set each parameter, or write the values into the SQL");
        }
        return null;
    }

    /** Whether the text is only whitespace, comments and semicolons. */
    public boolean isEmpty() {
        return empty;
    }
}
