package io.ferry.core.exec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * The merged {@link ValuesAccumulator} states of one batch of groups, each group's values sorted once, from which
 * exact quantiles are read. DOUBLE values sort as DuckDB and PostgreSQL order them: -0.0 with 0.0, NaN above
 * every number.
 */
final class SortedValues {
    private final FerryType type;
    private final long[][] longs;
    private final double[][] doubles;
    /** A wide DECIMAL's values, exact; few groups hold many of them, so BigInteger's objects are affordable. */
    private final BigInteger[][] wides;
    private final boolean[] empty;

    SortedValues(BytesVector states, FerryType type) {
        this.type = type;
        int n = states.size();
        boolean floating = type.physical() == Physical.DOUBLE;
        boolean wide = type.isWideDecimal();
        longs = floating || wide ? null : new long[n][];
        doubles = floating ? new double[n][] : null;
        wides = wide ? new BigInteger[n][] : null;
        empty = new boolean[n];
        for (int r = 0; r < n; r++) {
            if (states.isNull(r)) {
                empty[r] = true;
                continue;
            }
            long[] bits = ValuesAccumulator.unpack(states, r);
            if (wide) {
                BigInteger[] w = new BigInteger[bits.length / 2];
                for (int i = 0; i < w.length; i++) {
                    w[i] = WideDecimal.toBigInteger(bits[2 * i], bits[2 * i + 1]);
                }
                Arrays.sort(w);
                wides[r] = w;
            } else if (floating) {
                double[] d = new double[bits.length];
                for (int i = 0; i < d.length; i++) {
                    // +0.0 for -0.0: the two are one value to SQL, and Arrays.sort would put -0.0 first
                    d[i] = Double.longBitsToDouble(bits[i]) + 0.0;
                }
                Arrays.sort(d);
                doubles[r] = d;
            } else {
                Arrays.sort(bits);
                longs[r] = bits;
            }
        }
    }

    /** The column of {@code call}'s quantile for every group: NULL where a group had no values. */
    Vector quantile(AggCall call) {
        int n = empty.length;
        boolean[] nulls = null;
        for (int r = 0; r < n; r++) {
            if (empty[r]) {
                nulls = nulls == null ? new boolean[n] : nulls;
                nulls[r] = true;
            }
        }
        if (wides != null) {
            return wideQuantile(call, nulls);
        }
        if (call.kind() == AggCall.AggKind.PERCENTILE_CONT && type.kind() == TypeKind.DECIMAL) {
            // in the DECIMAL's unscaled units, cut toward zero to its scale, as DuckDB does
            long[] out = new long[n];
            for (int r = 0; r < n; r++) {
                if (!empty[r]) {
                    out[r] = (long) interpolated(r, call.fraction(), call.descending());
                }
            }
            return new LongVector(out, nulls, n);
        }
        if (call.kind() == AggCall.AggKind.PERCENTILE_CONT) {
            double[] out = new double[n];
            for (int r = 0; r < n; r++) {
                if (!empty[r]) {
                    out[r] = interpolated(r, call.fraction(), call.descending());
                }
            }
            return new DoubleVector(out, nulls, n);
        }
        if (doubles != null) {
            double[] out = new double[n];
            for (int r = 0; r < n; r++) {
                if (!empty[r]) {
                    out[r] = doubles[r][discreteIndex(r, call.fraction(), call.descending())];
                }
            }
            return new DoubleVector(out, nulls, n);
        }
        long[] out = new long[n];
        for (int r = 0; r < n; r++) {
            if (!empty[r]) {
                out[r] = longs[r][discreteIndex(r, call.fraction(), call.descending())];
            }
        }
        return new LongVector(out, nulls, n);
    }

    /**
     * A quantile of wide DECIMALs, exact: PERCENTILE_DISC picks a value; PERCENTILE_CONT interpolates between two in
     * exact decimal arithmetic, to the scale.
     */
    private Vector wideQuantile(AggCall call, boolean[] nulls) {
        int n = empty.length;
        long[] hi = new long[n];
        long[] lo = new long[n];
        for (int r = 0; r < n; r++) {
            if (empty[r]) {
                continue;
            }
            BigInteger v;
            if (call.kind() == AggCall.AggKind.PERCENTILE_CONT) {
                BigDecimal position = BigDecimal.valueOf(call.fraction()).multiply(BigDecimal.valueOf(size(r) - 1));
                int below = position.setScale(0, RoundingMode.FLOOR).intValueExact();
                int above = position.setScale(0, RoundingMode.CEILING).intValueExact();
                BigInteger a = wideAt(r, below, call.descending());
                BigInteger b = wideAt(r, above, call.descending());
                // the step from the lower value is cut toward zero, as DuckDB interpolates its 128-bit DECIMALs
                v = a.add(new BigDecimal(b.subtract(a)).multiply(position.subtract(BigDecimal.valueOf(below)))
                        .setScale(0, RoundingMode.DOWN).toBigIntegerExact());
            } else {
                v = wides[r][discreteIndex(r, call.fraction(), call.descending())];
            }
            hi[r] = v.shiftRight(64).longValue();
            lo[r] = v.longValue();
        }
        return WideDecimal.of(hi, lo, nulls, n);
    }

    private BigInteger wideAt(int r, int i, boolean descending) {
        return wides[r][descending ? wides[r].length - 1 - i : i];
    }

    private int size(int r) {
        return wides != null ? wides[r].length : doubles != null ? doubles[r].length : longs[r].length;
    }

    /** Value {@code i} of group {@code r} in the call's order. */
    private double at(int r, int i, boolean descending) {
        int j = descending ? size(r) - 1 - i : i;
        return doubles != null ? doubles[r][j] : longs[r][j];
    }

    /** Linear interpolation at position {@code fraction * (n - 1)}, the SQL standard's PERCENTILE_CONT. */
    private double interpolated(int r, double fraction, boolean descending) {
        double position = fraction * (size(r) - 1);
        int below = (int) Math.floor(position);
        int above = (int) Math.ceil(position);
        double lo = at(r, below, descending);
        double hi = at(r, above, descending);
        return below == above ? lo : lo + (hi - lo) * (position - below);
    }

    /**
     * The first value whose cumulative share reaches the fraction: index {@code ceil(fraction * n) - 1}, in sorted
     * order. The product is taken in decimal, so that 0.28 of 25 values is exactly 7 (in binary floating point it is
     * 7.000000000000001, and the ceiling would skip a value).
     */
    private int discreteIndex(int r, double fraction, boolean descending) {
        int n = size(r);
        int i = Math.max(0, BigDecimal.valueOf(fraction).multiply(BigDecimal.valueOf(n))
                .setScale(0, RoundingMode.CEILING).intValueExact() - 1);
        return descending ? n - 1 - i : i;
    }
}
