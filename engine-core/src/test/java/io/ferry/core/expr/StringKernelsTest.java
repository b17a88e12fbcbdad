package io.ferry.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.ferry.core.types.FerryType;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;

/**
 * The kernels that work on UTF-8 bytes give what the same function gives on Java Strings, code point by code point:
 * SUBSTRING at every start and length around the string (before it, past it, negative, endless) and UPPER and
 * LOWER, over ASCII, two-, three- and four-byte characters and NULL.
 */
class StringKernelsTest {
    private static final String[] PIECES = {"a", "Z", "m", " ", "ü", "ß", "İ", "東", "✓", "🚢", "", "ǅ"};

    private static List<String> strings(int n, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder b = new StringBuilder();
            int len = r.nextInt(8);
            boolean ascii = r.nextBoolean();
            for (int k = 0; k < len; k++) {
                b.append(PIECES[r.nextInt(ascii ? 4 : PIECES.length)]);
            }
            out.add(i % 17 == 5 ? null : b.toString());
        }
        return out;
    }

    @Test
    void substringOnBytesEqualsSubstringOnCodePoints() {
        List<String> values = strings(400, 1);
        long[] lens = {-1, 0, 1, 2, 5, 100, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        for (long start : new long[] {-3, -1, 0, 1, 2, 3, 7, 9, Long.MAX_VALUE}) {
            for (long len : lens) {
                Expr call = new Call(Op.SUBSTRING, List.of(new InputRef(0, FerryType.VARCHAR),
                        new Literal(start, FerryType.BIGINT), new Literal(len, FerryType.BIGINT)), FerryType.VARCHAR);
                BytesVector out = (BytesVector) ExprCompiler.compile(call).eval(
                        Batch.of(BytesVector.of(values.toArray(String[]::new))));
                for (int i = 0; i < values.size(); i++) {
                    String v = values.get(i);
                    String want = v == null ? null : StringKernels.substring(v, start, len);
                    assertEquals(want, out.isNull(i) ? null : out.getString(i),
                            "SUBSTRING('" + v + "', " + start + ", " + len + ")");
                }
            }
        }
        // without a length: to the end
        Expr open = new Call(Op.SUBSTRING, List.of(new InputRef(0, FerryType.VARCHAR), new Literal(2L,
                FerryType.BIGINT)), FerryType.VARCHAR);
        BytesVector out = (BytesVector) ExprCompiler.compile(open).eval(Batch.of(BytesVector.of("ü東🚢x", "a")));
        assertEquals("東🚢x", out.getString(0));
        assertEquals("", out.getString(1));
    }

    @Test
    void upperAndLowerEqualJavasCaseRules() {
        List<String> values = strings(400, 2);
        values.add("Straße İstanbul ǅ");
        for (Op op : new Op[] {Op.UPPER, Op.LOWER}) {
            Expr call = new Call(op, List.of(new InputRef(0, FerryType.VARCHAR)), FerryType.VARCHAR);
            BytesVector out = (BytesVector) ExprCompiler.compile(call).eval(
                    Batch.of(BytesVector.of(values.toArray(String[]::new))));
            int ascii = 0;
            for (int i = 0; i < values.size(); i++) {
                String v = values.get(i);
                String want = v == null ? null : op == Op.UPPER ? v.toUpperCase(Locale.ROOT)
                        : v.toLowerCase(Locale.ROOT);
                assertEquals(want, out.isNull(i) ? null : out.getString(i), op + "('" + v + "')");
                ascii += v != null && v.chars().allMatch(c -> c < 128) ? 1 : 0;
            }
            assertTrue(ascii > 100 && ascii < values.size() - 50, "both paths ran: " + ascii + " ASCII strings");
        }
    }
}
