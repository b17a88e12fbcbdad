package io.ferry.server.runtime;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.Spine;
import io.ferry.core.storage.Table;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.sql.distributed.Fragments;

/**
 * The size of a unit's result, estimated before it runs (the cost model's "estimated result size (group-by
 * cardinality from column statistics)"): a partial aggregate returns one row per group the unit sees — at most the
 * product of the group keys' distinct counts kept at load, and at most the unit's rows; a fragment without an
 * aggregate returns its rows. A key may come from the divided table or from a build side (a star join grouped by
 * dimension attributes, as SSB's are): either table's statistics count its groups.
 */
final class ResultEstimate {
    /** Expected LZ4 ratio on aggregate results (keys and small counts), measured in docs/experiments.md. */
    static final double LZ4_RATIO = 0.5;

    private ResultEstimate() {
    }

    static long rows(PlanNode fragment, long unitRows) {
        int[] keys = Fragments.partialGroupKeys(fragment);
        if (keys == null) {
            return unitRows;
        }
        if (keys.length == 0) {
            return 1;
        }
        PlanNode input = Fragments.partialInput(fragment);
        double groups = 1;
        for (int k : keys) {
            Spine.Origin o = Spine.origin(input, k);
            long distinct = o == null || !(o.scan().table() instanceof Table t) ? -1 : distinct(t, o.column());
            if (distinct < 0) {
                return unitRows; // an expression or unknown column: assume every row its own group
            }
            groups *= Math.max(1, distinct);
        }
        return (long) Math.min(unitRows, groups);
    }

    /**
     * The groups the unit's rows are hashed into, which sets what a row costs (see {@link Calibration}): the result
     * rows for a partial aggregate; 1 for a fragment without one, whose rows are only filtered and projected.
     */
    static long groups(PlanNode fragment, long resultRows) {
        return Fragments.partialGroupKeys(fragment) == null ? 1 : resultRows;
    }

    /** Groups a GROUP BY on a column forms (distinct values, plus one for NULL), from the sketches kept at load. */
    private static long distinct(Table table, int column) {
        return table.stats().column(column).groupCount();
    }

    /** Encoded bytes of {@code rows} rows of the fragment's output. */
    static long bytes(PlanNode fragment, long rows) {
        long width = 0;
        for (FerryType t : fragment.types()) {
            width += t.physical() == Physical.BYTES ? 24 : 8;
        }
        return 1024 + rows * width;
    }
}
