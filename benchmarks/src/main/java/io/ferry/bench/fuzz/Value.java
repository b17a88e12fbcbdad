package io.ferry.bench.fuzz;

/**
 * One cell of a generated row as an INSERT spells it: an SQL literal, or a value bound as a parameter. Parameters
 * carry what no literal can: strings outside Latin-1 (Ferry's parser reads string literals as ISO-8859-1 and
 * refuses others, "Failed to encode ... in character set 'ISO-8859-1'", a bug the fuzzer reports), -0.0 (a negated
 * literal folds to +0.0) and 19-digit BIGINTs (Calcite types the literal DECIMAL(19,0), past Ferry's 18 digits).
 * Ferry plans a VALUES with a parameter or a cast per row, some milliseconds a row, where literals take
 * microseconds, so such cells are few.
 */
public record Value(String literal, Object parameter) {
    public static final Value NULL = new Value("NULL", null);

    public static Value literal(String sql) {
        return new Value(sql, null);
    }

    public static Value string(String s) {
        return latin1(s) ? new Value(quote(s), null) : parameter(s);
    }

    public static Value parameter(Object value) {
        return new Value("?", value);
    }

    public boolean isParameter() {
        return parameter != null;
    }

    public static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    public static boolean latin1(String s) {
        return s.chars().allMatch(c -> c <= 0xFF);
    }
}
