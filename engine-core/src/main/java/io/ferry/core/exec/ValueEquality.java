package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** Equality of two non-null values of the same physical kind in two vectors. */
final class ValueEquality {
    private ValueEquality() {
    }

    static boolean equal(Vector a, int i, Vector b, int j) {
        if (a instanceof LongVector x) {
            return x.get(i) == ((LongVector) b).get(j);
        }
        if (a instanceof DoubleVector x) {
            double p = x.get(i);
            double q = ((DoubleVector) b).get(j);
            return p == q || (Double.isNaN(p) && Double.isNaN(q));
        }
        BytesVector x = (BytesVector) a;
        BytesVector y = (BytesVector) b;
        return Arrays.equals(x.data(), x.start(i), x.start(i) + x.length(i), y.data(), y.start(j),
                y.start(j) + y.length(j));
    }
}
