package io.ferry.core.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The partial state of a DISTINCT call that shares its aggregate with other calls ({@code SUM(x), COUNT(DISTINCT
 * s)}, or DISTINCT over two different arguments): each group's set of distinct argument tuples, kept in one hash
 * table keyed by (group id, argument...). Tuples with a NULL component are left out, as the call would skip them
 * (COUNT(DISTINCT a, b) counts the pairs where neither is NULL, as PostgreSQL and DuckDB). Each row costs one probe,
 * as in the grouping on (keys, argument) that a lone DISTINCT call is planned as; unlike that plan, any number of
 * DISTINCT and plain calls fold in one pass without a join.
 *
 * <p>A set leaves as bytes: a header (the number of columns, then each column's {@link Physical} ordinal), then each
 * tuple, column after column, a LONG or DOUBLE as 8 bytes little-endian, a BYTES value as its 4-byte length and its
 * bytes. Over such states ({@code raw} false: the merge of threads' and nodes' partials) it unions the sets. The
 * call's own function runs over the final set ({@link AggregatePlan#finish}).
 */
final class DistinctAccumulator extends Accumulator {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final boolean raw;
    private final QueryMemory memory;
    private GroupTable tuples;
    private int[] ids = new int[0];
    private long[] groupColumn = new long[0];
    private byte[][] packed;

    DistinctAccumulator(boolean raw, QueryMemory memory) {
        this.raw = raw;
        this.memory = memory;
    }

    @Override
    void ensure(int groups) {
        capacity = Math.max(capacity, groups);
    }

    @Override
    void add(int[] groups, Vector v, int n) {
        add(groups, v, null, n);
    }

    @Override
    void add(int[] groups, Vector v, Vector v2, int n) {
        add(groups, v, v2, null, n);
    }

    /** {@code rest}: the third and later arguments of COUNT(DISTINCT a, b, c, ...), or null. */
    @Override
    void add(int[] groups, Vector v, Vector v2, Vector[] rest, int n) {
        if (!raw) {
            Vector[] unpacked = unpack((BytesVector) v, groups, n);
            if (unpacked != null) {
                insert(unpacked, unpacked[0].size());
            }
            return;
        }
        boolean[] keep = new boolean[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            keep[i] = !v.isNull(i) && (v2 == null || !v2.isNull(i));
        }
        for (int k = 0; rest != null && k < rest.length; k++) {
            boolean[] nulls = rest[k].nulls();
            for (int i = 0; nulls != null && i < n; i++) {
                keep[i] &= !nulls[i];
            }
        }
        for (int i = 0; i < n; i++) {
            m += keep[i] ? 1 : 0;
        }
        if (groupColumn.length < n) {
            groupColumn = new long[n];
        }
        for (int i = 0; i < n; i++) {
            groupColumn[i] = groups[i];
        }
        Vector g = new LongVector(groupColumn, null, n);
        int more = rest == null ? 0 : rest.length;
        Vector[] keys = new Vector[(v2 == null ? 2 : 3) + more];
        keys[0] = g;
        keys[1] = v;
        if (v2 != null) {
            keys[2] = v2;
            for (int k = 0; k < more; k++) {
                keys[3 + k] = rest[k];
            }
        }
        if (m < n) {
            for (int k = 0; k < keys.length; k++) {
                keys[k] = keys[k].compact(keep, m);
            }
        }
        insert(keys, m);
    }

    private void insert(Vector[] keys, int n) {
        if (tuples == null) {
            Physical[] types = new Physical[keys.length];
            for (int k = 0; k < keys.length; k++) {
                types[k] = keys[k].physical();
            }
            tuples = GroupTable.create(types, memory, 0);
        }
        if (ids.length < n) {
            ids = new int[n];
        }
        tuples.findOrInsert(keys, n, ids);
        packed = null;
    }

    @Override
    Vector result(int from, int count) {
        if (packed == null) {
            packed = pack();
        }
        BytesVector.Builder out = new BytesVector.Builder(count);
        for (int g = from; g < from + count; g++) {
            if (g < packed.length && packed[g] != null) {
                out.append(packed[g]);
            } else {
                out.appendNull();
            }
        }
        return out.build();
    }

    /** Every group's set, packed: sized in one pass over the tuples, written in a second. */
    private byte[][] pack() {
        byte[][] out = new byte[capacity][];
        if (tuples == null) {
            return out;
        }
        int n = tuples.groupCount();
        Vector[] keys = tuples.keyVectors(0, n);
        long[] group = ((LongVector) keys[0]).values();
        int columns = keys.length - 1;
        int[] sizes = new int[capacity];
        for (int t = 0; t < n; t++) {
            int g = (int) group[t];
            if (sizes[g] == 0) {
                sizes[g] = 1 + columns;
            }
            for (int k = 1; k <= columns; k++) {
                sizes[g] += keys[k] instanceof BytesVector b ? Integer.BYTES + b.length(t) : Long.BYTES;
            }
        }
        int[] at = new int[capacity];
        for (int g = 0; g < capacity; g++) {
            if (sizes[g] > 0) {
                byte[] p = out[g] = new byte[sizes[g]];
                p[0] = (byte) columns;
                for (int k = 1; k <= columns; k++) {
                    p[k] = (byte) keys[k].physical().ordinal();
                }
                at[g] = 1 + columns;
            }
        }
        for (int t = 0; t < n; t++) {
            int g = (int) group[t];
            byte[] p = out[g];
            for (int k = 1; k <= columns; k++) {
                Vector key = keys[k];
                if (key instanceof LongVector l) {
                    LONGS.set(p, at[g], l.values()[t]);
                    at[g] += Long.BYTES;
                } else if (key instanceof DoubleVector d) {
                    LONGS.set(p, at[g], Double.doubleToLongBits(d.values()[t]));
                    at[g] += Long.BYTES;
                } else {
                    BytesVector b = (BytesVector) key;
                    int len = b.length(t);
                    INTS.set(p, at[g], len);
                    System.arraycopy(b.data(), b.start(t), p, at[g] + Integer.BYTES, len);
                    at[g] += Integer.BYTES + len;
                }
            }
        }
        return out;
    }

    /**
     * The tuples of the packed sets in rows {@code 0 .. n} of {@code states}: a column of the owner of each tuple
     * ({@code owners[row]}), then the tuples' columns; null when every state is NULL.
     */
    static Vector[] unpack(BytesVector states, int[] owners, int n) {
        byte[] data = states.data();
        Physical[] types = null;
        int tupleCount = 0;
        for (int r = 0; r < n; r++) {
            if (states.isNull(r)) {
                continue;
            }
            int at = states.start(r);
            int end = at + states.length(r);
            if (types == null) {
                types = new Physical[data[at]];
                for (int k = 0; k < types.length; k++) {
                    types[k] = Physical.values()[data[at + 1 + k]];
                }
            }
            for (at += 1 + types.length; at < end; tupleCount++) {
                for (Physical p : types) {
                    at += p == Physical.BYTES ? Integer.BYTES + (int) INTS.get(data, at) : Long.BYTES;
                }
            }
        }
        if (types == null) {
            return null;
        }
        long[] owner = new long[tupleCount];
        long[][] longs = new long[types.length][];
        BytesVector.Builder[] bytes = new BytesVector.Builder[types.length];
        for (int k = 0; k < types.length; k++) {
            if (types[k] == Physical.BYTES) {
                bytes[k] = new BytesVector.Builder(tupleCount);
            } else {
                longs[k] = new long[tupleCount];
            }
        }
        int t = 0;
        for (int r = 0; r < n; r++) {
            if (states.isNull(r)) {
                continue;
            }
            int at = states.start(r);
            int end = at + states.length(r);
            for (at += 1 + types.length; at < end; t++) {
                owner[t] = owners[r];
                for (int k = 0; k < types.length; k++) {
                    if (bytes[k] != null) {
                        int len = (int) INTS.get(data, at);
                        bytes[k].append(data, at + Integer.BYTES, len);
                        at += Integer.BYTES + len;
                    } else {
                        longs[k][t] = (long) LONGS.get(data, at);
                        at += Long.BYTES;
                    }
                }
            }
        }
        Vector[] out = new Vector[1 + types.length];
        out[0] = new LongVector(owner, null, tupleCount);
        for (int k = 0; k < types.length; k++) {
            out[1 + k] = switch (types[k]) {
                case LONG -> new LongVector(longs[k], null, tupleCount);
                case DOUBLE -> new DoubleVector(doubles(longs[k]), null, tupleCount);
                case BYTES -> bytes[k].build();
            };
        }
        return out;
    }

    private static double[] doubles(long[] bits) {
        double[] out = new double[bits.length];
        for (int i = 0; i < bits.length; i++) {
            out[i] = Double.longBitsToDouble(bits[i]);
        }
        return out;
    }

    @Override
    long reservedBytes() {
        return tuples == null ? 0 : tuples.bytes();
    }

    @Override
    void close() {
        if (tuples != null) {
            tuples.close();
        }
    }
}
