package io.ferry.core.vector;

import io.ferry.core.types.Physical;

/** DOUBLE values. */
public final class DoubleVector extends Vector {
    private final double[] values;

    public DoubleVector(double[] values, boolean[] nulls, int size) {
        super(size, nulls);
        this.values = values;
    }

    public double[] values() {
        return values;
    }

    public double get(int i) {
        return values[i];
    }

    @Override
    public Physical physical() {
        return Physical.DOUBLE;
    }

    @Override
    public DoubleVector gather(int[] positions, int count) {
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            out[i] = p < 0 ? 0 : values[p];
        }
        return new DoubleVector(out, gatherNulls(nulls, positions, count), count);
    }

    @Override
    public DoubleVector compact(boolean[] mask, int count) {
        double[] out = new double[count];
        for (int i = 0, j = 0; j < count; i++) {
            if (mask[i]) {
                out[j++] = values[i];
            }
        }
        return new DoubleVector(out, compactNulls(nulls, mask, count), count);
    }
}
