package io.ferry.core.vector;

/**
 * A column of a {@link Batch} that has not been made yet: how to make it, and how to narrow it to some of its rows
 * without making it. Narrowing composes positions (one int per row), which is what lets filters and joins pass
 * wide rows along without copying their values.
 */
public interface PendingColumn {
    Vector materialize();

    /** This column's rows at {@code positions[0..count)}; -1 yields NULL. */
    PendingColumn gather(int[] positions, int count);

    /**
     * For an integral column (or a date, timestamp or DECIMAL of up to 18 digits, as their unscaled longs): writes
     * to {@code out} the rows whose value v is not NULL and has {@code v - lo} at most {@code span} compared unsigned
     * ({@code lo <= v <= lo + span}) and, with {@code bits}, bit {@code v - lo} set there; returns how many, or -1
     * where this column cannot without being made, and the caller makes it. A scan's filter so tests a block's
     * values where they lie, without a vector of them.
     */
    default int select(long lo, long span, long[] bits, int[] out) {
        return -1;
    }

    /** {@code outer[inner[i]]}, with -1 where either step is -1 (an outer join's padding). */
    static int[] compose(int[] outer, int[] inner, int count) {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            int p = inner[i];
            out[i] = p < 0 ? -1 : outer[p];
        }
        return out;
    }

    /** Some rows of an existing vector. */
    record Gathered(Vector source, int[] positions, int count) implements PendingColumn {
        @Override
        public Vector materialize() {
            return source.gather(positions, count);
        }

        @Override
        public PendingColumn gather(int[] inner, int n) {
            return new Gathered(source, compose(positions, inner, n), n);
        }
    }
}
