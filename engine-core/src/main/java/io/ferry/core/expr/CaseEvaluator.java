package io.ferry.core.expr;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * CASE WHEN c1 THEN v1 ... ELSE e END. Each branch is evaluated only on the rows that reach it, so
 * {@code CASE WHEN b <> 0 THEN a / b END} never divides by zero: a condition sees the rows no earlier condition
 * took, its value the rows it takes (the batch itself while a branch takes all or none of them, a lazy
 * {@link Batch#gather} otherwise). Each value lands straight in the one result: a row gets exactly one.
 *
 * <p>Where every part is cheap arithmetic, comparison or logic over numbers ({@link #blends}), the parts run on the
 * whole batch instead and a row takes the value of its first true condition, without branches: one tight loop per
 * part, no splitting of the rows. A part may then fail on a row that would not have reached it (an overflow); the
 * batch is then computed again branch by branch, which fails only where SQL says it must.
 */
final class CaseEvaluator implements Evaluator {
    private final List<Evaluator> parts;
    private final Physical physical;
    private final boolean blend;

    CaseEvaluator(List<Evaluator> parts, Physical physical, boolean blend) {
        this.parts = parts;
        this.physical = physical;
        this.blend = blend && physical != Physical.BYTES;
    }

    /** Whether the CASE over {@code args} may run its parts on every row ({@link CaseEvaluator}'s blend). */
    static boolean blends(List<Expr> args) {
        return args.stream().allMatch(CaseEvaluator::cheap);
    }

    private static boolean cheap(Expr e) {
        if (e.type().physical() == Physical.BYTES) {
            return false;
        }
        if (e instanceof InputRef || e instanceof Literal) {
            return true;
        }
        if (!(e instanceof Call c)) {
            return false;
        }
        return switch (c.op()) {
            case PLUS, MINUS, TIMES, NEGATE, EQ, NE, LT, LE, GT, GE, AND, OR, NOT, IS_NULL, IS_NOT_NULL ->
                    c.args().stream().allMatch(CaseEvaluator::cheap);
            default -> false;
        };
    }

    @Override
    public Vector eval(Batch batch) {
        if (blend) {
            try {
                return blended(batch);
            } catch (FerryException e) {
                // a part failed on some row; branch by branch, it fails only if a row that reaches it makes it fail
            }
        }
        return branchByBranch(batch);
    }

    /** Every part on every row; from the last branch to the first, a true condition's value replaces the row's. */
    private Vector blended(Batch batch) {
        int n = batch.rowCount();
        Vector otherwise = parts.get(parts.size() - 1).eval(batch);
        boolean[] nulls = otherwise.nulls() == null ? null : Arrays.copyOf(otherwise.nulls(), n);
        long[] longs = physical == Physical.LONG ? Arrays.copyOf(((LongVector) otherwise).values(), n) : null;
        double[] doubles = physical == Physical.DOUBLE
                ? Arrays.copyOf(((DoubleVector) otherwise).values(), n) : null;
        for (int k = (parts.size() - 1) / 2 - 1; k >= 0; k--) {
            LongVector cond = (LongVector) parts.get(2 * k).eval(batch);
            Vector value = parts.get(2 * k + 1).eval(batch);
            long[] c = cond.values();
            boolean[] cNulls = cond.nulls();
            boolean[] vNulls = value.nulls();
            if (vNulls != null && nulls == null) {
                nulls = new boolean[n];
            }
            long[] lv = longs != null ? ((LongVector) value).values() : null;
            double[] dv = longs != null ? null : ((DoubleVector) value).values();
            for (int i = 0; i < n; i++) {
                boolean take = c[i] != 0 && (cNulls == null || !cNulls[i]);
                if (lv != null) {
                    longs[i] = take ? lv[i] : longs[i];
                } else {
                    doubles[i] = take ? dv[i] : doubles[i];
                }
                if (nulls != null) {
                    nulls[i] = take ? vNulls != null && vNulls[i] : nulls[i];
                }
            }
        }
        return longs != null ? new LongVector(longs, nulls, n) : new DoubleVector(doubles, nulls, n);
    }

    private Vector branchByBranch(Batch batch) {
        Result result = new Result(physical, batch.rowCount());
        int n = batch.rowCount();
        // The rows still without a value, as positions in the batch (null while that is every row, in order) and
        // as the batch `current` of just those rows.
        int[] pending = null;
        int pendingCount = n;
        Batch current = batch;
        int[] hitRows = new int[n];
        int[] missRows = new int[n];
        int branches = (parts.size() - 1) / 2;
        for (int k = 0; k < branches && pendingCount > 0; k++) {
            LongVector cond = (LongVector) parts.get(2 * k).eval(current);
            long[] c = cond.values();
            boolean[] cNulls = cond.nulls();
            // a gathered batch keeps its positions: these two are new for each branch
            int[] hitLocal = new int[pendingCount];
            int[] missLocal = new int[pendingCount];
            int hits = 0;
            int misses = 0;
            // Without branches: each row is written to both lists, and only its own list's count moves on.
            for (int i = 0; i < pendingCount; i++) {
                int row = pending == null ? i : pending[i];
                int hit = c[i] != 0 && (cNulls == null || !cNulls[i]) ? 1 : 0;
                hitLocal[hits] = i;
                hitRows[hits] = row;
                missLocal[misses] = i;
                missRows[misses] = row;
                hits += hit;
                misses += 1 - hit;
            }
            if (hits > 0) {
                Batch taken = hits == pendingCount ? current : current.gather(hitLocal, hits);
                result.set(parts.get(2 * k + 1).eval(taken), hitRows, hits);
            }
            if (misses < pendingCount) {
                current = current.gather(missLocal, misses);
                int[] swap = pending == null ? new int[n] : pending;
                pending = missRows;
                missRows = swap;
                pendingCount = misses;
            }
        }
        if (pendingCount > 0) {
            Vector value = parts.get(parts.size() - 1).eval(current);
            if (pending == null) {
                return value; // every row reached the ELSE
            }
            result.set(value, pending, pendingCount);
        }
        return result.build();
    }

    /** The CASE's values as they land, row by row, each row once. */
    private static final class Result {
        private final Physical physical;
        private final int n;
        private final long[] longs;
        private final double[] doubles;
        /** For strings: which branch's value a row takes (in {@link #sources}) and its row there. */
        private final int[] source;
        private final int[] sourceRow;
        private final List<Vector> sources;
        /** Rows not given a value read as NULL, as do rows given a NULL. */
        private final boolean[] nulls;

        Result(Physical physical, int n) {
            this.physical = physical;
            this.n = n;
            this.longs = physical == Physical.LONG ? new long[n] : null;
            this.doubles = physical == Physical.DOUBLE ? new double[n] : null;
            this.source = physical == Physical.BYTES ? new int[n] : null;
            this.sourceRow = physical == Physical.BYTES ? new int[n] : null;
            this.sources = physical == Physical.BYTES ? new ArrayList<>() : null;
            this.nulls = new boolean[n];
            Arrays.fill(nulls, true);
        }

        /** Row {@code rows[i]} takes {@code value}'s row i. */
        void set(Vector value, int[] rows, int count) {
            boolean[] valueNulls = value.nulls();
            for (int i = 0; i < count; i++) {
                nulls[rows[i]] = valueNulls != null && valueNulls[i];
            }
            switch (physical) {
                case LONG -> {
                    long[] v = ((LongVector) value).values();
                    for (int i = 0; i < count; i++) {
                        longs[rows[i]] = v[i];
                    }
                }
                case DOUBLE -> {
                    double[] v = ((DoubleVector) value).values();
                    for (int i = 0; i < count; i++) {
                        doubles[rows[i]] = v[i];
                    }
                }
                default -> {
                    int s = sources.size() + 1; // 0 is no value
                    sources.add(value);
                    for (int i = 0; i < count; i++) {
                        source[rows[i]] = s;
                        sourceRow[rows[i]] = i;
                    }
                }
            }
        }

        Vector build() {
            boolean anyNull = false;
            for (boolean b : nulls) {
                anyNull |= b;
            }
            boolean[] mask = anyNull ? nulls : null;
            return switch (physical) {
                case LONG -> new LongVector(longs, mask, n);
                case DOUBLE -> new DoubleVector(doubles, mask, n);
                default -> {
                    BytesVector.Builder out = new BytesVector.Builder(n);
                    for (int i = 0; i < n; i++) {
                        if (nulls[i]) {
                            out.appendNull();
                        } else {
                            BytesVector from = (BytesVector) sources.get(source[i] - 1);
                            int r = sourceRow[i];
                            out.append(from.data(), from.start(r), from.length(r));
                        }
                    }
                    yield out.build();
                }
            };
        }
    }
}
