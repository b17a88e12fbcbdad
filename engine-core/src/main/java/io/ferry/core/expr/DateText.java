package io.ferry.core.expr;

import io.ferry.core.types.CivilCalendar;

/**
 * Reads SQL text as a DATE (epoch days) or TIMESTAMP (epoch milliseconds) the way DuckDB's casts do, from UTF-8
 * bytes and without exceptions: surrounding whitespace, {@code [-]Y-M-D} with 1-2 digit month and day and
 * {@code -} or {@code /} between them, then optionally a time after {@code T} or spaces, {@code H:MM[:SS[.fff]]}
 * ({@code 24:00:00} is the next midnight), then optionally {@code Z}. Digits past milliseconds are cut off. A DATE
 * accepts and ignores a time. Time zone offsets and DuckDB's special words ({@code epoch}, {@code infinity}) are
 * not read.
 *
 * <p>One instance is reused for the rows of a batch; {@link #value} holds the last result.
 */
final class DateText {
    /** The last DATE or TIMESTAMP read. */
    long value;

    private int pos;
    private int end;
    private byte[] b;
    private boolean trailingSpace;

    /** Reads {@code data[from, from + len)} into {@link #value}; false if it is not a date. */
    boolean parseDate(byte[] data, int from, int len) {
        if (!date(data, from, len)) {
            return false;
        }
        long days = value;
        if (pos < end && !time()) {
            return false;
        }
        value = days;
        return true;
    }

    /** Reads {@code data[from, from + len)} into {@link #value}; false if it is not a timestamp. */
    boolean parseTimestamp(byte[] data, int from, int len) {
        if (!date(data, from, len)) {
            return false;
        }
        long days = value;
        long millis = 0;
        if (pos == end && trailingSpace) {
            return false; // DuckDB reads "2024-02-28 " as a DATE but not as a TIMESTAMP
        }
        if (pos < end) {
            if (!time()) {
                return false;
            }
            millis = value;
        }
        value = days * CivilCalendar.MILLIS_PER_DAY + millis;
        return true;
    }

    private boolean date(byte[] data, int from, int len) {
        b = data;
        int start = NumericText.skipSpace(data, from, from + len);
        end = NumericText.trimEnd(data, start, from + len);
        trailingSpace = end < from + len;
        pos = start;
        boolean bc = pos < end && b[pos] == '-';
        if (bc) {
            pos++;
        }
        long year = digits(1, 9);
        if (year < 0 || pos >= end || (b[pos] != '-' && b[pos] != '/')) {
            return false;
        }
        byte sep = b[pos++];
        long month = digits(1, 2);
        if (month < 0 || pos >= end || b[pos++] != sep) {
            return false;
        }
        long day = digits(1, 2);
        if (day < 0) {
            return false;
        }
        year = bc ? -year : year;
        if (!CivilCalendar.isValid(year, (int) month, (int) day)) {
            return false;
        }
        value = CivilCalendar.epochDay(year, (int) month, (int) day);
        return true;
    }

    /** {@code (T | ' '+) H:MM[:SS[.f+]] [Z]} up to the end, as milliseconds into the day. */
    private boolean time() {
        if (b[pos] == 'T') {
            pos++;
        } else if (b[pos] == ' ') {
            while (pos < end && b[pos] == ' ') {
                pos++;
            }
        } else {
            return false;
        }
        long hour = digits(1, 2);
        if (hour < 0 || pos >= end || b[pos++] != ':') {
            return false;
        }
        long minute = digits(2, 2);
        long second = 0;
        long millis = 0;
        if (minute < 0) {
            return false;
        }
        if (pos < end && b[pos] == ':') {
            pos++;
            second = digits(2, 2);
            if (second < 0) {
                return false;
            }
            if (pos < end && b[pos] == '.') {
                pos++;
                int fractionFrom = pos;
                for (; pos < end && b[pos] >= '0' && b[pos] <= '9'; pos++) {
                    if (pos - fractionFrom < 3) {
                        millis = millis * 10 + (b[pos] - '0');
                    }
                }
                if (pos == fractionFrom) {
                    return false;
                }
                for (int d = pos - fractionFrom; d < 3; d++) {
                    millis *= 10;
                }
            }
        }
        if (pos < end && b[pos] == 'Z') {
            pos++;
        }
        boolean midnight = hour == 24 && minute == 0 && second == 0 && millis == 0;
        if (pos != end || (hour > 23 && !midnight) || minute > 59 || second > 59) {
            return false;
        }
        value = ((hour * 60 + minute) * 60 + second) * 1000 + millis;
        return true;
    }

    /** Between {@code min} and {@code max} decimal digits at the cursor, or -1. */
    private long digits(int min, int max) {
        int from = pos;
        long v = 0;
        while (pos < end && pos - from < max && b[pos] >= '0' && b[pos] <= '9') {
            v = v * 10 + (b[pos++] - '0');
        }
        return pos - from < min ? -1 : v;
    }
}
