package io.ferry.server.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at the semicolons that end them — not those inside string literals, quoted
 * identifiers or comments.
 */
final class SqlScript {
    private SqlScript() {
    }

    /** The statements of {@code text}, each without its semicolon; blank ones (and pure comments) are dropped. */
    static List<String> split(String text) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean code = false;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                int end = closing(text, i, c);
                current.append(text, i, end);
                code = true;
                i = end;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int end = text.indexOf('\n', i);
                end = end < 0 ? n : end;
                current.append(text, i, end);
                i = end;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                current.append(text, i, end);
                i = end;
            } else if (c == ';') {
                if (code) {
                    statements.add(current.toString().strip());
                }
                current.setLength(0);
                code = false;
                i++;
            } else {
                current.append(c);
                code |= !Character.isWhitespace(c);
                i++;
            }
        }
        if (code) {
            statements.add(current.toString().strip());
        }
        return statements;
    }

    /** Index after the quote that closes the one at {@code start}; a doubled quote is an escaped one. */
    private static int closing(String text, int start, char quote) {
        int i = start + 1;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return text.length();
    }
}
