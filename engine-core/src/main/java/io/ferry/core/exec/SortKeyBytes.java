package io.ferry.core.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * An order-preserving byte encoding of ORDER BY key tuples: two rows' encodings compare as unsigned bytes exactly as
 * {@link Sorter} orders the rows by the same keys, so that a key can be stored beside a value and sorted later
 * without its columns (STRING_AGG ... ORDER BY keeps each row's key in a partial state that travels between threads
 * and nodes).
 *
 * <p>Each key is a marker byte, then its value unless NULL. The marker puts NULL before (0) or after (2) every
 * value (1), whatever the direction. A LONG (integers, DECIMAL's unscaled value, DATE, TIMESTAMP, BOOLEAN) is its
 * 8 bytes big-endian with the sign bit flipped; a DOUBLE the same of its bits with every bit flipped when negative,
 * -0.0 first made 0.0 (SQL's one zero) and every NaN the one NaN, which then sorts above every number as in Sorter;
 * a BYTES value (VARCHAR, compared as unsigned bytes) its bytes with each 0 written as 0, 255 and a 0, 0 ending it,
 * so that no encoding is a prefix of another's and the next key cannot change the order of two strings. DESC
 * flips every byte of the value, which reverses the order of prefix-free encodings.
 */
final class SortKeyBytes {
    private static final byte NULL_FIRST = 0;
    private static final byte VALUE = 1;
    private static final byte NULL_LAST = 2;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private SortKeyBytes() {
    }

    /** The encoded keys of rows {@code 0 .. n}, {@code columns[k]} holding key k's values. */
    static BytesVector encode(Vector[] columns, List<SortKey> keys, int n) {
        int[] offsets = new int[n + 1];
        for (Vector column : columns) {
            addSizes(column, offsets, n);
        }
        for (int i = 0; i < n; i++) {
            offsets[i + 1] += offsets[i];
        }
        byte[] data = new byte[offsets[n]];
        int[] at = Arrays.copyOf(offsets, n);
        for (int k = 0; k < columns.length; k++) {
            write(columns[k], keys.get(k), data, at, n);
        }
        return new BytesVector(data, offsets, null, n);
    }

    /** Adds each row's encoded size of {@code column} to {@code sizes[row + 1]}. */
    private static void addSizes(Vector column, int[] sizes, int n) {
        boolean[] nulls = column.nulls();
        if (!(column instanceof BytesVector b)) {
            for (int i = 0; i < n; i++) {
                sizes[i + 1] += nulls != null && nulls[i] ? 1 : 1 + Long.BYTES;
            }
            return;
        }
        byte[] data = b.data();
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                sizes[i + 1] += 1;
                continue;
            }
            int from = b.start(i);
            int to = from + b.length(i);
            int zeros = 0;
            for (int j = from; j < to; j++) {
                zeros += data[j] == 0 ? 1 : 0;
            }
            sizes[i + 1] += 1 + (to - from) + zeros + 2;
        }
    }

    private static void write(Vector column, SortKey key, byte[] out, int[] at, int n) {
        boolean[] nulls = column.nulls();
        byte nullMarker = key.nullsFirst() ? NULL_FIRST : NULL_LAST;
        byte flip = key.descending() ? (byte) 0xFF : 0;
        long flipBits = key.descending() ? -1L : 0L;
        if (column instanceof LongVector l) {
            long[] x = l.values();
            for (int i = 0; i < n; i++) {
                if (nulls != null && nulls[i]) {
                    out[at[i]++] = nullMarker;
                } else {
                    out[at[i]] = VALUE;
                    LONGS.set(out, at[i] + 1, x[i] ^ Long.MIN_VALUE ^ flipBits);
                    at[i] += 1 + Long.BYTES;
                }
            }
        } else if (column instanceof DoubleVector d) {
            double[] x = d.values();
            for (int i = 0; i < n; i++) {
                if (nulls != null && nulls[i]) {
                    out[at[i]++] = nullMarker;
                } else {
                    // doubleToLongBits makes every NaN the one NaN; + 0.0 makes -0.0 0.0
                    long bits = Double.doubleToLongBits(x[i] + 0.0);
                    out[at[i]] = VALUE;
                    LONGS.set(out, at[i] + 1, bits ^ ((bits >> 63) | Long.MIN_VALUE) ^ flipBits);
                    at[i] += 1 + Long.BYTES;
                }
            }
        } else {
            BytesVector b = (BytesVector) column;
            byte[] data = b.data();
            for (int i = 0; i < n; i++) {
                if (nulls != null && nulls[i]) {
                    out[at[i]++] = nullMarker;
                    continue;
                }
                int p = at[i];
                out[p++] = VALUE;
                int to = b.start(i) + b.length(i);
                for (int j = b.start(i); j < to; j++) {
                    byte c = data[j];
                    out[p++] = (byte) (c ^ flip);
                    if (c == 0) {
                        out[p++] = (byte) (0xFF ^ flip);
                    }
                }
                out[p++] = flip;
                out[p++] = flip;
                at[i] = p;
            }
        }
    }
}
