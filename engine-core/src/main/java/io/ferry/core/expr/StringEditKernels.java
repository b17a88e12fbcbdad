package io.ferry.core.expr;

import java.util.Arrays;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * LEFT, RIGHT, LPAD, RPAD, REPLACE, the TRIMs, SPLIT_PART, INITCAP, OCTET_LENGTH and INSTR: walks over each row's
 * UTF-8 bytes that copy slices of the input into the output without decoding a String per value. Counts and
 * positions are in code points, as DuckDB's; any NULL argument gives NULL.
 */
public final class StringEditKernels {
    private StringEditKernels() {
    }

    static Evaluator compile(Op op, List<Evaluator> args) {
        return batch -> {
            int n = batch.rowCount();
            Vector[] in = StringKernels.evalAll(args, batch);
            BytesVector s = (BytesVector) in[0];
            if (op == Op.OCTET_LENGTH) {
                long[] r = new long[n];
                for (int i = 0; i < n; i++) {
                    r[i] = s.length(i);
                }
                return new LongVector(r, s.nulls(), n);
            }
            if (op == Op.INSTR) {
                return instr(s, (BytesVector) in[1], (LongVector) in[2], (LongVector) in[3], n);
            }
            BytesVector.Builder out = new BytesVector.Builder(n);
            switch (op) {
                case LEFT, RIGHT -> leftRight(op == Op.LEFT, s, (LongVector) in[1], out, n);
                case LPAD, RPAD -> pad(op == Op.LPAD, s, (LongVector) in[1], (BytesVector) in[2], out, n);
                case REPLACE -> replace(s, (BytesVector) in[1], (BytesVector) in[2], out, n);
                case LTRIM, RTRIM, BTRIM -> trim(op != Op.RTRIM, op != Op.LTRIM, s, (BytesVector) in[1], out, n);
                case SPLIT_PART -> splitPart(s, (BytesVector) in[1], (LongVector) in[2], out, n);
                case INITCAP -> initcap(s, out, n);
                default -> throw new IllegalArgumentException(op.name());
            }
            return out.build();
        };
    }

    /**
     * LEFT(s, k): the first k characters, or all but the last -k when k is negative; RIGHT(s, k) the last k, or all
     * but the first -k (PostgreSQL and DuckDB agree).
     */
    private static void leftRight(boolean left, BytesVector s, LongVector k, BytesVector.Builder out, int n) {
        byte[] d = s.data();
        for (int i = 0; i < n; i++) {
            if (s.isNull(i) || k.isNull(i)) {
                out.appendNull();
                continue;
            }
            int from = s.start(i);
            int to = from + s.length(i);
            long count = k.get(i);
            // -Long.MIN_VALUE overflows; any count beyond the string's length means the same
            long negated = count == Long.MIN_VALUE ? Long.MAX_VALUE : -count;
            if (left) {
                to = count >= 0 ? Utf8.forward(d, from, to, count) : Utf8.backward(d, from, to, negated);
            } else {
                from = count >= 0 ? Utf8.backward(d, from, to, count) : Utf8.forward(d, from, to, negated);
            }
            out.append(d, from, to - from);
        }
    }

    /**
     * LPAD and RPAD to {@code width} characters: a longer string is cut to its first {@code width} characters (for
     * either side); padding repeats {@code fill}, whose empty value cannot pad and is 22023, as in DuckDB (PostgreSQL
     * returns the string unpadded).
     */
    private static void pad(boolean left, BytesVector s, LongVector width, BytesVector fill, BytesVector.Builder out,
            int n) {
        byte[] d = s.data();
        byte[] f = fill.data();
        for (int i = 0; i < n; i++) {
            if (s.isNull(i) || width.isNull(i) || fill.isNull(i)) {
                out.appendNull();
                continue;
            }
            int from = s.start(i);
            int to = from + s.length(i);
            long w = Math.max(0, width.get(i));
            int chars = Utf8.count(d, from, to);
            if (chars >= w) {
                out.append(d, from, Utf8.forward(d, from, to, w) - from);
                continue;
            }
            int fillFrom = fill.start(i);
            int fillTo = fillFrom + fill.length(i);
            int fillChars = Utf8.count(f, fillFrom, fillTo);
            if (fillChars == 0) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, (left ? "LPAD" : "RPAD") + " cannot pad"
                        + " to " + w + " characters with an empty fill; give at least one character to pad with");
            }
            long missing = w - chars;
            long whole = missing / fillChars;
            int partTo = Utf8.forward(f, fillFrom, fillTo, missing % fillChars);
            long bytes = whole * (fillTo - fillFrom) + (partTo - fillFrom) + (to - from);
            if (bytes > StringKernels.MAX_STRING_BYTES) {
                throw new FerryException(SqlStates.PROGRAM_LIMIT_EXCEEDED, (left ? "LPAD" : "RPAD") + " to " + w
                        + " characters would build a string of " + bytes + " bytes, and a string holds at most "
                        + StringKernels.MAX_STRING_BYTES);
            }
            if (!left) {
                out.appendPart(d, from, to - from);
            }
            for (long k = 0; k < whole; k++) {
                out.appendPart(f, fillFrom, fillTo - fillFrom);
            }
            out.appendPart(f, fillFrom, partTo - fillFrom);
            if (left) {
                out.appendPart(d, from, to - from);
            }
            out.endRow();
        }
    }

    /** REPLACE(s, from, to): every occurrence, left to right, not overlapping; an empty {@code from} changes none. */
    private static void replace(BytesVector s, BytesVector what, BytesVector with, BytesVector.Builder out, int n) {
        byte[] d = s.data();
        for (int i = 0; i < n; i++) {
            if (s.isNull(i) || what.isNull(i) || with.isNull(i)) {
                out.appendNull();
                continue;
            }
            int p = s.start(i);
            int to = p + s.length(i);
            int len = what.length(i);
            if (len > 0) {
                for (int at; (at = Utf8.indexOf(d, p, to, what.data(), what.start(i), len)) >= 0; p = at + len) {
                    out.appendPart(d, p, at - p);
                    out.appendPart(with.data(), with.start(i), with.length(i));
                }
            }
            out.appendPart(d, p, to - p);
            out.endRow();
        }
    }

    /** Removes the characters that are in the set {@code chars} from the start, the end or both. */
    private static void trim(boolean leading, boolean trailing, BytesVector s, BytesVector chars,
            BytesVector.Builder out, int n) {
        for (int i = 0; i < n; i++) {
            if (s.isNull(i) || chars.isNull(i)) {
                out.appendNull();
                continue;
            }
            int from = s.start(i);
            long kept = trimmed(s.data(), from, from + s.length(i), chars.data(), chars.start(i),
                    chars.start(i) + chars.length(i), leading, trailing);
            out.append(s.data(), (int) (kept >>> 32), (int) kept - (int) (kept >>> 32));
        }
    }

    /** What is left of {@code data[from .. to)} once trimmed: its start in the high 32 bits, its end in the low. */
    private static long trimmed(byte[] data, int from, int to, byte[] set, int setFrom, int setTo, boolean leading,
            boolean trailing) {
        while (leading && from < to && Utf8.isOneOf(data, from, Utf8.width(data[from]), set, setFrom, setTo)) {
            from += Utf8.width(data[from]);
        }
        while (trailing && from < to) {
            int last = Utf8.backward(data, from, to, 1);
            if (!Utf8.isOneOf(data, last, to - last, set, setFrom, setTo)) {
                break;
            }
            to = last;
        }
        return (long) from << 32 | to;
    }

    /**
     * SPLIT_PART(s, delimiter, k) as DuckDB: the k-th field (from the end when k is negative) of s split at each
     * delimiter, left to right; '' when there is no such field or k is 0 (PostgreSQL: 22023); an empty delimiter
     * splits s into its characters (PostgreSQL: s is the one field).
     */
    private static void splitPart(BytesVector s, BytesVector delimiter, LongVector k, BytesVector.Builder out,
            int n) {
        byte[] d = s.data();
        byte[] sep = delimiter.data();
        for (int i = 0; i < n; i++) {
            if (s.isNull(i) || delimiter.isNull(i) || k.isNull(i)) {
                out.appendNull();
                continue;
            }
            int from = s.start(i);
            int to = from + s.length(i);
            long field = k.get(i);
            int sepFrom = delimiter.start(i);
            int sepLen = delimiter.length(i);
            if (sepLen == 0) {
                long chars = Utf8.count(d, from, to);
                long index = field > 0 ? field - 1 : chars + field;
                int start = field == 0 || index < 0 || index >= chars ? to : Utf8.forward(d, from, to, index);
                out.append(d, start, start == to ? 0 : Utf8.width(d[start]));
                continue;
            }
            if (field < 0) {
                long fields = 1;
                for (int p = from, at; (at = Utf8.indexOf(d, p, to, sep, sepFrom, sepLen)) >= 0; p = at + sepLen) {
                    fields++;
                }
                field += fields + 1;
            }
            int start = field < 1 ? -1 : from;
            for (long skipped = 1; skipped < field && start >= 0; skipped++) {
                int at = Utf8.indexOf(d, start, to, sep, sepFrom, sepLen);
                start = at < 0 ? -1 : at + sepLen;
            }
            if (start < 0) {
                out.append(d, to, 0);
                continue;
            }
            int end = Utf8.indexOf(d, start, to, sep, sepFrom, sepLen);
            out.append(d, start, (end < 0 ? to : end) - start);
        }
    }

    /**
     * INITCAP as PostgreSQL: a letter or digit that follows one is lower-cased, every other is upper-cased, so words
     * are runs of letters and digits of any script. Case mappings are Java's one-to-one ones (ß stays ß).
     */
    private static void initcap(BytesVector s, BytesVector.Builder out, int n) {
        byte[] d = s.data();
        byte[] encoded = new byte[4];
        for (int i = 0; i < n; i++) {
            if (s.isNull(i)) {
                out.appendNull();
                continue;
            }
            int to = s.start(i) + s.length(i);
            boolean inWord = false;
            for (int p = s.start(i); p < to; p += Utf8.width(d[p])) {
                int c = Utf8.decode(d, p);
                int mapped = inWord ? Character.toLowerCase(c) : Character.toUpperCase(c);
                inWord = Character.isLetterOrDigit(c);
                out.appendPart(encoded, 0, Utf8.encode(mapped, encoded, 0));
            }
            out.endRow();
        }
    }

    /**
     * INSTR(s, t, start, occurrence) and POSITION(t IN s FROM start), as Calcite documents them (BigQuery's INSTR):
     * the 1-based character position of the occurrence-th match of t (matches may overlap) counting right from
     * character {@code start}, or left from character {@code length + start + 1} when start is negative; 0 when
     * there is none. An empty t matches at every character and just past the end. A start of 0 or an occurrence
     * below 1 is 22023.
     */
    private static LongVector instr(BytesVector needle, BytesVector hay, LongVector start, LongVector occurrence,
            int n) {
        long[] r = new long[n];
        boolean[] nulls = Nulls.or(Nulls.or(needle.nulls(), hay.nulls(), n), Nulls.or(start.nulls(),
                occurrence.nulls(), n), n);
        byte[] h = hay.data();
        byte[] t = needle.data();
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            long from = start.get(i);
            long nth = occurrence.get(i);
            if (from == 0 || nth < 1) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "INSTR's start (" + from + ") must not be"
                        + " 0 and its occurrence (" + nth + ") must be 1 or more");
            }
            int hayFrom = hay.start(i);
            int hayTo = hayFrom + hay.length(i);
            int chars = Utf8.count(h, hayFrom, hayTo);
            r[i] = from > 0 ? rightward(h, hayFrom, hayTo, chars, t, needle.start(i), needle.length(i), from, nth)
                    : leftward(h, hayFrom, hayTo, t, needle.start(i), needle.length(i), chars + from + 1, nth);
        }
        return new LongVector(r, nulls, n);
    }

    /** The character position of the nth match of t that starts at character {@code at} or after it; 0 if none. */
    private static long rightward(byte[] h, int hayFrom, int hayTo, int chars, byte[] t, int tFrom, int tLen, long at,
            long nth) {
        if (at > chars + 1L) {
            return 0;
        }
        long seen = 0;
        for (int p = Utf8.forward(h, hayFrom, hayTo, at - 1); ; p += Utf8.width(h[p]), at++) {
            if (matchesAt(h, p, hayTo, t, tFrom, tLen) && ++seen == nth) {
                return at;
            }
            if (p == hayTo) {
                return 0;
            }
        }
    }

    /** The character position of the nth match of t, counted leftward, starting at character {@code at} or before. */
    private static long leftward(byte[] h, int hayFrom, int hayTo, byte[] t, int tFrom, int tLen, long at, long nth) {
        long seen = 0;
        for (int p = at < 1 ? hayFrom : Utf8.forward(h, hayFrom, hayTo, at - 1); at >= 1;
                p = Utf8.backward(h, hayFrom, p, 1), at--) {
            if (matchesAt(h, p, hayTo, t, tFrom, tLen) && ++seen == nth) {
                return at;
            }
        }
        return 0;
    }

    private static boolean matchesAt(byte[] h, int p, int hayTo, byte[] t, int tFrom, int tLen) {
        return p + tLen <= hayTo && Arrays.equals(h, p, p + tLen, t, tFrom, tFrom + tLen);
    }
}
