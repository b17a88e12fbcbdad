package io.ferry.core.exec;

import java.util.Arrays;

import io.ferry.core.expr.Evaluator;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Streams probe batches through a built {@link JoinHashTable}. The residual (non-equi) condition is applied to
 * candidate pairs before deciding which probe rows matched, so LEFT, SEMI and ANTI joins honour it.
 */
final class HashJoinProbe implements Transform {
    private final JoinHashTable table;
    private final int[] probeKeys;
    private final JoinKind kind;
    private final Evaluator residual;
    /**
     * SEMI and ANTI only ask whether a probe row has a match: without a residual its first build row with the key;
     * with one, the first that passes it ({@link #firstPassing}).
     */
    private final boolean existenceOnly;
    private final int maxInputRows;

    HashJoinProbe(JoinHashTable table, int[] probeKeys, JoinKind kind, Evaluator residual) {
        this.table = table;
        this.probeKeys = probeKeys;
        this.kind = kind;
        this.residual = residual;
        this.existenceOnly = kind == JoinKind.SEMI || kind == JoinKind.ANTI;
        this.maxInputRows = existenceOnly ? Integer.MAX_VALUE : (int) Math.max(1, TARGET_PAIRS / table.rowsPerKey());
    }

    /** About this many joined rows per {@link #apply}: a few MiB of positions and gathered columns. */
    static final int TARGET_PAIRS = 1 << 16;

    /**
     * Probe rows per call: a probe row meets, on average, the build rows per distinct key. A foreign-key join (one
     * each) takes whole batches; a self-join on a key with thousands of rows each takes a few rows at a time.
     */
    @Override
    public int maxInputRows() {
        return maxInputRows;
    }

    @Override
    public Batch apply(Batch probe) {
        int n = probe.rowCount();
        Vector[] keys = new Vector[probeKeys.length];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = probe.column(probeKeys[k]);
        }
        if (existenceOnly && residual != null) {
            return kept(probe, firstPassing(probe, keys, n));
        }
        JoinHashTable.Matches m = table.probe(keys, n, existenceOnly);
        int[] probeRows = m.probe;
        int[] buildRows = m.build;
        int pairs = m.count;
        if (residual != null && pairs > 0) {
            // Copies: the joined batch keeps its position arrays, and the loop below rewrites these in place.
            Batch joined = joined(probe, Arrays.copyOf(probeRows, pairs), Arrays.copyOf(buildRows, pairs), pairs);
            LongVector pass = (LongVector) residual.eval(joined);
            int kept = 0;
            for (int i = 0; i < pairs; i++) {
                if (!pass.isNull(i) && pass.get(i) != 0) {
                    probeRows[kept] = probeRows[i];
                    buildRows[kept++] = buildRows[i];
                }
            }
            if (kind == JoinKind.INNER) {
                return kept == pairs ? joined : joined.compact(mask(pass, pairs), kept);
            }
            pairs = kept;
        }
        switch (kind) {
            case INNER -> {
                return joined(probe, probeRows, buildRows, pairs);
            }
            case SEMI, ANTI -> {
                boolean[] matched = new boolean[n];
                for (int i = 0; i < pairs; i++) {
                    matched[probeRows[i]] = true;
                }
                return kept(probe, matched);
            }
            default -> {
                boolean[] matched = new boolean[n];
                for (int i = 0; i < pairs; i++) {
                    matched[probeRows[i]] = true;
                }
                int unmatched = 0;
                for (int i = 0; i < n; i++) {
                    unmatched += matched[i] ? 0 : 1;
                }
                int total = pairs + unmatched;
                int[] p = Arrays.copyOf(probeRows, total);
                int[] b = Arrays.copyOf(buildRows, total);
                for (int i = 0, k = pairs; i < n; i++) {
                    if (!matched[i]) {
                        p[k] = i;
                        b[k++] = -1;
                    }
                }
                return joined(probe, p, b, total);
            }
        }
    }

    /** The probe rows a SEMI join keeps (those {@code matched}), or an ANTI join (the others). */
    private Batch kept(Batch probe, boolean[] matched) {
        boolean want = kind == JoinKind.SEMI;
        int count = 0;
        boolean[] keep = new boolean[matched.length];
        for (int i = 0; i < matched.length; i++) {
            if (matched[i] == want) {
                keep[i] = true;
                count++;
            }
        }
        return probe.compact(keep, count);
    }

    /**
     * Which probe rows have a match that passes the residual, their matches taken in rounds: each row still without
     * one offers its next candidates, one in the first round, twice as many each round after (a long chain of
     * failing candidates costs a few rounds, not one each), and the residual is evaluated over all of them at once.
     * A self-join on an order number whose residual asks for another warehouse (TPC-DS q95: a dozen lines an order)
     * passes at the first or second candidate, where listing every pair took all twelve.
     */
    private boolean[] firstPassing(Batch probe, Vector[] keys, int n) {
        JoinHashTable.Walk walk = table.new Walk(keys, n);
        boolean[] matched = new boolean[n];
        // the rows still looking, each with its next candidate
        int[] rows = new int[n];
        int[] next = new int[n];
        int active = 0;
        for (int i = 0; i < n; i++) {
            int r = walk.firstMatch(i);
            if (r >= 0) {
                rows[active] = i;
                next[active++] = r;
            }
        }
        int perRow = 1;
        while (active > 0) {
            int[] pairProbe = new int[Math.max(16, active * perRow)];
            int[] pairBuild = new int[pairProbe.length];
            int pairs = 0;
            for (int j = 0; j < active; j++) {
                int r = next[j];
                for (int c = 0; c < perRow && r >= 0; c++) {
                    pairProbe[pairs] = rows[j];
                    pairBuild[pairs++] = r;
                    r = walk.nextMatch(rows[j], r);
                }
                next[j] = r;
            }
            LongVector pass = (LongVector) residual.eval(joined(probe, pairProbe, pairBuild, pairs));
            for (int p = 0; p < pairs; p++) {
                if (!pass.isNull(p) && pass.get(p) != 0) {
                    matched[pairProbe[p]] = true;
                }
            }
            int still = 0;
            for (int j = 0; j < active; j++) {
                if (!matched[rows[j]] && next[j] >= 0) {
                    rows[still] = rows[j];
                    next[still++] = next[j];
                }
            }
            active = still;
            perRow = (int) Math.min(perRow * 2L, Math.max(1, TARGET_PAIRS / Math.max(1, active)));
        }
        return matched;
    }

    private static boolean[] mask(LongVector pass, int n) {
        boolean[] keep = new boolean[n];
        for (int i = 0; i < n; i++) {
            keep[i] = !pass.isNull(i) && pass.get(i) != 0;
        }
        return keep;
    }

    private Batch joined(Batch probe, int[] probeRows, int[] buildRows, int count) {
        Batch left = probe.gather(probeRows, count);
        Batch right = table.build().gather(buildRows, count);
        int l = left.columnCount();
        Batch.Builder out = Batch.builder(count, l + right.columnCount());
        for (int c = 0; c < l; c++) {
            out.carry(c, left, c);
        }
        for (int c = 0; c < right.columnCount(); c++) {
            out.carry(l + c, right, c);
        }
        return out.build();
    }
}
