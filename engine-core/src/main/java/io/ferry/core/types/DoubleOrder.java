package io.ferry.core.types;

/**
 * DOUBLE comparisons as SQL orders the values (PostgreSQL and DuckDB alike): NaN equals NaN and is greater than every
 * other value, infinities included, while -0.0 equals 0.0. Java's operators answer FALSE for any comparison with a
 * NaN, so {@code NaN > 1} was FALSE in a filter, and MAX kept a NaN only when it came first. Each is a few
 * comparisons, no branch the JIT cannot turn into a conditional move, for the vectorized loops.
 */
public final class DoubleOrder {
    private DoubleOrder() {
    }

    public static boolean equal(double x, double y) {
        return x == y || (x != x && y != y);
    }

    public static boolean less(double x, double y) {
        return x < y || (y != y && x == x);
    }

    public static boolean lessOrEqual(double x, double y) {
        return x <= y || y != y;
    }

    public static boolean greater(double x, double y) {
        return less(y, x);
    }

    public static boolean greaterOrEqual(double x, double y) {
        return lessOrEqual(y, x);
    }
}
