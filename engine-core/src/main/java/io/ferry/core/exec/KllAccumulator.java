package io.ferry.core.exec;

import java.util.Arrays;

import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;

import io.ferry.core.expr.Decimals;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * A KLL quantile sketch per group (Karnin, Lang, Liberty, "Optimal Quantile Approximation in Streams", FOCS 2016,
 * as Apache DataSketches implements it), fed the argument as DOUBLE. Its state leaves serialized, so that partial
 * sketches travel between threads and nodes in an ordinary column; over such a column (the merge) it unions them.
 * A group without values has a NULL state.
 */
final class KllAccumulator extends Accumulator {
    /** DataSketches' default: a normalized rank error of about 1.3% at 99% confidence, a few KiB per sketch. */
    static final int K = KllDoublesSketch.DEFAULT_K;

    /** Divides a DECIMAL's unscaled long into its value; 1 for the other types. */
    private final double scale;
    private KllDoublesSketch[] sketches = new KllDoublesSketch[0];

    /** @param inputType the argument's type: numeric, or the serialized states of a merge */
    KllAccumulator(FerryType inputType) {
        this.scale = inputType.kind() == TypeKind.DECIMAL ? Decimals.pow10(inputType.scale()) : 1;
    }

    @Override
    void ensure(int groups) {
        if (groups > capacity) {
            capacity = grown(capacity, groups);
            sketches = Arrays.copyOf(sketches, capacity);
        }
    }

    private KllDoublesSketch sketch(int g) {
        KllDoublesSketch s = sketches[g];
        return s != null ? s : (sketches[g] = KllDoublesSketch.newHeapInstance(K));
    }

    @Override
    void add(int[] groups, Vector v, int n) {
        if (v instanceof LongVector l) {
            long[] x = l.values();
            for (int i = 0; i < n; i++) {
                if (!l.isNull(i)) {
                    sketch(groups[i]).update(x[i] / scale);
                }
            }
        } else if (v instanceof DoubleVector d) {
            double[] x = d.values();
            for (int i = 0; i < n; i++) {
                // KLL skips NaN: it has no place in its order
                if (!d.isNull(i)) {
                    sketch(groups[i]).update(x[i]);
                }
            }
        } else {
            BytesVector b = (BytesVector) v;
            for (int i = 0; i < n; i++) {
                if (!b.isNull(i)) {
                    sketch(groups[i]).merge(KllDoublesSketch.heapify(Memory.wrap(b.getBytes(i))));
                }
            }
        }
    }

    @Override
    Vector result(int from, int count) {
        BytesVector.Builder out = new BytesVector.Builder(count);
        for (int g = from; g < from + count; g++) {
            KllDoublesSketch s = sketches[g];
            if (s == null || s.isEmpty()) {
                out.appendNull();
            } else {
                out.append(s.toByteArray());
            }
        }
        return out.build();
    }

    /** The quantile at {@code fraction} of one serialized state. */
    static double quantile(BytesVector states, int row, double fraction) {
        return KllDoublesSketch.heapify(Memory.wrap(states.getBytes(row))).getQuantile(fraction);
    }
}
