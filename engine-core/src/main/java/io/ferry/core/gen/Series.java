package io.ferry.core.gen;

import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;

/**
 * {@code generate_series(start, stop, step)} as PostgreSQL and DuckDB define it: {@code start}, {@code start + step},
 * … while the value has not passed {@code stop} (which is included when the steps land on it); no rows when the
 * steps lead away from {@code stop}. One BIGINT column named {@code generate_series}.
 */
public record Series(long start, long stop, long step) implements RowGenerator {
    /** At most 2^40 rows (a trillion): a series longer than that is a typo, not a table. */
    public static final long MAX_ROWS = 1L << 40;

    public Series {
        if (step == 0) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "generate_series: the step must not be 0; "
                    + "give a positive step to count up or a negative one to count down");
        }
        long rows = count(start, stop, step);
        if (Long.compareUnsigned(rows, MAX_ROWS) > 0) {
            throw new FerryException(SqlStates.PROGRAM_LIMIT_EXCEEDED, "generate_series(" + start + ", " + stop + ", "
                    + step + ") would make more than " + MAX_ROWS + " rows, the most a series may have; use a "
                    + "larger step or a shorter range");
        }
    }

    /**
     * The number of values, as an unsigned long: the distance between start and stop is taken unsigned, so the
     * whole BIGINT range (whose width does not fit a signed long) is counted right.
     */
    private static long count(long start, long stop, long step) {
        if (step > 0 ? start > stop : start < stop) {
            return 0;
        }
        long distance = step > 0 ? stop - start : start - stop;
        long stride = step > 0 ? step : -step; // Long.MIN_VALUE stays itself: 2^63 as unsigned, right
        long steps = Long.divideUnsigned(distance, stride);
        return steps == -1 ? -1 : steps + 1; // 2^64 values saturate to the largest unsigned
    }

    @Override
    public List<String> names() {
        return List.of("generate_series");
    }

    @Override
    public List<FerryType> types() {
        return List.of(FerryType.BIGINT);
    }

    @Override
    public long rows() {
        return count(start, stop, step);
    }

    @Override
    public Batch morsel(int m) {
        int n = morselRows(m);
        long[] values = new long[n];
        // Every value lies between start and stop, so the products may wrap but the sums land right (two's
        // complement arithmetic is modular).
        long first = start + (long) m * MORSEL_ROWS * step;
        for (int i = 0; i < n; i++) {
            values[i] = first + i * step;
        }
        return Batch.of(new LongVector(values, null));
    }
}
