package io.ferry.server.data;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Splits UTF-8 CSV bytes into records and fields (RFC 4180): fields separated by the delimiter, records by LF, CRLF
 * or CR; a field that starts with the quote character runs to the matching quote, may contain delimiters and line
 * breaks, and writes a quote as two quotes. A quote inside an unquoted field is an ordinary character.
 *
 * <p>Fields are not copied: each is a range of the read buffer, except a quoted field with doubled quotes, which is
 * unescaped into a side buffer (the read buffer itself stays untouched so that {@link #reset()} can replay it). A
 * record must fit in the buffer, which grows as needed. A UTF-8 byte order mark at the start is skipped.
 */
final class CsvRecordReader {
    private static final int INITIAL_BUFFER = 1 << 20;
    private static final int NEED_MORE = -1;

    private final InputStream in;
    private final String source;
    private final byte delimiter;
    private final byte quote;

    private byte[] buf = new byte[INITIAL_BUFFER];
    private int pos;
    private int limit;
    private boolean eof;
    private boolean started;
    /** Bytes dropped from the front of the buffer so far: {@code discarded + pos} is the input offset. */
    private long discarded;
    /** The physical line (1-based) at {@link #pos}. */
    private long line = 1;
    private long recordLine;

    private boolean marked;
    private int markPos;
    private long markLine;

    private int fieldCount;
    private int[] starts = new int[16];
    private int[] lengths = new int[16];
    private boolean[] quoted = new boolean[16];
    private boolean[] escaped = new boolean[16];
    private byte[] unescaped = new byte[256];
    private int unescapedLength;
    /** Line breaks in the record being scanned, its terminator included. */
    private int newlines;

    CsvRecordReader(InputStream in, String source, char delimiter, char quote) {
        this.in = in;
        this.source = source;
        this.delimiter = (byte) delimiter;
        this.quote = (byte) quote;
    }

    /** Reads the next record; false at the end of the input. */
    boolean next() throws IOException {
        if (!started) {
            started = true;
            boolean more = true;
            while (limit < 3 && more) {
                more = fill();
            }
            if (limit >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF) {
                pos = 3;
            }
        }
        while (pos == limit) {
            if (eof || !fill()) {
                return false;
            }
        }
        int end;
        while ((end = scan(pos)) == NEED_MORE) {
            fill();
        }
        unescape();
        recordLine = line;
        line += newlines;
        pos = end;
        return true;
    }

    /** Remembers the position: records read from here on can be read again after {@link #reset()}. */
    void mark() {
        marked = true;
        markPos = pos;
        markLine = line;
    }

    void reset() {
        marked = false;
        pos = markPos;
        line = markLine;
    }

    int fieldCount() {
        return fieldCount;
    }

    /** The bytes that hold field {@code i}: the read buffer, or the side buffer for unescaped quoted fields. */
    byte[] array(int i) {
        return escaped[i] ? unescaped : buf;
    }

    int start(int i) {
        return starts[i];
    }

    int length(int i) {
        return lengths[i];
    }

    boolean quoted(int i) {
        return quoted[i];
    }

    /** The line on which the current record starts (1-based, counting a header line). */
    long recordLine() {
        return recordLine;
    }

    /** Input bytes consumed so far. */
    long bytesRead() {
        return discarded + pos;
    }

    /**
     * Finds the fields of the record starting at {@code from}; returns where the next record starts, or
     * {@link #NEED_MORE} when the buffer ends inside the record and more input may follow.
     */
    private int scan(int from) {
        fieldCount = 0;
        newlines = 1;
        int p = from;
        while (true) {
            if (p == limit && !eof) {
                return NEED_MORE;
            }
            int fieldStart = p;
            boolean isQuoted = p < limit && buf[p] == quote;
            boolean hasEscapes = false;
            if (isQuoted) {
                p++;
                while (true) {
                    if (p >= limit) {
                        if (!eof) {
                            return NEED_MORE;
                        }
                        throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, source + ", line " + line
                                + ": a quoted field is not closed before the end of the input; add the closing "
                                + "quote (" + (char) quote + "), and write a quote inside a quoted field as two");
                    }
                    byte b = buf[p];
                    if (b == quote) {
                        if (p + 1 >= limit && !eof) {
                            return NEED_MORE;
                        }
                        if (p + 1 < limit && buf[p + 1] == quote) {
                            hasEscapes = true;
                            p += 2;
                            continue;
                        }
                        break;
                    }
                    if (b == '\n') {
                        newlines++;
                    }
                    p++;
                }
                addField(fieldStart + 1, p - fieldStart - 1, true, hasEscapes);
                p++;
                if (p < limit && buf[p] != delimiter && buf[p] != '\n' && buf[p] != '\r') {
                    throw new FerryException(SqlStates.BAD_COPY_FILE_FORMAT, source + ", line " + line
                            + ": unexpected character '" + (char) (buf[p] & 0xff) + "' after the closing quote of "
                            + "field " + fieldCount + "; quote the whole field and write a quote inside it twice");
                }
            } else {
                while (p < limit) {
                    byte b = buf[p];
                    if (b == delimiter || b == '\n' || b == '\r') {
                        break;
                    }
                    p++;
                }
                if (p == limit && !eof) {
                    return NEED_MORE;
                }
                addField(fieldStart, p - fieldStart, false, false);
            }
            if (p >= limit) {
                return eof ? p : NEED_MORE;
            }
            byte b = buf[p];
            if (b == delimiter) {
                p++;
                continue;
            }
            if (b == '\n') {
                return p + 1;
            }
            // CR: a CRLF pair or a lone CR ends the record.
            if (p + 1 < limit) {
                return buf[p + 1] == '\n' ? p + 2 : p + 1;
            }
            return eof ? p + 1 : NEED_MORE;
        }
    }

    private void addField(int start, int length, boolean isQuoted, boolean hasEscapes) {
        if (fieldCount == starts.length) {
            int n = starts.length * 2;
            starts = Arrays.copyOf(starts, n);
            lengths = Arrays.copyOf(lengths, n);
            quoted = Arrays.copyOf(quoted, n);
            escaped = Arrays.copyOf(escaped, n);
        }
        starts[fieldCount] = start;
        lengths[fieldCount] = length;
        quoted[fieldCount] = isQuoted;
        escaped[fieldCount] = hasEscapes;
        fieldCount++;
    }

    /** Copies fields with doubled quotes into the side buffer with single quotes. */
    private void unescape() {
        unescapedLength = 0;
        for (int f = 0; f < fieldCount; f++) {
            if (!escaped[f]) {
                continue;
            }
            int from = starts[f];
            int len = lengths[f];
            if (unescapedLength + len > unescaped.length) {
                unescaped = Arrays.copyOf(unescaped, Math.max(unescaped.length * 2, unescapedLength + len));
            }
            int out = unescapedLength;
            for (int i = from; i < from + len; i++) {
                unescaped[out++] = buf[i];
                if (buf[i] == quote) {
                    i++;
                }
            }
            starts[f] = unescapedLength;
            lengths[f] = out - unescapedLength;
            unescapedLength = out;
        }
    }

    /**
     * Reads more input after the bytes still needed (from the current record, or from the mark while one is set),
     * moving those to the front and growing the buffer when they fill it. Returns false at the end of the input.
     */
    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int keep = marked ? Math.min(markPos, pos) : pos;
        if (keep > 0) {
            System.arraycopy(buf, keep, buf, 0, limit - keep);
            limit -= keep;
            pos -= keep;
            if (marked) {
                markPos -= keep;
            }
            discarded += keep;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
            return false;
        }
        limit += n;
        return true;
    }
}
