package io.ferry.core.expr;

import java.util.Arrays;

/**
 * Walks over UTF-8 bytes a code point at a time without decoding to a String. Inputs are valid UTF-8 (Ferry writes
 * nothing else), so a code point starts at every byte that is not a continuation byte ({@code 10xxxxxx}), and a
 * byte-wise match of valid UTF-8 inside valid UTF-8 always starts and ends on code point boundaries.
 */
final class Utf8 {
    private Utf8() {
    }

    static boolean startsCodePoint(byte b) {
        return (b & 0xC0) != 0x80;
    }

    /** The number of code points in {@code data[from .. to)}. */
    static int count(byte[] data, int from, int to) {
        int chars = 0;
        for (int p = from; p < to; p++) {
            chars += startsCodePoint(data[p]) ? 1 : 0;
        }
        return chars;
    }

    /** The offset just past the first {@code k} code points of {@code data[from .. to)}, or {@code to}. */
    static int forward(byte[] data, int from, int to, long k) {
        int p = from;
        for (long seen = 0; seen < k && p < to; seen++) {
            p += width(data[p]);
        }
        return Math.min(p, to);
    }

    /** The offset where the last {@code k} code points of {@code data[from .. to)} start, or {@code from}. */
    static int backward(byte[] data, int from, int to, long k) {
        int p = to;
        for (long seen = 0; seen < k && p > from; seen++) {
            p--;
            while (p > from && !startsCodePoint(data[p])) {
                p--;
            }
        }
        return p;
    }

    /** The number of bytes of the code point whose first byte is {@code lead}. */
    static int width(byte lead) {
        int b = lead & 0xFF;
        return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    }

    static int decode(byte[] data, int p) {
        int b = data[p] & 0xFF;
        return switch (width(data[p])) {
            case 1 -> b;
            case 2 -> (b & 0x1F) << 6 | data[p + 1] & 0x3F;
            case 3 -> (b & 0x0F) << 12 | (data[p + 1] & 0x3F) << 6 | data[p + 2] & 0x3F;
            default -> (b & 0x07) << 18 | (data[p + 1] & 0x3F) << 12 | (data[p + 2] & 0x3F) << 6 | data[p + 3] & 0x3F;
        };
    }

    /** Writes code point {@code c} at {@code out[p ..]} (room for 4 bytes needed); returns the offset after it. */
    static int encode(int c, byte[] out, int p) {
        if (c < 0x80) {
            out[p] = (byte) c;
            return p + 1;
        }
        if (c < 0x800) {
            out[p] = (byte) (0xC0 | c >> 6);
            out[p + 1] = (byte) (0x80 | c & 0x3F);
            return p + 2;
        }
        if (c < 0x10000) {
            out[p] = (byte) (0xE0 | c >> 12);
            out[p + 1] = (byte) (0x80 | c >> 6 & 0x3F);
            out[p + 2] = (byte) (0x80 | c & 0x3F);
            return p + 3;
        }
        out[p] = (byte) (0xF0 | c >> 18);
        out[p + 1] = (byte) (0x80 | c >> 12 & 0x3F);
        out[p + 2] = (byte) (0x80 | c >> 6 & 0x3F);
        out[p + 3] = (byte) (0x80 | c & 0x3F);
        return p + 4;
    }

    /** Where {@code needle} first occurs in {@code hay[hayFrom .. hayTo)}, as an offset into hay; -1 if nowhere. */
    static int indexOf(byte[] hay, int hayFrom, int hayTo, byte[] needle, int needleFrom, int needleLen) {
        for (int p = hayFrom; p + needleLen <= hayTo; p++) {
            if (Arrays.equals(hay, p, p + needleLen, needle, needleFrom, needleFrom + needleLen)) {
                return p;
            }
        }
        return -1;
    }

    /** Whether the code point at {@code data[p .. p + len)} is one of the code points of {@code set[from .. to)}. */
    static boolean isOneOf(byte[] data, int p, int len, byte[] set, int from, int to) {
        for (int q = from; q < to; q += width(set[q])) {
            if (width(set[q]) == len && Arrays.equals(data, p, p + len, set, q, q + len)) {
                return true;
            }
        }
        return false;
    }
}
