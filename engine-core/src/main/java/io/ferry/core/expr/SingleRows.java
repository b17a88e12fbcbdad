package io.ferry.core.expr;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.LongVector;

/** The check of {@link Op#SINGLE_ROW}: a scalar subquery gave at most one row (per outer row, once decorrelated). */
public final class SingleRows {
    private SingleRows() {
    }

    /** Fails with 21000 if any of the first {@code rows} counts is above 1; a NULL count (no group) passes. */
    public static void check(LongVector counts, int rows) {
        long[] c = counts.values();
        for (int i = 0; i < rows; i++) {
            if (c[i] > 1 && !counts.isNull(i)) {
                throw fail(c[i]);
            }
        }
    }

    /** The error of a scalar subquery that returned {@code rows} rows. */
    public static FerryException fail(long rows) {
        return new FerryException(SqlStates.CARDINALITY_VIOLATION, "a scalar subquery returned " + rows
                + " rows where at most one is allowed: add a condition or an aggregate (MAX, MIN, ANY_VALUE) that "
                + "leaves one row, or LIMIT 1 to take any one");
    }
}
