package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

import io.ferry.core.types.FerryType;

/**
 * One window function of a {@link PlanNode.Window}: {@code arg} is the input column it reads (-1 for the ranking
 * functions and COUNT(*)); {@code type} its result type. LAG and LEAD also carry how many rows back or ahead they
 * look ({@code offset}, negative to look the other way) and the column whose value they give past the partition's
 * edge ({@code defaultArg}, or -1 for NULL); every other kind has offset 0 and no default.
 */
public record WindowCall(Kind kind, int arg, FerryType type, long offset, int defaultArg) {
    public WindowCall {
        requireNonNull(kind, "kind is null");
        requireNonNull(type, "type is null");
        if (arg < -1 || (arg == -1 && !kind.argumentOptional())) {
            throw new IllegalArgumentException(kind + " of column " + arg);
        }
        if (defaultArg < -1 || ((offset != 0 || defaultArg != -1) && !kind.shifts())) {
            throw new IllegalArgumentException(kind + " with an offset or a default");
        }
    }

    public WindowCall(Kind kind, int arg, FerryType type) {
        this(kind, arg, type, 0, -1);
    }

    public enum Kind {
        ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST,
        /** COUNT(x), or COUNT(*) with no argument. */
        COUNT,
        /** NULL over a frame with no non-NULL value. */
        SUM,
        /** 0 over a frame with no non-NULL value (what SQL's SUM is, guarded by a COUNT, once Calcite expands it). */
        SUM0,
        MIN, MAX, FIRST_VALUE, LAST_VALUE, LAG, LEAD;

        /** Whether the kind reads no column (ranking) or may read none (COUNT). */
        public boolean argumentOptional() {
            return this == ROW_NUMBER || this == RANK || this == DENSE_RANK || this == PERCENT_RANK
                    || this == CUME_DIST || this == COUNT;
        }

        /** Whether the value depends only on the row's place among its partition's peers, not on the frame. */
        public boolean ranking() {
            return this == ROW_NUMBER || this == RANK || this == DENSE_RANK || this == PERCENT_RANK
                    || this == CUME_DIST;
        }

        /** LAG and LEAD: a value a fixed number of rows away. */
        public boolean shifts() {
            return this == LAG || this == LEAD;
        }
    }
}
