package io.ferry.core.expr;

import java.nio.charset.StandardCharsets;

/**
 * Reads SQL text as a number the way DuckDB's casts do, from UTF-8 bytes, without exceptions and without
 * allocating for integers and decimals: surrounding whitespace, a sign, digits with single underscores between
 * them ({@code 1_000}), an optional fraction and exponent ({@code 1.5e3}). An exact value becomes an integer or a
 * DECIMAL by rounding half away from zero ({@code '2.5'} is 3), then must fit the target. Integers may also be
 * written {@code 0x1F} or {@code 0b101} (no sign). DOUBLE also reads {@code inf}, {@code infinity} and {@code nan}.
 *
 * <p>One instance is reused for the rows of a batch; {@link #value} holds the last result.
 */
final class NumericText {
    static final int OK = 0;
    static final int INVALID = 1;
    static final int OUT_OF_RANGE = 2;

    /** Exponents beyond this saturate: no DECIMAL or integer has this many digits. */
    private static final int EXPONENT_LIMIT = 100_000;

    /** The last integer or unscaled DECIMAL read. */
    long value;
    /** The last DOUBLE read. */
    double doubleValue;

    private boolean negative;
    private int mantissaFrom;
    private int mantissaTo;
    private int digitCount;
    private int fractionDigits;
    private long exponent;

    /**
     * Reads {@code data[from, from + len)} as a number of {@code scale} decimal places (0 for integers) into
     * {@link #value}, which must lie in {@code [min, max]}.
     */
    int parseUnscaled(byte[] data, int from, int len, int scale, long min, long max, boolean radixPrefixes) {
        int to = from + len;
        int start = skipSpace(data, from, to);
        if (radixPrefixes && to - start > 2 && data[start] == '0') {
            byte p = data[start + 1];
            if (p == 'x' || p == 'X') {
                return radix(data, start + 2, to, 16, max);
            }
            if (p == 'b' || p == 'B') {
                return radix(data, start + 2, to, 2, max);
            }
        }
        if (!scan(data, start, trimEnd(data, start, to))) {
            return INVALID;
        }
        long shift = exponent - fractionDigits + scale;
        long keep = digitCount + Math.min(shift, 0);
        long acc = 0; // negative magnitude, as Long.parseLong accumulates, so that Long.MIN_VALUE fits
        int roundDigit = 0;
        int seen = 0;
        for (int i = mantissaFrom; i < mantissaTo; i++) {
            byte c = data[i];
            if (c < '0' || c > '9') {
                continue;
            }
            int d = c - '0';
            if (seen < keep) {
                if (acc < Long.MIN_VALUE / 10 || acc * 10 < Long.MIN_VALUE + d) {
                    return OUT_OF_RANGE;
                }
                acc = acc * 10 - d;
            } else if (seen == keep) {
                roundDigit = d;
                break;
            }
            seen++;
        }
        if (roundDigit >= 5) {
            if (acc == Long.MIN_VALUE) {
                return OUT_OF_RANGE;
            }
            acc--;
        }
        for (long s = shift; s > 0 && acc != 0; s--) {
            if (acc < Long.MIN_VALUE / 10) {
                return OUT_OF_RANGE;
            }
            acc *= 10;
        }
        if (!negative) {
            if (acc == Long.MIN_VALUE) {
                return OUT_OF_RANGE;
            }
            acc = -acc;
        }
        if (acc < min || acc > max) {
            return OUT_OF_RANGE;
        }
        value = acc;
        return OK;
    }

    /** Reads {@code data[from, from + len)} as a DOUBLE into {@link #doubleValue}; too large a value is infinite. */
    int parseDouble(byte[] data, int from, int len) {
        int to = from + len;
        int start = skipSpace(data, from, to);
        int end = trimEnd(data, start, to);
        int wordFrom = start < end && (data[start] == '+' || data[start] == '-') ? start + 1 : start;
        double special = specialWord(data, wordFrom, end);
        if (!Double.isNaN(special) || isWord(data, wordFrom, end, "nan")) {
            doubleValue = data[start] == '-' ? -special : special;
            return OK;
        }
        if (!scan(data, start, end)) {
            return INVALID;
        }
        StringBuilder text = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            if (data[i] != '_') {
                text.append((char) data[i]);
            }
        }
        doubleValue = Double.parseDouble(text.toString());
        return OK;
    }

    /** ws* [+-] digits [. digits] [e [+-] digits] ws*, with at least one digit and underscores only between digits. */
    private boolean scan(byte[] b, int from, int to) {
        int i = from;
        negative = false;
        if (i < to && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        mantissaFrom = i;
        int digits = 0;
        int integral = -1;
        for (; i < to; i++) {
            byte c = b[i];
            if (isDigit(c)) {
                digits++;
            } else if (c == '_') {
                if (i == mantissaFrom || !isDigit(b[i - 1]) || i + 1 >= to || !isDigit(b[i + 1])) {
                    return false;
                }
            } else if (c == '.' && integral < 0) {
                integral = digits;
            } else {
                break;
            }
        }
        mantissaTo = i;
        if (digits == 0) {
            return false;
        }
        digitCount = digits;
        fractionDigits = integral < 0 ? 0 : digits - integral;
        exponent = 0;
        if (i < to && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            boolean minus = false;
            if (i < to && (b[i] == '+' || b[i] == '-')) {
                minus = b[i] == '-';
                i++;
            }
            int expFrom = i;
            for (; i < to && isDigit(b[i]); i++) {
                exponent = Math.min(exponent * 10 + (b[i] - '0'), EXPONENT_LIMIT);
            }
            if (i == expFrom) {
                return false;
            }
            exponent = minus ? -exponent : exponent;
        }
        return i == to;
    }

    /** Hexadecimal or binary digits, with single underscores between them, up to the end (no trailing spaces). */
    private int radix(byte[] b, int from, int to, int radix, long max) {
        long acc = 0;
        for (int i = from; i < to; i++) {
            int d = Character.digit(b[i], radix);
            if (b[i] == '_' && i > from && i + 1 < to && b[i - 1] != '_' && b[i + 1] != '_') {
                continue;
            }
            if (d < 0 || b[i] < 0) {
                return INVALID;
            }
            if (acc > (max - d) / radix) {
                return OUT_OF_RANGE;
            }
            acc = acc * radix + d;
        }
        value = acc;
        return OK;
    }

    /** Infinity for {@code inf} or {@code infinity} (any case), otherwise NaN. */
    private static double specialWord(byte[] b, int from, int to) {
        return isWord(b, from, to, "inf") || isWord(b, from, to, "infinity") ? Double.POSITIVE_INFINITY : Double.NaN;
    }

    private static boolean isWord(byte[] b, int from, int to, String word) {
        if (to - from != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (Character.toLowerCase(b[from + i]) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Space, tab, newline, vertical tab, form feed and carriage return, as DuckDB skips them. */
    static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    static int skipSpace(byte[] b, int from, int to) {
        while (from < to && isSpace(b[from])) {
            from++;
        }
        return from;
    }

    static int trimEnd(byte[] b, int from, int to) {
        while (to > from && isSpace(b[to - 1])) {
            to--;
        }
        return to;
    }

    static String text(byte[] data, int from, int len) {
        return new String(data, from, len, StandardCharsets.UTF_8);
    }
}
