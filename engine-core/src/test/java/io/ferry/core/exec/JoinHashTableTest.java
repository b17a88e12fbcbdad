package io.ferry.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * The join hash table finds exactly the pairs a nested loop finds, in both of its single-key layouts: direct
 * mapping (dense keys) and hashing (sparse keys), with duplicates, NULLs, negative keys and probes out of range.
 */
class JoinHashTableTest {

    /** Key spreads: 1 and 40 are dense enough for direct mapping, 1e12 is not. */
    @ParameterizedTest
    @ValueSource(longs = {1, 40, 1_000_000_000_000L})
    void findsTheSamePairsAsANestedLoop(long spread) {
        Random rnd = new Random(spread);
        for (boolean duplicates : new boolean[] {false, true}) {
            for (boolean nullsMatch : new boolean[] {false, true}) {
                findsTheSamePairs(rnd, spread, duplicates, nullsMatch);
            }
        }
    }

    private static void findsTheSamePairs(Random rnd, long spread, boolean duplicates, boolean nullsMatch) {
        LongVector build = keys(rnd, 3000, spread, duplicates);
        LongVector probe = keys(rnd, 4096, spread, true);
        QueryMemory memory = new QueryMemory(1L << 30);
        JoinHashTable table = new JoinHashTable(Batch.of(build), new int[] {0}, new boolean[] {nullsMatch},
                memory);
        JoinHashTable.Matches m = table.probe(new Vector[] {probe}, probe.size(), false);
        List<Long> got = new ArrayList<>();
        for (int i = 0; i < m.count; i++) {
            got.add(((long) m.probe[i] << 32) | m.build[i]);
        }
        List<Long> want = new ArrayList<>();
        List<Integer> firstMatches = new ArrayList<>();
        for (int i = 0; i < probe.size(); i++) {
            boolean any = false;
            for (int r = 0; r < build.size(); r++) {
                boolean bothNull = probe.isNull(i) && build.isNull(r);
                if (nullsMatch && bothNull
                        || !probe.isNull(i) && !build.isNull(r) && probe.get(i) == build.get(r)) {
                    want.add(((long) i << 32) | r);
                    any = true;
                }
            }
            if (any) {
                firstMatches.add(i);
            }
        }
        got.sort(null);
        assertEquals(want, got, "spread " + spread + ", duplicates " + duplicates + ", NULLs match " + nullsMatch);
        JoinHashTable.Matches first = table.probe(new Vector[] {probe}, probe.size(), true);
        List<Integer> probed = new ArrayList<>();
        for (int i = 0; i < first.count; i++) {
            probed.add(first.probe[i]);
        }
        assertEquals(firstMatches, probed, "existence probe, spread " + spread);
        table.close();
        assertEquals(0, memory.used());
    }

    /**
     * A join whose keys repeat thousands of times (a self-join on a low-cardinality column) asks for probe slices
     * small enough that one call joins about {@link HashJoinProbe#TARGET_PAIRS} rows, not a whole batch times the
     * fan-out; a foreign-key join still takes whole batches.
     */
    @org.junit.jupiter.api.Test
    void aJoinThatMultipliesRowsTakesSmallSlices() {
        int rows = 200_000;
        long[] k = new long[rows];
        for (int i = 0; i < rows; i++) {
            k[i] = i % 50;
        }
        QueryMemory memory = new QueryMemory(1L << 30);
        JoinHashTable fanOut = new JoinHashTable(Batch.of(new LongVector(k, null)), new int[] {0}, new boolean[1],
                memory);
        HashJoinProbe probe = new HashJoinProbe(fanOut, new int[] {0}, JoinKind.INNER, null);
        int slice = probe.maxInputRows();
        assertEquals(HashJoinProbe.TARGET_PAIRS / (rows / 50), slice);
        long[] probeKeys = java.util.Arrays.copyOf(k, slice);
        Batch out = probe.apply(Batch.of(new LongVector(probeKeys, null)));
        assertEquals((long) slice * (rows / 50), out.rowCount());
        assertEquals(true, out.rowCount() <= HashJoinProbe.TARGET_PAIRS);
        fanOut.close();

        long[] ids = new long[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = i;
        }
        JoinHashTable unique = new JoinHashTable(Batch.of(new LongVector(ids, null)), new int[] {0},
                new boolean[1], memory);
        assertEquals(HashJoinProbe.TARGET_PAIRS, new HashJoinProbe(unique, new int[] {0}, JoinKind.INNER, null)
                .maxInputRows());
        assertEquals(Integer.MAX_VALUE, new HashJoinProbe(fanOut, new int[] {0}, JoinKind.SEMI, null).maxInputRows());
        unique.close();
        assertEquals(0, memory.used());
    }

    /** Distinct dense keys and one NULL: the direct layout without chains pairs a NULL probe key with that row. */
    @org.junit.jupiter.api.Test
    void aUniqueDirectKeyMatchesItsOneNull() {
        long[] ids = new long[100];
        boolean[] buildNulls = new boolean[100];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i;
        }
        buildNulls[50] = true;
        LongVector probe = new LongVector(new long[] {3, 50, 0, 200, 99}, new boolean[] {false, false, true, false,
                true}, 5);
        QueryMemory memory = new QueryMemory(1L << 30);
        for (boolean firstOnly : new boolean[] {false, true}) {
            JoinHashTable table = new JoinHashTable(Batch.of(new LongVector(ids, buildNulls, 100)), new int[] {0},
                    new boolean[] {true}, memory);
            JoinHashTable.Matches m = table.probe(new Vector[] {probe}, 5, firstOnly);
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < m.count; i++) {
                pairs.add(m.probe[i] + "-" + m.build[i]);
            }
            assertEquals(List.of("0-3", "2-50", "4-50"), pairs);
            table.close();
        }
        assertEquals(0, memory.used());
    }

    /**
     * Two keys, a string compared with IS NOT DISTINCT FROM and an integer with {@code =} or IS NOT DISTINCT FROM:
     * the hashed layout finds a nested loop's pairs, a NULL matching a NULL only in a key whose NULLs match.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void severalKeysMatchNullsWhereAsked(boolean secondMatchesNulls) {
        Random rnd = new Random(7);
        String[] words = {"a", "b", "", "ab"};
        int buildRows = 600;
        int probeRows = 700;
        BytesVector buildText = text(rnd, buildRows, words);
        LongVector buildInts = keys(rnd, buildRows, 1, true);
        BytesVector probeText = text(rnd, probeRows, words);
        LongVector probeInts = keys(rnd, probeRows, 1, true);
        boolean[] nullsMatch = {true, secondMatchesNulls};
        QueryMemory memory = new QueryMemory(1L << 30);
        JoinHashTable table = new JoinHashTable(Batch.of(buildText, buildInts), new int[] {0, 1}, nullsMatch, memory);
        JoinHashTable.Matches m = table.probe(new Vector[] {probeText, probeInts}, probeRows, false);
        List<Long> got = new ArrayList<>();
        for (int i = 0; i < m.count; i++) {
            got.add(((long) m.probe[i] << 32) | m.build[i]);
        }
        got.sort(null);
        List<Long> want = new ArrayList<>();
        for (int i = 0; i < probeRows; i++) {
            for (int r = 0; r < buildRows; r++) {
                if (same(probeText, i, buildText, r, true) && same(probeInts, i, buildInts, r, secondMatchesNulls)) {
                    want.add(((long) i << 32) | r);
                }
            }
        }
        assertEquals(want, got);
        assertEquals(true, want.stream().anyMatch(p -> probeText.isNull((int) (p >>> 32))), "a NULL key matched");
        table.close();
        assertEquals(0, memory.used());
    }

    /**
     * Several integral keys compared with {@code =} are packed into one long ({@link KeyPacking}) and find the pairs a
     * nested loop finds: dense ranges (direct mapping), a range of 2^40 beside a small one (hashing), probe values
     * outside the build side's ranges on either side, NULLs, duplicates; keys whose ranges need more than 62 bits
     * and a key whose NULLs match are not packed, and still find them.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 1L << 40, Long.MAX_VALUE / 1000})
    void packedKeysFindTheSamePairsAsANestedLoop(long spread) {
        Random rnd = new Random(spread);
        for (boolean secondMatchesNulls : new boolean[] {false, true}) {
            int buildRows = 2000;
            int probeRows = 3000;
            // the probe's first key reaches past both ends of the build's
            LongVector buildA = keys(rnd, buildRows, spread, true);
            LongVector buildB = small(rnd, buildRows);
            LongVector probeA = keys(rnd, probeRows, spread, true);
            LongVector probeB = small(rnd, probeRows);
            boolean[] nullsMatch = {false, secondMatchesNulls};
            KeyPacking packing = KeyPacking.of(new Vector[] {buildA, buildB}, nullsMatch, buildRows);
            assertEquals(!secondMatchesNulls && spread != Long.MAX_VALUE / 1000, packing != null,
                    "packed, spread " + spread);
            QueryMemory memory = new QueryMemory(1L << 30);
            JoinHashTable table = new JoinHashTable(Batch.of(buildA, buildB), new int[] {0, 1}, nullsMatch, memory);
            for (boolean first : new boolean[] {false, true}) {
                JoinHashTable.Matches m = table.probe(new Vector[] {probeA, probeB}, probeRows, first);
                List<Long> got = new ArrayList<>();
                for (int i = 0; i < m.count; i++) {
                    got.add(first ? m.probe[i] : ((long) m.probe[i] << 32) | m.build[i]);
                }
                got.sort(null);
                List<Long> want = new ArrayList<>();
                for (int i = 0; i < probeRows; i++) {
                    for (int r = 0; r < buildRows; r++) {
                        if (same(probeA, i, buildA, r, false)
                                && same(probeB, i, buildB, r, secondMatchesNulls)) {
                            want.add(first ? i : ((long) i << 32) | r);
                            if (first) {
                                break;
                            }
                        }
                    }
                }
                assertEquals(want, got, "spread " + spread + ", first match only " + first);
                assertEquals(true, want.size() > 100, "enough pairs to tell");
            }
            table.close();
            assertEquals(0, memory.used());
        }
    }

    /**
     * SEMI and ANTI joins with a residual keep the probe rows a nested loop keeps, their candidates taken in rounds
     * ({@code HashJoinProbe.firstPassing}): keys dense (direct), sparse (hashed), two integral ones (packed) and a
     * string, NULLs matching or not, chains hundreds of rows long whose residual (another value: {@code pv <> bv},
     * NULL where either is NULL) passes late or never.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dense", "sparse", "packed", "string"})
    void semiAndAntiWithAResidualKeepTheRowsANestedLoopKeeps(String layout) {
        Random rnd = new Random(layout.hashCode());
        for (boolean nullsMatch : new boolean[] {false, true}) {
            int buildRows = 3000;
            int probeRows = 2500;
            Vector[] buildKeys = layoutKeys(rnd, layout, buildRows);
            Vector[] probeKeys = layoutKeys(rnd, layout, probeRows);
            // values 0..3 mostly 0: a residual asking for another value fails along most of a chain
            LongVector buildValues = values(rnd, buildRows);
            LongVector probeValues = values(rnd, probeRows);
            boolean[] matchNulls = new boolean[buildKeys.length];
            matchNulls[matchNulls.length - 1] = nullsMatch;
            int[] keyColumns = new int[buildKeys.length];
            for (int k = 0; k < keyColumns.length; k++) {
                keyColumns[k] = k;
            }
            Vector[] buildColumns = java.util.Arrays.copyOf(buildKeys, buildKeys.length + 1);
            buildColumns[buildKeys.length] = buildValues;
            // the probe rows' numbers last, to tell which were kept
            long[] ids = new long[probeRows];
            for (int i = 0; i < probeRows; i++) {
                ids[i] = i;
            }
            Vector[] probeColumns = java.util.Arrays.copyOf(probeKeys, probeKeys.length + 2);
            probeColumns[probeKeys.length] = probeValues;
            probeColumns[probeKeys.length + 1] = new LongVector(ids, null);
            int pv = probeKeys.length;
            int bv = probeColumns.length + buildKeys.length;
            io.ferry.core.expr.Evaluator differs = joined -> {
                int n = joined.rowCount();
                long[] out = new long[n];
                boolean[] nulls = new boolean[n];
                for (int i = 0; i < n; i++) {
                    Vector a = joined.column(pv);
                    Vector b = joined.column(bv);
                    nulls[i] = a.isNull(i) || b.isNull(i);
                    out[i] = !nulls[i] && ((LongVector) a).get(i) != ((LongVector) b).get(i) ? 1 : 0;
                }
                return new LongVector(out, nulls, n);
            };
            QueryMemory memory = new QueryMemory(1L << 30);
            JoinHashTable table = new JoinHashTable(Batch.of(buildColumns), keyColumns, matchNulls, memory);
            for (JoinKind kind : new JoinKind[] {JoinKind.SEMI, JoinKind.ANTI}) {
                Batch out = new HashJoinProbe(table, keyColumns, kind, differs).apply(Batch.of(probeColumns));
                List<Long> got = new ArrayList<>();
                for (int i = 0; i < out.rowCount(); i++) {
                    got.add(((LongVector) out.column(pv + 1)).get(i));
                }
                List<Long> want = new ArrayList<>();
                int passing = 0;
                for (int i = 0; i < probeRows; i++) {
                    boolean found = false;
                    for (int r = 0; r < buildRows && !found; r++) {
                        boolean keysMatch = true;
                        for (int k = 0; k < buildKeys.length; k++) {
                            keysMatch &= same(probeKeys[k], i, buildKeys[k], r, matchNulls[k]);
                        }
                        found = keysMatch && !probeValues.isNull(i) && !buildValues.isNull(r)
                                && probeValues.get(i) != buildValues.get(r);
                    }
                    passing += found ? 1 : 0;
                    if (found == (kind == JoinKind.SEMI)) {
                        want.add((long) i);
                    }
                }
                assertEquals(want, got, layout + ", " + kind + ", NULLs match " + nullsMatch);
                assertEquals(true, passing > 50 && passing < probeRows - 50, "both outcomes: " + passing);
            }
            table.close();
            assertEquals(0, memory.used());
        }
    }

    private static Vector[] layoutKeys(Random rnd, String layout, int n) {
        return switch (layout) {
            case "dense" -> new Vector[] {keys(rnd, n, 1, true)};
            case "sparse" -> new Vector[] {keys(rnd, n, 1_000_000_000_000L, true)};
            case "packed" -> new Vector[] {small(rnd, n), small(rnd, n)};
            default -> new Vector[] {text(rnd, n, new String[] {"a", "bb", "ccc", "dddd", "", "e"})};
        };
    }

    /** Mostly 0, else 1 to 3, about 5% NULL. */
    private static LongVector values(Random rnd, int n) {
        long[] v = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(50) == 0 ? 1 + rnd.nextInt(3) : 0;
            nulls[i] = rnd.nextInt(20) == 0;
        }
        return new LongVector(v, nulls, n);
    }

    private static boolean same(Vector a, int i, Vector b, int j, boolean nullsMatch) {
        if (a.isNull(i) || b.isNull(j)) {
            return nullsMatch && a.isNull(i) && b.isNull(j);
        }
        return ValueEquality.equal(a, i, b, j);
    }

    /** Keys 3 to 7, about 10% NULL. */
    private static LongVector small(Random rnd, int n) {
        long[] v = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            v[i] = 3 + rnd.nextInt(5);
            nulls[i] = rnd.nextInt(10) == 0;
        }
        return new LongVector(v, nulls, n);
    }

    /** Short strings from {@code words}, about 20% NULL. */
    private static BytesVector text(Random rnd, int n, String[] words) {
        String[] v = new String[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(5) == 0 ? null : words[rnd.nextInt(words.length)];
        }
        return BytesVector.of(v);
    }

    /** Keys around zero (negative ones too), about 10% NULL; unique unless {@code duplicates}. */
    private static LongVector keys(Random rnd, int n, long spread, boolean duplicates) {
        long[] v = new long[n];
        boolean[] nulls = new boolean[n];
        for (int i = 0; i < n; i++) {
            long base = duplicates ? rnd.nextInt(n) - n / 3 : i - n / 3;
            v[i] = base * spread;
            nulls[i] = rnd.nextInt(10) == 0;
        }
        return new LongVector(v, nulls, n);
    }
}
