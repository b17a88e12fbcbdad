package io.ferry.bench.fuzz;

import java.util.List;

/**
 * A failure as a JUnit 5 test to paste into engine-sql's tests (package io.ferry.sql, beside OracleQueriesTest):
 * the tables the query reads, their rows, and the query, answered by Ferry and DuckDB and compared with
 * ResultComparison. An internal error makes the same test fail with Ferry's exception.
 */
final class ReproWriter {
    private ReproWriter() {
    }

    static String junit(String testName, String comment, List<TableDef> tables, Query query) {
        StringBuilder sb = new StringBuilder();
        sb.append("    /**\n");
        for (String line : comment.split("\n")) {
            sb.append("     * ").append(javadoc(line)).append('\n');
        }
        sb.append("     */\n");
        sb.append("    @org.junit.jupiter.api.Test\n");
        sb.append("    void ").append(testName).append("() throws Exception {\n");
        sb.append("        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2)"
                + ".withBlockSize(8192));\n");
        sb.append("                java.sql.Connection ferry = engine.connect();\n");
        sb.append("                java.sql.Connection duck = java.sql.DriverManager.getConnection(\"jdbc:duckdb:\")) {\n");
        sb.append("            for (java.sql.Connection c : java.util.List.of(ferry, duck)) {\n");
        for (TableDef t : tables) {
            for (LoadStatement s : t.load()) {
                sb.append("                ");
                if (s.parameters().isEmpty()) {
                    sb.append("try (java.sql.Statement s = c.createStatement()) {\n");
                    sb.append("                    s.execute(").append(javaString(s.sql())).append(");\n");
                } else {
                    sb.append("try (java.sql.PreparedStatement s = c.prepareStatement(").append(javaString(s.sql()))
                            .append(")) {\n");
                    for (int i = 0; i < s.parameters().size(); i++) {
                        sb.append("                    s.setObject(").append(i + 1).append(", ")
                                .append(javaLiteral(s.parameters().get(i))).append(");\n");
                    }
                    sb.append("                    s.executeUpdate();\n");
                }
                sb.append("                }\n");
            }
        }
        sb.append("            }\n");
        sb.append("            ResultComparison.assertSameResult(ferry, duck,\n                    ")
                .append(javaString(query.sql())).append(", ").append(query.ordered()).append(");\n");
        sb.append("        }\n");
        sb.append("    }\n");
        return sb.toString();
    }

    private static String javaLiteral(Object value) {
        if (value instanceof String s) {
            return javaString(s);
        }
        if (value instanceof Double d) {
            return d + "d";
        }
        if (value instanceof Long l) {
            return l == Long.MIN_VALUE ? "Long.MIN_VALUE" : l + "L";
        }
        throw new IllegalArgumentException("no Java literal for " + value.getClass());
    }

    /** A Java string literal, ASCII only (anything else as a unicode escape), wrapped at about 100 characters. */
    static String javaString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        int width = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String piece = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\t' -> "\\t";
                default -> c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c);
            };
            if (width > 90 && c == ' ') {
                sb.append("\"\n                    + \"");
                width = 0;
            }
            sb.append(piece);
            width += piece.length();
        }
        return sb.append('"').toString();
    }

    private static String javadoc(String line) {
        // a backslash-u in a comment would be read as a unicode escape
        return line.replace("*/", "*&#47;").replace("@", "{@literal @}").replace("\\u", "\\\\u");
    }
}
