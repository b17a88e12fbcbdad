package io.ferry.core.vector;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;

/**
 * DECIMAL values of a type wider than a long holds (precision 19 to 38): the unscaled value as a 128-bit two's
 * complement integer, kept in a {@link BytesVector} as 16 big-endian bytes with the sign bit flipped. Under
 * unsigned byte comparison that encoding orders as the numbers do and is equal exactly where they are, so
 * hashing, grouping, join keys, sorting, MIN/MAX, DISTINCT, gathers and IPC of such values are the byte paths
 * VARCHAR already has (what DuckDB calls a normalized key); only arithmetic, casts and aggregates decode the two
 * longs ({@code hi}, {@code lo}). A NULL row may take no bytes: read a row at {@link BytesVector#start(int)}.
 *
 * <p>Ferry keeps DECIMALs of precision up to 18 in longs (the common case, and the fast one); a type of 19 digits
 * or more is wide whatever its values, so the physical form of a column follows from its type alone.
 */
public final class WideDecimal {
    /** Bytes of one value. */
    public static final int BYTES = 16;
    /** The most digits a wide value holds, as DuckDB's and SQL Server's DECIMAL. */
    public static final int MAX_PRECISION = 38;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    /** 10^k as 128 bits, k = 0..38. */
    private static final long[] POW_HI = new long[MAX_PRECISION + 1];
    private static final long[] POW_LO = new long[MAX_PRECISION + 1];

    static {
        for (int k = 0; k <= MAX_PRECISION; k++) {
            BigInteger p = BigInteger.TEN.pow(k);
            POW_HI[k] = p.shiftRight(64).longValue();
            POW_LO[k] = p.longValue();
        }
    }

    private WideDecimal() {
    }

    /** The high 64 bits of the value at byte offset {@code off}. */
    public static long hi(byte[] data, int off) {
        return (long) LONGS.get(data, off) ^ Long.MIN_VALUE;
    }

    /** The low 64 bits of the value at byte offset {@code off}. */
    public static long lo(byte[] data, int off) {
        return (long) LONGS.get(data, off + 8);
    }

    public static void put(byte[] data, int off, long hi, long lo) {
        LONGS.set(data, off, hi ^ Long.MIN_VALUE);
        LONGS.set(data, off + 8, lo);
    }

    /** Whether a 128-bit value is a long: its high half only repeats the sign of the low one. */
    public static boolean isLong(long hi, long lo) {
        return hi == (lo >> 63);
    }

    /** Whether {@code |(hi, lo)| < 10^precision}: the value fits a DECIMAL of that precision. */
    public static boolean fits(long hi, long lo, int precision) {
        long mh = hi;
        long ml = lo;
        if (hi < 0) {
            ml = -lo;
            mh = ~hi + (lo == 0 ? 1 : 0);
        }
        return Long.compareUnsigned(mh, POW_HI[precision]) < 0
                || (mh == POW_HI[precision] && Long.compareUnsigned(ml, POW_LO[precision]) < 0);
    }

    public static BigInteger toBigInteger(long hi, long lo) {
        if (isLong(hi, lo)) {
            return BigInteger.valueOf(lo);
        }
        BigInteger low = BigInteger.valueOf(lo);
        if (lo < 0) {
            low = low.add(TWO_64);
        }
        return BigInteger.valueOf(hi).shiftLeft(64).add(low);
    }

    /** The unscaled value of row {@code i} (which must not be NULL). */
    public static BigInteger unscaled(BytesVector v, int i) {
        int at = v.start(i);
        return toBigInteger(hi(v.data(), at), lo(v.data(), at));
    }

    public static BigDecimal get(BytesVector v, int i, int scale) {
        return new BigDecimal(unscaled(v, i), scale);
    }

    /**
     * The value as a double, as DuckDB converts it (so the two engines agree to the last bit): the integer as a
     * double, divided by 10^scale as a double. Within a long that is the long kernel's conversion.
     */
    public static double toDouble(long hi, long lo, int scale) {
        double unscaled = isLong(hi, lo) ? (double) lo
                : hi * 0x1p64 + (lo >= 0 ? (double) lo : (double) (lo >>> 1) * 2 + (lo & 1));
        return unscaled / (scale < DOUBLE_POWERS.length ? DOUBLE_POWERS[scale] : Math.pow(10, scale));
    }

    private static final double[] DOUBLE_POWERS = new double[23];

    static {
        DOUBLE_POWERS[0] = 1;
        for (int i = 1; i < DOUBLE_POWERS.length; i++) {
            DOUBLE_POWERS[i] = DOUBLE_POWERS[i - 1] * 10;
        }
    }

    /** The values of a wide vector as DOUBLEs (each divided by 10^scale). */
    public static DoubleVector toDoubles(BytesVector v, int scale, int n) {
        double[] out = new double[n];
        byte[] data = v.data();
        for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
                int at = v.start(i);
                out[i] = toDouble(hi(data, at), lo(data, at), scale);
            }
        }
        return new DoubleVector(out, v.nulls(), n);
    }

    /** Writes {@code unscaled} at {@code off}; false if it takes more than 128 bits. */
    public static boolean put(byte[] data, int off, BigInteger unscaled) {
        if (unscaled.bitLength() > 127) {
            return false;
        }
        put(data, off, unscaled.shiftRight(64).longValue(), unscaled.longValue());
        return true;
    }

    /** The 16 bytes of one value (a literal's), or null if it takes more than 128 bits. */
    public static byte[] encode(BigInteger unscaled) {
        byte[] out = new byte[BYTES];
        return put(out, 0, unscaled) ? out : null;
    }

    /** The unscaled values of an exact vector (integer, DECIMAL long or wide) as 128-bit halves; NULL rows are 0. */
    public static long[][] halves(Vector v, int n) {
        long[] hi = new long[n];
        long[] lo = new long[n];
        if (v instanceof LongVector l) {
            long[] x = l.values();
            for (int i = 0; i < n; i++) {
                lo[i] = x[i];
                hi[i] = x[i] >> 63;
            }
        } else {
            BytesVector b = (BytesVector) v;
            byte[] data = b.data();
            for (int i = 0; i < n; i++) {
                if (!b.isNull(i)) {
                    int at = b.start(i);
                    hi[i] = WideDecimal.hi(data, at);
                    lo[i] = WideDecimal.lo(data, at);
                }
            }
        }
        return new long[][] {hi, lo};
    }

    /** A vector of {@code n} values from their halves; NULL rows (per {@code nulls}) are written as 0. */
    public static BytesVector of(long[] hi, long[] lo, boolean[] nulls, int n) {
        byte[] data = new byte[n * BYTES];
        int[] offsets = new int[n + 1];
        for (int i = 0; i < n; i++) {
            boolean isNull = nulls != null && nulls[i];
            put(data, i * BYTES, isNull ? 0 : hi[i], isNull ? 0 : lo[i]);
            offsets[i + 1] = (i + 1) * BYTES;
        }
        return new BytesVector(data, offsets, nulls, n);
    }

    /** Fixed-width rows: 16 bytes each, NULL rows too, so row {@code i} starts at {@code 16 i}. */
    public static final class Builder {
        private final byte[] data;
        private final int[] offsets;
        private boolean[] nulls;
        private int size;

        public Builder(int rows) {
            this.data = new byte[rows * BYTES];
            this.offsets = new int[rows + 1];
            for (int i = 0; i <= rows; i++) {
                offsets[i] = i * BYTES;
            }
        }

        public void append(long hi, long lo) {
            put(data, size * BYTES, hi, lo);
            size++;
        }

        /** Appends a long value, sign-extended. */
        public void append(long value) {
            append(value >> 63, value);
        }

        public void appendNull() {
            if (nulls == null) {
                nulls = new boolean[offsets.length - 1];
            }
            nulls[size] = true;
            put(data, size * BYTES, 0, 0);
            size++;
        }

        public BytesVector build() {
            if (size != offsets.length - 1) {
                throw new IllegalStateException(size + " of " + (offsets.length - 1) + " rows written");
            }
            return new BytesVector(data, offsets, nulls, size);
        }
    }
}
