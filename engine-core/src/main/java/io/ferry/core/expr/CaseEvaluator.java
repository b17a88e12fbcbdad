package io.ferry.core.expr;

import java.util.List;

import io.ferry.core.types.Physical;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * CASE WHEN c1 THEN v1 ... ELSE e END. Each branch is evaluated only on the rows that reach it, so
 * {@code CASE WHEN b <> 0 THEN a / b END} never divides by zero.
 */
final class CaseEvaluator implements Evaluator {
    private final List<Evaluator> parts;
    private final Physical physical;

    CaseEvaluator(List<Evaluator> parts, Physical physical) {
        this.parts = parts;
        this.physical = physical;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rowCount();
        Vector result = Vector.allNull(physical, n);
        int[] pending = new int[n];
        for (int i = 0; i < n; i++) {
            pending[i] = i;
        }
        int pendingCount = n;
        Batch current = batch;
        int branches = (parts.size() - 1) / 2;
        for (int k = 0; k < branches && pendingCount > 0; k++) {
            LongVector cond = (LongVector) parts.get(2 * k).eval(current);
            int[] hit = new int[pendingCount];
            int[] hitLocal = new int[pendingCount];
            int[] miss = new int[pendingCount];
            int[] missLocal = new int[pendingCount];
            int hits = 0;
            int misses = 0;
            for (int i = 0; i < pendingCount; i++) {
                if (!cond.isNull(i) && cond.get(i) != 0) {
                    hitLocal[hits] = i;
                    hit[hits++] = pending[i];
                } else {
                    missLocal[misses] = i;
                    miss[misses++] = pending[i];
                }
            }
            if (hits > 0) {
                Vector value = parts.get(2 * k + 1).eval(current.gather(hitLocal, hits));
                result = Scatter.overlay(result, value, hit, hits, physical);
            }
            current = misses == pendingCount ? current : current.gather(missLocal, misses);
            pending = miss;
            pendingCount = misses;
        }
        if (pendingCount > 0) {
            Vector value = parts.get(parts.size() - 1).eval(current);
            result = Scatter.overlay(result, value, pending, pendingCount, physical);
        }
        return result;
    }
}
