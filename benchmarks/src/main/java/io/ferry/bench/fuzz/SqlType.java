package io.ferry.bench.fuzz;

/** The value types Ferry supports, as the generator tracks them (a DECIMAL's precision and scale aside). */
public enum SqlType {
    BOOLEAN, INTEGER, BIGINT, DECIMAL, DOUBLE, DATE, TIMESTAMP, VARCHAR;

    public boolean numeric() {
        return this == INTEGER || this == BIGINT || this == DOUBLE || this == DECIMAL;
    }

    /** Integer or decimal: arithmetic on it can overflow, so the generator bounds its magnitude. */
    public boolean exact() {
        return this == INTEGER || this == BIGINT || this == DECIMAL;
    }

    /** The type of {@code a op b} for + - * in both dialects: INTEGER < BIGINT < DECIMAL < DOUBLE. */
    public static SqlType widen(SqlType a, SqlType b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }

    /** A target of CAST; DECIMAL stays within Ferry's 18 digits. */
    public String castName() {
        return this == DECIMAL ? "DECIMAL(12,2)" : name();
    }
}
