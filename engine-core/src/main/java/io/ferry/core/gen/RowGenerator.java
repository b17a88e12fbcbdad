package io.ferry.core.gen;

import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;

/**
 * Rows made on the spot rather than read: the source of a table function ({@code generate_series}, the skew
 * paper's workload). Rows come in morsels of at most {@link Vector#MAX_ROWS}, each computed from the generator's
 * values and its own number alone, so that driver threads make them in any order and in parallel and the same
 * generator always gives the same rows.
 */
public sealed interface RowGenerator permits Series, SkewRows {
    /** The rows in a morsel, but for the last. */
    int MORSEL_ROWS = Vector.MAX_ROWS;

    List<String> names();

    List<FerryType> types();

    long rows();

    default int morsels() {
        return Math.toIntExact((rows() + MORSEL_ROWS - 1) / MORSEL_ROWS);
    }

    /** The rows of morsel {@code m}, from row {@code m * MORSEL_ROWS} on. */
    Batch morsel(int m);

    /** The rows in morsel {@code m}. */
    default int morselRows(int m) {
        return (int) Math.min(MORSEL_ROWS, rows() - (long) m * MORSEL_ROWS);
    }
}
