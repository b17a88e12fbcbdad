package io.ferry.core.exec;

import static java.util.Objects.requireNonNull;

import io.ferry.core.types.FerryType;

/**
 * One window function of a {@link PlanNode.Window}: {@code arg} is the input column it reads (-1 for the ranking
 * functions and COUNT(*)); {@code type} its result type. LAG and LEAD also carry how many rows back or ahead they
 * look ({@code offset}, negative to look the other way) and the column whose value they give past the partition's
 * edge ({@code defaultArg}, or -1 for NULL); when the offset is not a constant but each row's own, {@code offsetArg}
 * is the BIGINT column that holds it (-1 otherwise; a row whose offset is NULL gets NULL, as in DuckDB and
 * PostgreSQL). NTH_VALUE carries which row of its frame it takes (from 1); every other kind has offset 0 and no
 * default. {@code ignoreNulls}: the value kinds skip rows whose argument is NULL.
 */
public record WindowCall(Kind kind, int arg, FerryType type, long offset, int defaultArg, boolean ignoreNulls,
        int offsetArg) {
    public WindowCall {
        requireNonNull(kind, "kind is null");
        requireNonNull(type, "type is null");
        if (arg < -1 || (arg == -1 && !kind.argumentOptional())) {
            throw new IllegalArgumentException(kind + " of column " + arg);
        }
        if (defaultArg < -1 || (defaultArg != -1 && !kind.shifts())
                || (offset != 0 && !kind.shifts() && kind != Kind.NTH_VALUE) || (kind == Kind.NTH_VALUE && offset < 1)) {
            throw new IllegalArgumentException(kind + " with offset " + offset + " and default " + defaultArg);
        }
        if (ignoreNulls && !kind.picksValues()) {
            throw new IllegalArgumentException(kind + " IGNORE NULLS");
        }
        if (offsetArg < -1 || (offsetArg != -1 && !kind.shifts())) {
            throw new IllegalArgumentException(kind + " with its offset in column " + offsetArg);
        }
    }

    /** A call whose offset, if it has one, is a constant. */
    public WindowCall(Kind kind, int arg, FerryType type, long offset, int defaultArg, boolean ignoreNulls) {
        this(kind, arg, type, offset, defaultArg, ignoreNulls, -1);
    }

    public WindowCall(Kind kind, int arg, FerryType type) {
        this(kind, arg, type, 0, -1, false);
    }

    public enum Kind {
        ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST,
        /** COUNT(x), or COUNT(*) with no argument. */
        COUNT,
        /** NULL over a frame with no non-NULL value. */
        SUM,
        /** 0 over a frame with no non-NULL value (what SQL's SUM is, guarded by a COUNT, once Calcite expands it). */
        SUM0,
        MIN, MAX, FIRST_VALUE, LAST_VALUE, LAG, LEAD,
        /** The frame's {@code offset}-th row (from 1), NULL where the frame has fewer. */
        NTH_VALUE;

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

        /** The kinds that pick one row's value, which IGNORE NULLS picks among the rows whose value is not NULL. */
        public boolean picksValues() {
            return this == FIRST_VALUE || this == LAST_VALUE || this == NTH_VALUE || shifts();
        }

        /** LAG and LEAD: a value a number of rows away. */
        public boolean shifts() {
            return this == LAG || this == LEAD;
        }
    }
}
