package io.ferry.core.expr;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;

/**
 * A compiled LIKE pattern. Patterns made only of literal text and '%' (the common case: prefix, suffix,
 * contains) match on UTF-8 bytes without decoding; patterns with '_' fall back to a regular expression.
 */
final class LikeMatcher {
    private final byte[][] segments;
    private final Pattern regex;

    LikeMatcher(String pattern, Character escape) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        StringBuilder re = new StringBuilder();
        boolean hasUnderscore = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape && i + 1 < pattern.length()) {
                char next = pattern.charAt(++i);
                cur.append(next);
                re.append(Pattern.quote(String.valueOf(next)));
            } else if (c == '%') {
                parts.add(cur.toString());
                cur.setLength(0);
                re.append(".*");
            } else if (c == '_') {
                hasUnderscore = true;
                cur.append(c);
                re.append('.');
            } else {
                cur.append(c);
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        parts.add(cur.toString());
        this.regex = hasUnderscore ? Pattern.compile(re.toString(), Pattern.DOTALL) : null;
        this.segments = new byte[parts.size()][];
        for (int i = 0; i < parts.size(); i++) {
            segments[i] = parts.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    LongVector match(BytesVector v, int n) {
        long[] r = new long[n];
        byte[] data = v.data();
        int[] off = v.offsets();
        for (int i = 0; i < n; i++) {
            if (regex != null) {
                r[i] = v.isNull(i) ? 0 : regex.matcher(v.getString(i)).matches() ? 1 : 0;
            } else {
                r[i] = matches(data, off[i], off[i + 1]) ? 1 : 0;
            }
        }
        return new LongVector(r, v.nulls(), n);
    }

    /** segments[0] must be a prefix, the last a suffix, the middle ones appear in order between them. */
    private boolean matches(byte[] data, int from, int to) {
        int k = segments.length;
        byte[] first = segments[0];
        if (k == 1) {
            return to - from == first.length && Arrays.equals(data, from, to, first, 0, first.length);
        }
        if (to - from < first.length || !Arrays.equals(data, from, from + first.length, first, 0, first.length)) {
            return false;
        }
        byte[] last = segments[k - 1];
        int end = to - last.length;
        if (end < from + first.length || !Arrays.equals(data, end, to, last, 0, last.length)) {
            return false;
        }
        int pos = from + first.length;
        for (int s = 1; s < k - 1; s++) {
            pos = indexOf(data, pos, end, segments[s]);
            if (pos < 0) {
                return false;
            }
            pos += segments[s].length;
        }
        return true;
    }

    private static int indexOf(byte[] data, int from, int to, byte[] needle) {
        if (needle.length == 0) {
            return from;
        }
        outer:
        for (int i = from; i <= to - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
