package io.ferry.core.exec;

import java.util.List;

import io.ferry.core.types.FerryType;

/**
 * One aggregate: {@code arg} is the input column (-1 for COUNT(*) and APPROX_COUNT(*)); {@code type} the result
 * type. The quantile kinds also carry the fraction they pick, in [0, 1], and whether the argument is ordered
 * descending ({@code WITHIN GROUP (ORDER BY x DESC)}); every other kind has fraction 0, ascending.
 *
 * <p>{@code arg2} is a second argument column or -1: the x of the two-variable statistics (CORR(y, x), REGR_*,
 * COVAR_*), the second column of COUNT(a, b), the separator of STRING_AGG. {@code filter} is a BOOLEAN column or
 * -1: only rows where it is TRUE reach this call ({@code FILTER (WHERE ...)}). {@code distinct} makes the call see
 * each distinct non-NULL argument (tuple) once per group ({@link DistinctAccumulator}); a plain COUNT(DISTINCT x)
 * alone is planned above this level instead, as a grouping on the argument first.
 *
 * <p>{@code order} is the ORDER BY inside a STRING_AGG call ({@code STRING_AGG(s, sep ORDER BY k DESC)}, LISTAGG's
 * {@code WITHIN GROUP (ORDER BY ...)}): the input columns the group's values are joined in the order of; empty for
 * every other call, and for STRING_AGG without ORDER BY, whose order of joining is unspecified.
 *
 * <p>{@code moreArgs} are the third and later argument columns of COUNT(a, b, c, ...) and COUNT(DISTINCT a, b, c,
 * ...), and of the partial state of the latter; empty for every other call. (A row value arrives as its fields,
 * each nullable one as two columns: {@code f IS NULL} and {@code COALESCE(f, zero)}.)
 */
public record AggCall(AggKind kind, int arg, FerryType type, double fraction, boolean descending, int arg2,
        int filter, boolean distinct, List<SortKey> order, List<Integer> moreArgs) {
    public AggCall {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("quantile fraction " + fraction + " is outside [0, 1]");
        }
        order = List.copyOf(order);
        if (!order.isEmpty() && kind != AggKind.STRING_AGG) {
            throw new IllegalArgumentException(kind + " has no ORDER BY of its own");
        }
        moreArgs = List.copyOf(moreArgs);
        if (!moreArgs.isEmpty() && (arg2 < 0 || !(kind == AggKind.COUNT || kind == AggKind.DISTINCT_SET))) {
            throw new IllegalArgumentException(kind + " of " + (moreArgs.size() + 2) + " arguments");
        }
    }

    public AggCall(AggKind kind, int arg, FerryType type, double fraction, boolean descending, int arg2, int filter,
            boolean distinct) {
        this(kind, arg, type, fraction, descending, arg2, filter, distinct, List.of(), List.of());
    }

    public AggCall(AggKind kind, int arg, FerryType type, double fraction, boolean descending, int arg2, int filter,
            boolean distinct, List<SortKey> order) {
        this(kind, arg, type, fraction, descending, arg2, filter, distinct, order, List.of());
    }

    public AggCall(AggKind kind, int arg, FerryType type, double fraction, boolean descending) {
        this(kind, arg, type, fraction, descending, -1, -1, false);
    }

    public AggCall(AggKind kind, int arg, FerryType type) {
        this(kind, arg, type, 0, false);
    }

    /** This call reading columns {@code arg}, {@code arg2} and {@code filter} instead (-1 stays -1). */
    public AggCall withColumns(int arg, int arg2, int filter) {
        return new AggCall(kind, arg, type, fraction, descending, arg2, filter, distinct, order, moreArgs);
    }

    /** This call joining its values in the order of {@code newOrder} instead. */
    public AggCall withOrder(List<SortKey> newOrder) {
        return new AggCall(kind, arg, type, fraction, descending, arg2, filter, distinct, newOrder, moreArgs);
    }

    /** This call reading {@code newMoreArgs} as its third and later arguments instead. */
    public AggCall withMoreArgs(List<Integer> newMoreArgs) {
        return new AggCall(kind, arg, type, fraction, descending, arg2, filter, distinct, order, newMoreArgs);
    }

    public enum AggKind {
        COUNT, SUM, MIN, MAX, AVG,
        /** Sum of partial counts: like SUM, but 0 rather than NULL over no rows. */
        SUM0,
        /**
         * Population estimates from a sample and the bounds of their 95% confidence interval (docs/sampling.md):
         * the row count, the total and the mean of the argument over the table before TABLESAMPLE.
         */
        APPROX_COUNT(Quantity.COUNT, Bound.ESTIMATE), APPROX_COUNT_LOWER(Quantity.COUNT, Bound.LOWER),
        APPROX_COUNT_UPPER(Quantity.COUNT, Bound.UPPER),
        APPROX_SUM(Quantity.SUM, Bound.ESTIMATE), APPROX_SUM_LOWER(Quantity.SUM, Bound.LOWER),
        APPROX_SUM_UPPER(Quantity.SUM, Bound.UPPER),
        APPROX_AVG(Quantity.AVG, Bound.ESTIMATE), APPROX_AVG_LOWER(Quantity.AVG, Bound.LOWER),
        APPROX_AVG_UPPER(Quantity.AVG, Bound.UPPER),
        /**
         * The partial state of the APPROX_ calls on one argument when each sampled row is a unit (BERNOULLI, or no
         * sample): five DOUBLE sums, Σt Σm Σt² Σm² Σtm ({@link io.ferry.core.stats.SampleMoments}).
         */
        ROW_MOMENTS,
        /** As {@link #ROW_MOMENTS}, with each sampled block a unit (SYSTEM): its rows are summed before squaring. */
        BLOCK_MOMENTS,
        /**
         * Exact quantiles (MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC): CONT interpolates linearly between the two
         * values around position {@code fraction * (n - 1)} of the sorted non-NULL values, as a DOUBLE (a DECIMAL in
         * its own type, cut toward zero to its scale); DISC returns
         * the first value whose cumulative share reaches the fraction (index {@code ceil(fraction * n) - 1}), in the
         * argument's type. Both travel as {@link #VALUES}.
         */
        PERCENTILE_CONT, PERCENTILE_DISC,
        /** A quantile estimated from a KLL sketch (Apache DataSketches), as a DOUBLE; travels as {@link #KLL}. */
        APPROX_PERCENTILE,
        /**
         * The partial state of exact quantiles: every non-NULL value of the argument in a group, packed into bytes
         * (8 per value); over packed input it concatenates.
         */
        VALUES,
        /** The partial state of APPROX_PERCENTILE: a serialized KLL sketch; over serialized sketches it merges. */
        KLL,
        /**
         * The two-variable statistics of SQL:2016 (accumulated in DOUBLE over the rows where both y = {@code arg}
         * and x = {@code arg2} are non-NULL): they travel as {@link #CO_MOMENTS}. NULL or NaN where undefined, as DuckDB
         * ({@link CoMomentsAccumulator#finish}).
         */
        COVAR_POP, COVAR_SAMP, CORR, REGR_SLOPE, REGR_INTERCEPT, REGR_R2, REGR_AVGX, REGR_AVGY, REGR_SXX, REGR_SYY,
        REGR_SXY,
        /**
         * The partial state of the two-variable statistics on one (y, x): count, means and co-moments, packed into
         * bytes ({@link CoMomentsAccumulator}); over packed input it merges (Chan et al.'s pairwise update).
         */
        CO_MOMENTS,
        /**
         * STRING_AGG(s, sep) and LISTAGG: the non-NULL values joined, each after its row's separator but the first.
         * Its state is the joined text behind the first value's separator, so that two states join exactly as their
         * rows would have ({@link StringAggAccumulator}); over such states ({@link #STRING_AGG_MERGE}) it joins them.
         */
        STRING_AGG, STRING_AGG_MERGE,
        /**
         * The merge of STRING_AGG ... ORDER BY: its partial ({@link #STRING_AGG} with an {@link AggCall#order})
         * keeps each row of a group as an entry (an order-preserving encoding of its sort key, its separator, its
         * value), since the order is known only once every row is; over packed entries this concatenates them, and
         * the finish sorts and joins ({@link OrderedStringAggAccumulator}).
         */
        ORDERED_STRING_AGG_MERGE,
        /** The partial state of a DISTINCT call: each group's set of distinct argument tuples, packed; unions. */
        DISTINCT_SET,
        /**
         * GROUPING(k) under grouping sets, k ({@code arg}) one of the group keys: 1 in the rows of a set without k,
         * whose NULL there stands for every value of k, 0 in the others (a NULL there is a NULL key value), as a
         * BIGINT. It has no state: the set a row comes from gives it ({@link PlanNode.Aggregate#groupSets}).
         */
        GROUPING;

        /** What an APPROX_ kind estimates. */
        public enum Quantity {
            COUNT, SUM, AVG
        }

        /** Which number of the estimate an APPROX_ kind returns. */
        public enum Bound {
            ESTIMATE, LOWER, UPPER
        }

        private final Quantity quantity;
        private final Bound bound;

        AggKind() {
            this(null, null);
        }

        AggKind(Quantity quantity, Bound bound) {
            this.quantity = quantity;
            this.bound = bound;
        }

        /** Whether this is one of the APPROX_ estimates. */
        public boolean approximate() {
            return quantity != null;
        }

        /** What an APPROX_ kind estimates; null for the others. */
        public Quantity quantity() {
            return quantity;
        }

        /** The estimate or bound an APPROX_ kind returns; null for the others. */
        public Bound bound() {
            return bound;
        }

        /** Whether this kind picks a quantile and so reads {@link AggCall#fraction()}. */
        public boolean quantile() {
            return this == PERCENTILE_CONT || this == PERCENTILE_DISC || this == APPROX_PERCENTILE;
        }

        /** Whether the call may go without an argument (COUNT(*), APPROX_COUNT(*) and their partial states). */
        public boolean argumentOptional() {
            return this == COUNT || quantity == Quantity.COUNT || this == ROW_MOMENTS || this == BLOCK_MOMENTS;
        }

        /** Whether this is one of the two-variable statistics that travel as {@link #CO_MOMENTS}. */
        public boolean bivariate() {
            return compareTo(COVAR_POP) >= 0 && compareTo(REGR_SXY) <= 0;
        }
    }
}
