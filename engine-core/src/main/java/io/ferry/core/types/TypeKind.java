package io.ferry.core.types;

/** The SQL types Ferry stores and computes on. */
public enum TypeKind {
    BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, VARCHAR
}
