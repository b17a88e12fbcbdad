package io.ferry.core.stats;

import java.util.Arrays;
import java.util.HexFormat;

/** The smallest and largest non-NULL value of a column, in the column's physical form. */
public sealed interface ValueRange permits ValueRange.LongRange, ValueRange.DoubleRange, ValueRange.BytesRange {

    /** The range covering both; {@code other} must be of the same kind. */
    ValueRange union(ValueRange other);

    /**
     * BIGINT, INTEGER, BOOLEAN (0/1), DATE (epoch days), TIMESTAMP (epoch milliseconds) and DECIMAL (unscaled)
     * values, as blocks store them.
     */
    record LongRange(long min, long max) implements ValueRange {
        @Override
        public LongRange union(ValueRange other) {
            LongRange o = (LongRange) other;
            return new LongRange(Math.min(min, o.min), Math.max(max, o.max));
        }
    }

    /**
     * DOUBLE values in the order ORDER BY uses ({@link Double#compare}): -0.0 before +0.0, NaN after everything, so
     * a column holding a NaN has NaN as its max.
     */
    record DoubleRange(double min, double max) implements ValueRange {
        /**
         * A long that orders as {@link Double#compare} orders doubles (-0.0 before +0.0, NaN last): a negative
         * double's other bits are flipped, so a larger magnitude sorts lower. Its own inverse. Loops over doubles then
         * compare longs, with no branch for NaN or signed zero.
         */
        public static long orderKey(double value) {
            long bits = Double.doubleToLongBits(value);
            return bits ^ ((bits >> 63) & Long.MAX_VALUE);
        }

        /** The double whose {@link #orderKey} is {@code key}. */
        public static double fromOrderKey(long key) {
            return Double.longBitsToDouble(key ^ ((key >> 63) & Long.MAX_VALUE));
        }

        @Override
        public DoubleRange union(ValueRange other) {
            DoubleRange o = (DoubleRange) other;
            return new DoubleRange(Double.compare(o.min, min) < 0 ? o.min : min,
                    Double.compare(o.max, max) > 0 ? o.max : max);
        }
    }

    /**
     * VARCHAR values as UTF-8 bytes compared unsigned, lexicographically: the order of Unicode code points. Whole
     * values, not prefixes; the arrays are copied in and out so the range stays a value.
     */
    record BytesRange(byte[] min, byte[] max) implements ValueRange {
        public BytesRange {
            min = min.clone();
            max = max.clone();
        }

        @Override
        public byte[] min() {
            return min.clone();
        }

        @Override
        public byte[] max() {
            return max.clone();
        }

        @Override
        public BytesRange union(ValueRange other) {
            BytesRange o = (BytesRange) other;
            return new BytesRange(Arrays.compareUnsigned(o.min, min) < 0 ? o.min : min,
                    Arrays.compareUnsigned(o.max, max) > 0 ? o.max : max);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BytesRange r && Arrays.equals(min, r.min) && Arrays.equals(max, r.max);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(min) + Arrays.hashCode(max);
        }

        @Override
        public String toString() {
            return "BytesRange[min=" + HexFormat.of().formatHex(min) + ", max=" + HexFormat.of().formatHex(max) + "]";
        }
    }
}
