package io.ferry.core.exec;

import io.ferry.core.types.FerryType;

/**
 * One aggregate: {@code arg} is the input column (-1 for COUNT(*) and APPROX_COUNT(*)); {@code type} the result
 * type. DISTINCT is planned above this level (a grouping on the argument first).
 */
public record AggCall(AggKind kind, int arg, FerryType type) {
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
        BLOCK_MOMENTS;

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

        /** Whether the call may go without an argument (COUNT(*), APPROX_COUNT(*) and their partial states). */
        public boolean argumentOptional() {
            return this == COUNT || quantity == Quantity.COUNT || this == ROW_MOMENTS || this == BLOCK_MOMENTS;
        }
    }
}
