package io.ferry.core.expr;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * UPPER, LOWER, SUBSTRING, CONCAT (||), CHAR_LENGTH and the other string functions; lengths and positions count
 * characters (code points), not bytes. Prefix, suffix and position tests compare UTF-8 bytes without decoding.
 */
public final class StringKernels {
    /** The longest string REPEAT builds, as PostgreSQL limits a text value. */
    static final long MAX_STRING_BYTES = 1L << 30;

    private StringKernels() {
    }

    static Evaluator compile(Op op, List<Evaluator> args) {
        if (op == Op.CHR) {
            Evaluator a = args.get(0);
            return batch -> chr((LongVector) a.eval(batch), batch.rowCount());
        }
        if (op == Op.CONCAT_WS) {
            return batch -> concatWs(evalAll(args, batch), batch.rowCount());
        }
        return batch -> {
            int n = batch.rowCount();
            Vector[] in = evalAll(args, batch);
            BytesVector s = (BytesVector) in[0];
            switch (op) {
                case CHAR_LENGTH -> {
                    long[] r = new long[n];
                    for (int i = 0; i < n; i++) {
                        r[i] = Utf8.count(s.data(), s.start(i), s.start(i) + s.length(i));
                    }
                    return new LongVector(r, s.nulls(), n);
                }
                case ASCII -> {
                    long[] r = new long[n];
                    for (int i = 0; i < n; i++) {
                        r[i] = s.length(i) == 0 || s.isNull(i) ? 0 : s.getString(i).codePointAt(0);
                    }
                    return new LongVector(r, s.nulls(), n);
                }
                case STARTS_WITH, ENDS_WITH, POSITION -> {
                    return compare(op, s, (BytesVector) in[1], n);
                }
                default -> {
                }
            }
            BytesVector.Builder out = new BytesVector.Builder(n);
            for (int i = 0; i < n; i++) {
                boolean isNull = false;
                for (Vector v : in) {
                    isNull |= v.isNull(i);
                }
                if (isNull) {
                    out.appendNull();
                    continue;
                }
                switch (op) {
                    case CONCAT -> appendConcat(out, in, i);
                    case UPPER, LOWER -> appendCase(out, s, i, op == Op.UPPER);
                    case SUBSTRING -> appendSubstring(out, s, i, ((LongVector) in[1]).get(i),
                            in.length > 2 ? ((LongVector) in[2]).get(i) : Long.MAX_VALUE);
                    case REPEAT -> repeat(out, s, i, ((LongVector) in[1]).get(i));
                    case MD5 -> out.append(md5(s, i));
                    case REVERSE -> out.append(new StringBuilder(s.getString(i)).reverse().toString()
                            .getBytes(StandardCharsets.UTF_8));
                    case TRANSLATE -> out.append(translate(s.getString(i), ((BytesVector) in[1]).getString(i),
                            ((BytesVector) in[2]).getString(i)).getBytes(StandardCharsets.UTF_8));
                    case OVERLAY -> {
                        String str = s.getString(i);
                        String placing = ((BytesVector) in[1]).getString(i);
                        long start = ((LongVector) in[2]).get(i);
                        long len = in.length > 3 ? ((LongVector) in[3]).get(i) : placing.codePointCount(0,
                                placing.length());
                        out.append((substring(str, 1, start - 1) + placing + substring(str, start + len,
                                Long.MAX_VALUE)).getBytes(StandardCharsets.UTF_8));
                    }
                    default -> throw new IllegalArgumentException(op.name());
                }
            }
            return out.build();
        };
    }

    /**
     * SUBSTRING(s FROM start FOR len) on the UTF-8 bytes: the code points from position {@code start} (1 is the
     * first; before it counts, but gives nothing) up to {@code start + len}, as {@link #substring} does on a String.
     */
    private static void appendSubstring(BytesVector.Builder out, BytesVector s, int i, long start, long len) {
        long from = Math.max(start, 1);
        long end = len > Long.MAX_VALUE - Math.max(start, 0) ? Long.MAX_VALUE : start + len; // no overflow
        if (len < 0 || end <= from) {
            out.append(s.data(), 0, 0);
            return;
        }
        byte[] data = s.data();
        int bytesTo = s.start(i) + s.length(i);
        int first = Utf8.forward(data, s.start(i), bytesTo, from - 1);
        int last = end == Long.MAX_VALUE ? bytesTo : Utf8.forward(data, first, bytesTo, end - from);
        out.append(data, first, last - first);
    }

    /** UPPER or LOWER: ASCII bytes mapped in place, any other string through Java's case rules (Locale.ROOT). */
    private static void appendCase(BytesVector.Builder out, BytesVector s, int i, boolean upper) {
        byte[] data = s.data();
        int from = s.start(i);
        int len = s.length(i);
        boolean ascii = true;
        for (int p = from; p < from + len; p++) {
            ascii &= data[p] >= 0;
        }
        if (!ascii) {
            String str = s.getString(i);
            out.append((upper ? str.toUpperCase(Locale.ROOT) : str.toLowerCase(Locale.ROOT))
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        byte[] mapped = new byte[len];
        for (int k = 0; k < len; k++) {
            byte b = data[from + k];
            boolean change = upper ? b >= 'a' && b <= 'z' : b >= 'A' && b <= 'Z';
            mapped[k] = change ? (byte) (b ^ 0x20) : b;
        }
        out.append(mapped);
    }

    static Vector[] evalAll(List<Evaluator> args, io.ferry.core.vector.Batch batch) {
        Vector[] in = new Vector[args.size()];
        for (int i = 0; i < in.length; i++) {
            in[i] = args.get(i).eval(batch);
        }
        return in;
    }

    /** STARTS_WITH(s, prefix), ENDS_WITH(s, suffix) and POSITION(needle IN s), on the UTF-8 bytes. */
    private static LongVector compare(Op op, BytesVector a, BytesVector b, int n) {
        long[] r = new long[n];
        byte[] x = a.data();
        byte[] y = b.data();
        for (int i = 0; i < n; i++) {
            int la = a.length(i);
            int lb = b.length(i);
            int sa = a.start(i);
            int sb = b.start(i);
            r[i] = switch (op) {
                case STARTS_WITH -> lb <= la && Arrays.equals(x, sa, sa + lb, y, sb, sb + lb) ? 1 : 0;
                case ENDS_WITH -> lb <= la && Arrays.equals(x, sa + la - lb, sa + la, y, sb, sb + lb) ? 1 : 0;
                default -> {
                    // POSITION's needle is the first argument, the string searched the second
                    int at = Utf8.indexOf(y, sb, sb + lb, x, sa, la);
                    yield at < 0 ? 0 : Utf8.count(y, sb, at) + 1;
                }
            };
        }
        return new LongVector(r, Nulls.or(a.nulls(), b.nulls(), n), n);
    }

    private static void repeat(BytesVector.Builder out, BytesVector s, int i, long count) {
        int len = s.length(i);
        if (count <= 0 || len == 0) {
            out.append(new byte[0]);
            return;
        }
        if (len * count > MAX_STRING_BYTES || count > MAX_STRING_BYTES) {
            throw new FerryException(SqlStates.PROGRAM_LIMIT_EXCEEDED, "REPEAT would build a string of "
                    + len * Math.min(count, MAX_STRING_BYTES) + " or more bytes, and a string holds at most "
                    + MAX_STRING_BYTES + "; repeat fewer times");
        }
        byte[] r = new byte[(int) (len * count)];
        for (int k = 0; k < count; k++) {
            System.arraycopy(s.data(), s.start(i), r, k * len, len);
        }
        out.append(r);
    }

    private static byte[] md5(BytesVector s, int i) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
        digest.update(s.data(), s.start(i), s.length(i));
        return HexFormat.of().formatHex(digest.digest()).getBytes(StandardCharsets.US_ASCII);
    }

    /** PostgreSQL's TRANSLATE: a character of {@code from} becomes the one at its position in {@code to}, or goes. */
    static String translate(String s, String from, String to) {
        int[] f = from.codePoints().toArray();
        int[] t = to.codePoints().toArray();
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            int k = 0;
            while (k < f.length && f[k] != c) {
                k++;
            }
            if (k == f.length) {
                out.appendCodePoint(c);
            } else if (k < t.length) {
                out.appendCodePoint(t[k]);
            }
        });
        return out.toString();
    }

    private static BytesVector chr(LongVector codes, int n) {
        BytesVector.Builder out = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            if (codes.isNull(i)) {
                out.appendNull();
                continue;
            }
            long c = codes.get(i);
            if (c < 0 || c > Character.MAX_CODE_POINT || (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "CHR(" + c + "): not a Unicode code point;"
                        + " CHR takes 0 to 1114111 (0x10FFFF), surrogates (55296 to 57343) excepted");
            }
            out.append(Character.toString((int) c).getBytes(StandardCharsets.UTF_8));
        }
        return out.build();
    }

    /** CONCAT_WS(separator, s1, …): the non-NULL strings joined by the separator; NULL only if the separator is. */
    private static BytesVector concatWs(Vector[] in, int n) {
        BytesVector sep = (BytesVector) in[0];
        BytesVector.Builder out = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            if (sep.isNull(i)) {
                out.appendNull();
                continue;
            }
            int total = 0;
            for (int k = 1; k < in.length; k++) {
                total += in[k].isNull(i) ? 0 : ((BytesVector) in[k]).length(i) + sep.length(i);
            }
            byte[] joined = new byte[Math.max(0, total - sep.length(i))];
            int pos = 0;
            boolean first = true;
            for (int k = 1; k < in.length; k++) {
                BytesVector b = (BytesVector) in[k];
                if (b.isNull(i)) {
                    continue;
                }
                if (!first) {
                    System.arraycopy(sep.data(), sep.start(i), joined, pos, sep.length(i));
                    pos += sep.length(i);
                }
                first = false;
                System.arraycopy(b.data(), b.start(i), joined, pos, b.length(i));
                pos += b.length(i);
            }
            out.append(joined);
        }
        return out.build();
    }

    private static void appendConcat(BytesVector.Builder out, Vector[] in, int i) {
        int total = 0;
        for (Vector v : in) {
            total += ((BytesVector) v).length(i);
        }
        byte[] joined = new byte[total];
        int pos = 0;
        for (Vector v : in) {
            BytesVector b = (BytesVector) v;
            System.arraycopy(b.data(), b.start(i), joined, pos, b.length(i));
            pos += b.length(i);
        }
        out.append(joined);
    }

    /** SQL SUBSTRING(s FROM start FOR len): 1-based, positions before 1 count against the length. */
    public static String substring(String s, long start, long len) {
        int[] cps = s.codePoints().toArray();
        long from = Math.max(start, 1);
        long to = len > Long.MAX_VALUE - Math.max(start, 0) ? cps.length + 1L : Math.min(start + len, cps.length + 1L);
        if (len < 0 || to <= from || from > cps.length) {
            return "";
        }
        return new String(cps, (int) from - 1, (int) (to - from));
    }
}
