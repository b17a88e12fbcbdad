package io.ferry.core.expr;

import java.util.Arrays;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** Writes values computed for a subset of rows back into a full-length vector. */
final class Scatter {
    private Scatter() {
    }

    /** A copy of {@code base} where rows {@code positions[i]} take {@code fill}'s row i. */
    static Vector overlay(Vector base, Vector fill, int[] positions, int count, Physical p) {
        int n = base.size();
        boolean[] nulls = base.nulls() == null ? new boolean[n] : Arrays.copyOf(base.nulls(), n);
        for (int i = 0; i < count; i++) {
            nulls[positions[i]] = fill.isNull(i);
        }
        switch (p) {
            case LONG -> {
                long[] v = Arrays.copyOf(((LongVector) base).values(), n);
                long[] f = ((LongVector) fill).values();
                for (int i = 0; i < count; i++) {
                    v[positions[i]] = f[i];
                }
                return new LongVector(v, nulls, n);
            }
            case DOUBLE -> {
                double[] v = Arrays.copyOf(((DoubleVector) base).values(), n);
                double[] f = ((DoubleVector) fill).values();
                for (int i = 0; i < count; i++) {
                    v[positions[i]] = f[i];
                }
                return new DoubleVector(v, nulls, n);
            }
            default -> {
                BytesVector b = (BytesVector) base;
                BytesVector f = (BytesVector) fill;
                int[] source = new int[n];
                Arrays.fill(source, -1);
                for (int i = 0; i < count; i++) {
                    source[positions[i]] = i;
                }
                BytesVector.Builder out = new BytesVector.Builder(n);
                for (int i = 0; i < n; i++) {
                    int s = source[i];
                    if (nulls[i]) {
                        out.appendNull();
                    } else if (s >= 0) {
                        out.append(f.data(), f.start(s), f.length(s));
                    } else {
                        out.append(b.data(), b.start(i), b.length(i));
                    }
                }
                return out.build();
            }
        }
    }
}
