package io.ferry.server.data;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

import io.ferry.core.types.CivilCalendar;
import io.ferry.core.vector.WideDecimal;

/**
 * Parses typed values from UTF-8 text in place ({@code bytes[from .. from + len)}), with no objects on the common
 * path: each method returns {@link #OK}, {@link #SYNTAX} or {@link #RANGE} and leaves the value in {@link #value}
 * ({@link #doubleValue} for doubles). Surrounding blanks (space, tab) are ignored, as PostgreSQL does for numbers
 * and dates. One instance per loading thread.
 */
final class FieldParser {
    static final int OK = 0;
    static final int SYNTAX = 1;
    static final int RANGE = 2;

    /** Largest epoch day that still fits TIMESTAMP's epoch milliseconds. */
    private static final long MAX_TIMESTAMP_DAY = Long.MAX_VALUE / CivilCalendar.MILLIS_PER_DAY - 1;
    private static final double[] POWERS_OF_TEN = new double[23];
    private static final long[] LONG_POWERS_OF_TEN = new long[19];

    static {
        double p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = p;
            p *= 10;
        }
        long q = 1;
        for (int i = 0; i < LONG_POWERS_OF_TEN.length; i++) {
            LONG_POWERS_OF_TEN[i] = q;
            q *= 10;
        }
    }

    long value;
    /** The last wide DECIMAL {@link #parseWideDecimal} read. */
    byte[] wide;
    double doubleValue;

    /** The text's bounds after trimming blanks. */
    private int start;
    private int end;
    /** Where {@link #parseDatePart} stopped. */
    private int cursor;

    private void trim(byte[] b, int from, int len) {
        int s = from;
        int e = from + len;
        while (s < e && (b[s] == ' ' || b[s] == '\t')) {
            s++;
        }
        while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
            e--;
        }
        start = s;
        end = e;
    }

    /** Whether the text is empty or only blanks. */
    static boolean isBlank(byte[] b, int from, int len) {
        for (int i = from; i < from + len; i++) {
            if (b[i] != ' ' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }

    /** A decimal integer with an optional sign. */
    int parseLong(byte[] b, int from, int len) {
        trim(b, from, len);
        int i = start;
        if (i == end) {
            return SYNTAX;
        }
        boolean negative = b[i] == '-';
        if (b[i] == '-' || b[i] == '+') {
            i++;
        }
        if (i == end) {
            return SYNTAX;
        }
        // Accumulate negatively, as Long.parseLong does, so that Long.MIN_VALUE parses.
        long acc = 0;
        boolean overflow = false;
        for (; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return SYNTAX;
            }
            if (acc < Long.MIN_VALUE / 10 || acc * 10 < Long.MIN_VALUE + d) {
                overflow = true;
            } else {
                acc = acc * 10 - d;
            }
        }
        if (overflow || (!negative && acc == Long.MIN_VALUE)) {
            return RANGE;
        }
        value = negative ? acc : -acc;
        return OK;
    }

    /**
     * A decimal floating-point number ({@code [sign] digits [. digits] [e [sign] digits]}), or NaN / Infinity /
     * inf in any case. Exact: up to 18 significant digits with a power of ten within 10^±22 are computed directly
     * (Clinger's fast path); anything else goes to {@link Double#parseDouble}, after the grammar above has been
     * checked, so Java-only forms such as {@code 1.0f} or hexadecimal are refused.
     */
    int parseDouble(byte[] b, int from, int len) {
        // At most 18 significant digits are accumulated, so the mantissa cannot overflow a long.
        trim(b, from, len);
        int i = start;
        if (i == end) {
            return SYNTAX;
        }
        boolean negative = b[i] == '-';
        if (b[i] == '-' || b[i] == '+') {
            i++;
        }
        int afterSign = i;
        long mantissa = 0;
        int significant = 0;
        int exponent = 0;
        int digits = 0;
        boolean truncated = false;
        for (; i < end && b[i] >= '0' && b[i] <= '9'; i++, digits++) {
            if (significant < 18) {
                mantissa = mantissa * 10 + (b[i] - '0');
                if (mantissa != 0) {
                    significant++;
                }
            } else {
                exponent++;
                truncated |= b[i] != '0';
            }
        }
        if (i < end && b[i] == '.') {
            for (i++; i < end && b[i] >= '0' && b[i] <= '9'; i++, digits++) {
                if (significant < 18) {
                    mantissa = mantissa * 10 + (b[i] - '0');
                    if (mantissa != 0) {
                        significant++;
                    }
                    exponent--;
                } else {
                    truncated |= b[i] != '0';
                }
            }
        }
        if (digits == 0) {
            return parseSpecialDouble(b, afterSign, negative);
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            boolean negativeExponent = i < end && b[i] == '-';
            if (i < end && (b[i] == '-' || b[i] == '+')) {
                i++;
            }
            if (i == end) {
                return SYNTAX;
            }
            long e = 0;
            for (; i < end && b[i] >= '0' && b[i] <= '9'; i++) {
                e = Math.min(e * 10 + (b[i] - '0'), 1_000_000);
            }
            exponent += (int) (negativeExponent ? -e : e);
        }
        if (i != end) {
            return SYNTAX;
        }
        double v;
        if (!truncated && mantissa < (1L << 53) && exponent >= -22 && exponent <= 22) {
            v = exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent] : mantissa / POWERS_OF_TEN[-exponent];
            if (negative) {
                v = -v;
            }
        } else {
            v = Double.parseDouble(new String(b, start, end - start, StandardCharsets.ISO_8859_1));
        }
        if (Double.isInfinite(v)) {
            return RANGE;
        }
        doubleValue = v;
        return OK;
    }

    private int parseSpecialDouble(byte[] b, int i, boolean negative) {
        int n = end - i;
        if (matches(b, i, n, "nan")) {
            doubleValue = Double.NaN;
            return OK;
        }
        if (matches(b, i, n, "inf") || matches(b, i, n, "infinity")) {
            doubleValue = negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            return OK;
        }
        return SYNTAX;
    }

    /**
     * A decimal number as the unscaled long of DECIMAL(precision, scale). Digits beyond the scale are rounded half
     * away from zero (as PostgreSQL does); more than {@code precision - scale} integer digits is out of range.
     */
    int parseDecimal(byte[] b, int from, int len, int precision, int scale) {
        trim(b, from, len);
        int i = start;
        if (i == end) {
            return SYNTAX;
        }
        boolean negative = b[i] == '-';
        if (b[i] == '-' || b[i] == '+') {
            i++;
        }
        // a DECIMAL of up to 18 digits (FerryType.MAX_DECIMAL_DIGITS) is a long; a wider one is parseWideDecimal's
        int digitsHeld = Math.min(precision, LONG_POWERS_OF_TEN.length - 1);
        long limit = LONG_POWERS_OF_TEN[digitsHeld];
        long integerLimit = LONG_POWERS_OF_TEN[digitsHeld - scale];
        long acc = 0;
        int digits = 0;
        boolean overflow = false;
        for (; i < end && b[i] >= '0' && b[i] <= '9'; i++, digits++) {
            acc = acc * 10 + (b[i] - '0');
            if (acc >= integerLimit) {
                // Keep scanning: text that is not a number at all is a syntax error, not an overflow.
                overflow = true;
                acc = 0;
            }
        }
        int fraction = 0;
        boolean roundUp = false;
        if (i < end && b[i] == '.') {
            for (i++; i < end && b[i] >= '0' && b[i] <= '9'; i++, digits++) {
                if (fraction < scale) {
                    acc = acc * 10 + (b[i] - '0');
                    fraction++;
                } else if (fraction == scale) {
                    roundUp = b[i] >= '5';
                    fraction++;
                }
            }
        }
        if (digits == 0 || i != end) {
            return SYNTAX;
        }
        if (overflow) {
            return RANGE;
        }
        fraction = Math.min(fraction, scale);
        acc = acc * LONG_POWERS_OF_TEN[scale - fraction];
        if (roundUp) {
            acc++;
        }
        if (acc >= limit) {
            return RANGE;
        }
        value = negative ? -acc : acc;
        return OK;
    }

    /**
     * A decimal number of a wide DECIMAL (precision 19 to 38) as its 16 bytes in {@link #wide}, rounded and checked
     * as {@link #parseDecimal} does. Such columns are rare, so the text goes through BigDecimal.
     */
    int parseWideDecimal(byte[] b, int from, int len, int precision, int scale) {
        trim(b, from, len);
        BigDecimal d;
        try {
            d = new BigDecimal(new String(b, start, end - start, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return SYNTAX;
        }
        BigInteger unscaled = d.setScale(scale, RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(precision)) >= 0) {
            return RANGE;
        }
        wide = WideDecimal.encode(unscaled);
        return OK;
    }

    /** {@code [sign] yyyy-mm-dd} (a year of four or more digits; month and day of one or two) as an epoch day. */
    int parseDate(byte[] b, int from, int len) {
        trim(b, from, len);
        int status = parseDatePart(b, start);
        if (status != OK) {
            return status;
        }
        if (cursor != end) {
            return SYNTAX;
        }
        return value < Integer.MIN_VALUE || value > Integer.MAX_VALUE ? RANGE : OK;
    }

    /**
     * {@code yyyy-mm-dd[( |T)hh:mm[:ss[.fraction]]]} as epoch milliseconds, without time zone. Fractions finer
     * than a millisecond are rounded half up.
     */
    int parseTimestamp(byte[] b, int from, int len) {
        trim(b, from, len);
        int status = parseDatePart(b, start);
        if (status != OK) {
            return status;
        }
        long day = value;
        if (day > MAX_TIMESTAMP_DAY || day < -MAX_TIMESTAMP_DAY) {
            return RANGE;
        }
        int i = cursor;
        long millis = 0;
        if (i < end) {
            if (b[i] != ' ' && b[i] != 'T') {
                return SYNTAX;
            }
            i++;
            int hour = twoDigits(b, i);
            if (hour < 0 || hour > 23 || i + 2 >= end || b[i + 2] != ':') {
                return SYNTAX;
            }
            int minute = twoDigits(b, i + 3);
            if (minute < 0 || minute > 59) {
                return SYNTAX;
            }
            i += 5;
            int second = 0;
            if (i < end && b[i] == ':') {
                second = twoDigits(b, i + 1);
                if (second < 0 || second > 59) {
                    return SYNTAX;
                }
                i += 3;
            }
            millis = hour * 3_600_000L + minute * 60_000L + second * 1000L;
            if (i < end && b[i] == '.') {
                i++;
                int fractionDigits = 0;
                long scaled = 0;
                for (; i < end && b[i] >= '0' && b[i] <= '9'; i++, fractionDigits++) {
                    if (fractionDigits < 3) {
                        scaled = scaled * 10 + (b[i] - '0');
                    } else if (fractionDigits == 3 && b[i] >= '5') {
                        scaled++;
                    }
                }
                if (fractionDigits == 0) {
                    return SYNTAX;
                }
                for (int k = Math.min(fractionDigits, 3); k < 3; k++) {
                    scaled *= 10;
                }
                millis += scaled;
            }
            if (i != end) {
                return SYNTAX;
            }
        }
        value = day * CivilCalendar.MILLIS_PER_DAY + millis;
        return OK;
    }

    /** Whether the text has a time of day after the date (what tells TIMESTAMP from DATE when inferring types). */
    boolean hasTime(byte[] b, int from, int len) {
        trim(b, from, len);
        for (int i = start; i < end; i++) {
            if (b[i] == ':') {
                return true;
            }
        }
        return false;
    }

    /** true/false, t/f, yes/no, y/n, on/off, 1/0 in any case, as PostgreSQL accepts them; the value is 1 or 0. */
    int parseBoolean(byte[] b, int from, int len) {
        trim(b, from, len);
        int n = end - start;
        if (matches(b, start, n, "true") || matches(b, start, n, "t") || matches(b, start, n, "yes")
                || matches(b, start, n, "y") || matches(b, start, n, "on") || matches(b, start, n, "1")) {
            value = 1;
            return OK;
        }
        if (matches(b, start, n, "false") || matches(b, start, n, "f") || matches(b, start, n, "no")
                || matches(b, start, n, "n") || matches(b, start, n, "off") || matches(b, start, n, "0")) {
            value = 0;
            return OK;
        }
        return SYNTAX;
    }

    /** Whether the text is exactly true or false (any case): the only spellings type inference calls BOOLEAN. */
    boolean isBooleanWord(byte[] b, int from, int len) {
        trim(b, from, len);
        int n = end - start;
        return matches(b, start, n, "true") || matches(b, start, n, "false");
    }

    /** Parses the date at {@code i} into {@link #value} (epoch day) and leaves {@link #cursor} after it. */
    private int parseDatePart(byte[] b, int i) {
        boolean negative = i < end && b[i] == '-';
        if (i < end && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        long year = 0;
        int yearDigits = 0;
        for (; i < end && b[i] >= '0' && b[i] <= '9'; i++, yearDigits++) {
            if (yearDigits == 9) {
                return RANGE;
            }
            year = year * 10 + (b[i] - '0');
        }
        if (yearDigits < 4 || i >= end || b[i] != '-') {
            return SYNTAX;
        }
        i++;
        int month = 0;
        int monthDigits = 0;
        for (; i < end && b[i] >= '0' && b[i] <= '9' && monthDigits < 2; i++, monthDigits++) {
            month = month * 10 + (b[i] - '0');
        }
        if (monthDigits == 0 || i >= end || b[i] != '-') {
            return SYNTAX;
        }
        i++;
        int day = 0;
        int dayDigits = 0;
        for (; i < end && b[i] >= '0' && b[i] <= '9' && dayDigits < 2; i++, dayDigits++) {
            day = day * 10 + (b[i] - '0');
        }
        if (dayDigits == 0) {
            return SYNTAX;
        }
        if (negative) {
            year = -year;
        }
        if (!CivilCalendar.isValid(year, month, day)) {
            return SYNTAX;
        }
        value = CivilCalendar.epochDay(year, month, day);
        cursor = i;
        return OK;
    }

    private int twoDigits(byte[] b, int i) {
        if (i + 1 >= end || b[i] < '0' || b[i] > '9' || b[i + 1] < '0' || b[i + 1] > '9') {
            return -1;
        }
        return (b[i] - '0') * 10 + (b[i + 1] - '0');
    }

    /** Case-insensitive comparison with a lower-case ASCII word. */
    private static boolean matches(byte[] b, int from, int len, String word) {
        if (len != word.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            int c = b[from + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
