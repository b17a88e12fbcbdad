package io.ferry.core.expr;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/** UPPER, LOWER, SUBSTRING, CONCAT (||) and CHAR_LENGTH; lengths and positions count characters, not bytes. */
public final class StringKernels {
    private StringKernels() {
    }

    static Evaluator compile(Op op, List<Evaluator> args) {
        return batch -> {
            int n = batch.rowCount();
            Vector[] in = new Vector[args.size()];
            for (int i = 0; i < in.length; i++) {
                in[i] = args.get(i).eval(batch);
            }
            BytesVector s = (BytesVector) in[0];
            if (op == Op.CHAR_LENGTH) {
                long[] r = new long[n];
                for (int i = 0; i < n; i++) {
                    int chars = 0;
                    for (int p = s.start(i), end = p + s.length(i); p < end; p++) {
                        chars += (s.data()[p] & 0xC0) != 0x80 ? 1 : 0;
                    }
                    r[i] = chars;
                }
                return new LongVector(r, s.nulls(), n);
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
                    case UPPER -> out.append(s.getString(i).toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
                    case LOWER -> out.append(s.getString(i).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
                    case SUBSTRING -> {
                        String str = s.getString(i);
                        long start = ((LongVector) in[1]).get(i);
                        long len = in.length > 2 ? ((LongVector) in[2]).get(i) : Long.MAX_VALUE;
                        out.append(substring(str, start, len).getBytes(StandardCharsets.UTF_8));
                    }
                    default -> throw new IllegalArgumentException(op.name());
                }
            }
            return out.build();
        };
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
        long to = len == Long.MAX_VALUE ? cps.length + 1L : Math.min(start + len, cps.length + 1L);
        if (len < 0 || to <= from || from > cps.length) {
            return "";
        }
        return new String(cps, (int) from - 1, (int) (to - from));
    }
}
