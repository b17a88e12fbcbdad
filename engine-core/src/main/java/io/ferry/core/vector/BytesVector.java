package io.ferry.core.vector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.ferry.core.types.Physical;

/** VARCHAR values as UTF-8: row i is {@code data[offsets[i] .. offsets[i + 1])}. */
public final class BytesVector extends Vector {
    private final byte[] data;
    private final int[] offsets;

    public BytesVector(byte[] data, int[] offsets, boolean[] nulls, int size) {
        super(size, nulls);
        this.data = data;
        this.offsets = offsets;
    }

    public static BytesVector of(String... values) {
        Builder b = new Builder(values.length);
        for (String v : values) {
            if (v == null) {
                b.appendNull();
            } else {
                b.append(v.getBytes(StandardCharsets.UTF_8));
            }
        }
        return b.build();
    }

    public static BytesVector constant(byte[] value, int size) {
        Builder b = new Builder(size);
        for (int i = 0; i < size; i++) {
            b.append(value, 0, value.length);
        }
        return b.build();
    }

    public byte[] data() {
        return data;
    }

    public int[] offsets() {
        return offsets;
    }

    public int start(int i) {
        return offsets[i];
    }

    public int length(int i) {
        return offsets[i + 1] - offsets[i];
    }

    public String getString(int i) {
        return new String(data, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
    }

    public byte[] getBytes(int i) {
        return Arrays.copyOfRange(data, offsets[i], offsets[i + 1]);
    }

    /** Whether row i equals {@code other[from .. from + len)}. */
    public boolean equalsAt(int i, byte[] other, int from, int len) {
        int s = offsets[i];
        return offsets[i + 1] - s == len && Arrays.equals(data, s, s + len, other, from, from + len);
    }

    @Override
    public Physical physical() {
        return Physical.BYTES;
    }

    @Override
    public BytesVector gather(int[] positions, int count) {
        int total = 0;
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            if (p >= 0) {
                total += offsets[p + 1] - offsets[p];
            }
        }
        byte[] out = new byte[total];
        int[] outOffsets = new int[count + 1];
        int pos = 0;
        for (int i = 0; i < count; i++) {
            int p = positions[i];
            if (p >= 0) {
                int len = offsets[p + 1] - offsets[p];
                System.arraycopy(data, offsets[p], out, pos, len);
                pos += len;
            }
            outOffsets[i + 1] = pos;
        }
        return new BytesVector(out, outOffsets, gatherNulls(nulls, positions, count), count);
    }

    @Override
    public BytesVector compact(boolean[] mask, int count) {
        int[] positions = new int[count];
        for (int i = 0, j = 0; j < count; i++) {
            if (mask[i]) {
                positions[j++] = i;
            }
        }
        return gather(positions, count);
    }

    /** Appends UTF-8 values one by one; grows geometrically. */
    public static final class Builder {
        private byte[] data;
        private int[] offsets;
        private boolean[] nulls;
        private int size;
        private int pos;

        public Builder(int expectedRows) {
            this.data = new byte[Math.max(16, expectedRows * 8)];
            this.offsets = new int[Math.max(2, expectedRows + 1)];
        }

        public void append(byte[] value) {
            append(value, 0, value.length);
        }

        public void append(byte[] src, int from, int len) {
            appendPart(src, from, len);
            endRow();
        }

        /**
         * Adds bytes to the row being written, which {@link #endRow()} closes: a kernel that builds a row from pieces
         * (padding, replacements) writes them here directly rather than into a scratch array first.
         */
        public void appendPart(byte[] src, int from, int len) {
            if (pos + len > data.length) {
                data = Arrays.copyOf(data, Math.max(data.length * 2, pos + len));
            }
            System.arraycopy(src, from, data, pos, len);
            pos += len;
        }

        /** Closes the row that {@link #appendPart} calls wrote (an empty one if there were none). */
        public void endRow() {
            ensureRow();
            offsets[++size] = pos;
        }

        public void appendNull() {
            ensureRow();
            if (nulls == null) {
                nulls = new boolean[offsets.length];
            }
            nulls[size] = true;
            offsets[++size] = pos;
        }

        private void ensureRow() {
            if (size + 2 > offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
                if (nulls != null) {
                    nulls = Arrays.copyOf(nulls, offsets.length);
                }
            }
            if (nulls != null && nulls.length < offsets.length) {
                nulls = Arrays.copyOf(nulls, offsets.length);
            }
        }

        public int size() {
            return size;
        }

        public BytesVector build() {
            return new BytesVector(data, offsets, nulls, size);
        }
    }
}
