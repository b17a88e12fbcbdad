package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The running state of one aggregate for every group, in arrays indexed by group id. {@code add} takes a whole
 * batch (group id per row) in one loop: no per-row dispatch, no boxing.
 */
abstract class Accumulator {
    protected int capacity = 0;

    /** Adds rows; {@code v} is null for COUNT(*). */
    abstract void add(int[] groups, Vector v, int n);

    abstract void ensure(int groups);

    abstract Vector result(int from, int count);

    static int grown(int current, int needed) {
        return Math.max(needed, Math.max(1024, current * 2));
    }

    static Accumulator create(AggCall.AggKind kind, Physical input, FerryType resultType) {
        return switch (kind) {
            case COUNT -> new Count();
            case SUM, SUM0 -> input == Physical.DOUBLE ? new SumDouble() : new SumLong(kind == AggCall.AggKind.SUM0,
                    resultType);
            case MIN, MAX -> switch (input) {
                case LONG -> new MinMaxLong(kind == AggCall.AggKind.MAX);
                case DOUBLE -> new MinMaxDouble(kind == AggCall.AggKind.MAX);
                case BYTES -> new MinMaxBytes(kind == AggCall.AggKind.MAX);
            };
            case AVG -> throw new IllegalArgumentException("AVG is split into SUM and COUNT before accumulation");
        };
    }

    static final class Count extends Accumulator {
        private long[] counts = new long[0];

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                counts = Arrays.copyOf(counts, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            long[] c = counts;
            boolean[] nulls = v == null ? null : v.nulls();
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    c[groups[i]]++;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    c[groups[i]] += nulls[i] ? 0 : 1;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new LongVector(Arrays.copyOfRange(counts, from, from + count), null, count);
        }
    }

    static final class SumLong extends Accumulator {
        private final boolean zeroWhenEmpty;
        private final FerryType type;
        private long[] sums = new long[0];
        private boolean[] seen = new boolean[0];

        SumLong(boolean zeroWhenEmpty, FerryType type) {
            this.zeroWhenEmpty = zeroWhenEmpty;
            this.type = type;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                sums = Arrays.copyOf(sums, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            long[] x = ((LongVector) v).values();
            long[] s = sums;
            boolean[] nulls = v.nulls();
            long overflow = 0;
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    int g = groups[i];
                    long a = s[g];
                    long r = a + x[i];
                    overflow |= (a ^ r) & (x[i] ^ r);
                    s[g] = r;
                    seen[g] = true;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    if (!nulls[i]) {
                        int g = groups[i];
                        long a = s[g];
                        long r = a + x[i];
                        overflow |= (a ^ r) & (x[i] ^ r);
                        s[g] = r;
                        seen[g] = true;
                    }
                }
            }
            if (overflow < 0) {
                throw FerryException.overflow(type.sqlName() + " (SUM)");
            }
        }

        @Override
        Vector result(int from, int count) {
            boolean[] nulls = null;
            if (!zeroWhenEmpty) {
                for (int i = 0; i < count; i++) {
                    if (!seen[from + i]) {
                        if (nulls == null) {
                            nulls = new boolean[count];
                        }
                        nulls[i] = true;
                    }
                }
            }
            return new LongVector(Arrays.copyOfRange(sums, from, from + count), nulls, count);
        }
    }

    static final class SumDouble extends Accumulator {
        private double[] sums = new double[0];
        private boolean[] seen = new boolean[0];

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                sums = Arrays.copyOf(sums, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            double[] x = ((DoubleVector) v).values();
            for (int i = 0; i < n; i++) {
                if (!v.isNull(i)) {
                    sums[groups[i]] += x[i];
                    seen[groups[i]] = true;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new DoubleVector(Arrays.copyOfRange(sums, from, from + count), unseen(seen, from, count), count);
        }
    }

    static final class MinMaxLong extends Accumulator {
        private final boolean max;
        private long[] values = new long[0];
        private boolean[] seen = new boolean[0];

        MinMaxLong(boolean max) {
            this.max = max;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                values = Arrays.copyOf(values, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            long[] x = ((LongVector) v).values();
            for (int i = 0; i < n; i++) {
                if (v.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                if (!seen[g] || (max ? x[i] > values[g] : x[i] < values[g])) {
                    values[g] = x[i];
                    seen[g] = true;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new LongVector(Arrays.copyOfRange(values, from, from + count), unseen(seen, from, count), count);
        }
    }

    static final class MinMaxDouble extends Accumulator {
        private final boolean max;
        private double[] values = new double[0];
        private boolean[] seen = new boolean[0];

        MinMaxDouble(boolean max) {
            this.max = max;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                values = Arrays.copyOf(values, capacity);
                seen = Arrays.copyOf(seen, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            double[] x = ((DoubleVector) v).values();
            for (int i = 0; i < n; i++) {
                if (v.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                if (!seen[g] || (max ? x[i] > values[g] : x[i] < values[g])) {
                    values[g] = x[i];
                    seen[g] = true;
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            return new DoubleVector(Arrays.copyOfRange(values, from, from + count), unseen(seen, from, count), count);
        }
    }

    static final class MinMaxBytes extends Accumulator {
        private final boolean max;
        private byte[][] values = new byte[0][];

        MinMaxBytes(boolean max) {
            this.max = max;
        }

        @Override
        void ensure(int groups) {
            if (groups > capacity) {
                capacity = grown(capacity, groups);
                values = Arrays.copyOf(values, capacity);
            }
        }

        @Override
        void add(int[] groups, Vector v, int n) {
            BytesVector b = (BytesVector) v;
            for (int i = 0; i < n; i++) {
                if (b.isNull(i)) {
                    continue;
                }
                int g = groups[i];
                byte[] cur = values[g];
                int c = cur == null ? 0 : Arrays.compareUnsigned(b.data(), b.start(i), b.start(i) + b.length(i),
                        cur, 0, cur.length);
                if (cur == null || (max ? c > 0 : c < 0)) {
                    values[g] = b.getBytes(i);
                }
            }
        }

        @Override
        Vector result(int from, int count) {
            BytesVector.Builder out = new BytesVector.Builder(count);
            for (int i = from; i < from + count; i++) {
                if (values[i] == null) {
                    out.appendNull();
                } else {
                    out.append(values[i]);
                }
            }
            return out.build();
        }
    }

    private static boolean[] unseen(boolean[] seen, int from, int count) {
        boolean[] nulls = null;
        for (int i = 0; i < count; i++) {
            if (!seen[from + i]) {
                if (nulls == null) {
                    nulls = new boolean[count];
                }
                nulls[i] = true;
            }
        }
        return nulls;
    }
}
