package io.ferry.server.data;

/**
 * Checks that bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF) and
 * counts their characters, as a VARCHAR(n) limit counts them. Every loader runs text through it before the text
 * reaches a table, since the engine's string kernels take UTF-8 on trust.
 */
public final class Utf8Text {
    private Utf8Text() {
    }

    /**
     * The number of characters in {@code b[from, end)}, or {@code -1 - k} when the sequence starting at byte
     * offset {@code k} (from {@code from}) is not UTF-8.
     */
    public static long characters(byte[] b, int from, int end) {
        int i = from;
        long chars = 0;
        while (i < end) {
            if (b[i] >= 0) {
                i++;
            } else {
                int n = sequenceLength(b, i, end);
                if (n < 0) {
                    return -1 - (i - from);
                }
                i += n;
            }
            chars++;
        }
        return chars;
    }

    /** The length of the well-formed UTF-8 sequence at {@code i} (RFC 3629), or -1. */
    private static int sequenceLength(byte[] b, int i, int end) {
        int lead = b[i] & 0xff;
        int n;
        int min;
        if (lead >= 0xC2 && lead <= 0xDF) {
            n = 2;
            min = 0x80;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            n = 3;
            min = 0x800;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            n = 4;
            min = 0x10000;
        } else {
            return -1;
        }
        if (i + n > end) {
            return -1;
        }
        int cp = lead & (0x7F >> n);
        for (int k = 1; k < n; k++) {
            int cont = b[i + k] & 0xff;
            if ((cont & 0xC0) != 0x80) {
                return -1;
            }
            cp = (cp << 6) | (cont & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return -1;
        }
        return n;
    }
}
