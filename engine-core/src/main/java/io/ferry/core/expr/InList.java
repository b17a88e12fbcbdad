package io.ferry.core.expr;

import java.util.Arrays;
import java.util.List;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * {@code x IN (c1, c2, ...)} over constants: the list is sorted once and each row is a binary search. A NULL in
 * the list makes non-matching rows NULL, as SQL says.
 */
final class InList {
    private InList() {
    }

    static Evaluator compile(Evaluator value, List<Expr> list, FerryType type) {
        boolean listHasNull = false;
        int k = 0;
        Object[] constants = new Object[list.size()];
        Literal[] literals = new Literal[list.size()];
        for (Expr e : list) {
            Literal lit = (Literal) e;
            if (lit.value() == null) {
                listHasNull = true;
            } else {
                literals[k] = lit;
                constants[k++] = lit.value();
            }
        }
        boolean nullIfMiss = listHasNull;
        int count = k;
        switch (type.physical()) {
            case LONG -> {
                long[] set = new long[count];
                for (int i = 0; i < count; i++) {
                    set[i] = (Long) constants[i];
                }
                Arrays.sort(set);
                return batch -> {
                    LongVector v = (LongVector) value.eval(batch);
                    int n = batch.rowCount();
                    long[] x = v.values();
                    long[] r = new long[n];
                    for (int i = 0; i < n; i++) {
                        r[i] = Arrays.binarySearch(set, x[i]) >= 0 ? 1 : 0;
                    }
                    return result(r, v, nullIfMiss, n);
                };
            }
            case DOUBLE -> {
                double[] set = new double[count];
                for (int i = 0; i < count; i++) {
                    set[i] = (Double) constants[i];
                }
                Arrays.sort(set);
                return batch -> {
                    DoubleVector v = (DoubleVector) value.eval(batch);
                    int n = batch.rowCount();
                    long[] r = new long[n];
                    for (int i = 0; i < n; i++) {
                        r[i] = Arrays.binarySearch(set, v.values()[i]) >= 0 ? 1 : 0;
                    }
                    return result(r, v, nullIfMiss, n);
                };
            }
            default -> {
                byte[][] set = new byte[count][];
                for (int i = 0; i < count; i++) {
                    set[i] = literals[i].bytes();
                }
                Arrays.sort(set, Arrays::compareUnsigned);
                return batch -> {
                    BytesVector v = (BytesVector) value.eval(batch);
                    int n = batch.rowCount();
                    long[] r = new long[n];
                    for (int i = 0; i < n; i++) {
                        r[i] = contains(set, v.data(), v.start(i), v.start(i) + v.length(i)) ? 1 : 0;
                    }
                    return result(r, v, nullIfMiss, n);
                };
            }
        }
    }

    private static boolean contains(byte[][] set, byte[] data, int from, int to) {
        int lo = 0;
        int hi = set.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Arrays.compareUnsigned(set[mid], 0, set[mid].length, data, from, to);
            if (c == 0) {
                return true;
            } else if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }

    private static LongVector result(long[] r, Vector v, boolean nullIfMiss, int n) {
        boolean[] nulls = v.nulls();
        if (nullIfMiss) {
            nulls = Nulls.copy(nulls, n);
            for (int i = 0; i < n; i++) {
                nulls[i] |= r[i] == 0;
            }
        }
        return new LongVector(r, nulls, n);
    }
}
