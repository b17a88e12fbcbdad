package io.ferry.core.exec;

import io.ferry.core.types.FerryType;

/**
 * One aggregate: {@code arg} is the input column (-1 for COUNT(*)); {@code type} the result type.
 * DISTINCT is planned above this level (a grouping on the argument first).
 */
public record AggCall(AggKind kind, int arg, FerryType type) {
    public enum AggKind {
        COUNT, SUM, MIN, MAX, AVG,
        /** Sum of partial counts: like SUM, but 0 rather than NULL over no rows. */
        SUM0
    }
}
