package io.ferry.core.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.Fmix64;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Hashes key columns of a batch into one 64-bit hash per row, column by column (vectorized). A NULL hashes to a
 * fixed value whatever bits its slot holds, so all NULL keys meet in one group.
 */
final class KeyHasher {
    private static final long NULL_HASH = 0x7A3C_1B2D_4E5F_6071L;

    private KeyHasher() {
    }

    static long[] hash(Vector[] keys, int n) {
        long[] h = new long[n];
        long[] values = new long[n];
        for (Vector v : keys) {
            valueHashes(v, values, n);
            boolean[] nulls = v.nulls();
            if (nulls == null) {
                for (int i = 0; i < n; i++) {
                    h[i] = mix(h[i] * 31 + values[i]);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    h[i] = mix(h[i] * 31 + (nulls[i] ? NULL_HASH : values[i]));
                }
            }
        }
        return h;
    }

    private static void valueHashes(Vector v, long[] out, int n) {
        if (v instanceof LongVector l) {
            System.arraycopy(l.values(), 0, out, 0, n);
        } else if (v instanceof DoubleVector d) {
            double[] x = d.values();
            for (int i = 0; i < n; i++) {
                out[i] = Double.doubleToLongBits(x[i] == 0.0 ? 0.0 : x[i]);
            }
        } else {
            BytesVector b = (BytesVector) v;
            byte[] data = b.data();
            int[] off = b.offsets();
            for (int i = 0; i < n; i++) {
                out[i] = bytesHash(data, off[i], off[i + 1]);
            }
        }
    }

    /**
     * A hash of {@code data[from, to)}, eight bytes at a step: a multiply per byte (Java's String.hashCode) made a
     * chain of dependent multiplies as long as the string, the largest cost of grouping by item's strings (TPC-DS
     * q22). Equal bytes hash equally; {@link #hash} mixes the result, so it need only tell strings apart. The rotate
     * carries each step's high bits into the next one's low ones, which a multiply alone never reaches.
     */
    static long bytesHash(byte[] data, int from, int to) {
        long s = to - from;
        int p = from;
        for (; p + Long.BYTES <= to; p += Long.BYTES) {
            s = Long.rotateLeft((s ^ (long) LONGS.get(data, p)) * STEP, 29);
        }
        long tail = 0;
        for (int shift = 0; p < to; p++, shift += 8) {
            tail |= (data[p] & 0xFFL) << shift;
        }
        return (s ^ tail) * STEP;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long STEP = 0x9E37_79B9_7F4A_7C15L;

    /** Murmur3's finalizer ({@link Fmix64}): spreads every input bit over the hash, so low bits index well. */
    static long mix(long z) {
        return Fmix64.mix(z);
    }
}
