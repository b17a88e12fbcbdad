package io.ferry.sql.translate;

/** Thrown while translating when Ferry has no native operator for an expression; the rule then leaves the node to Calcite. */
public final class UnsupportedExpression extends RuntimeException {
    public UnsupportedExpression(String message) {
        super(message, null, false, false);
    }
}
