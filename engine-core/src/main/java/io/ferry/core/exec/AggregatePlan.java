package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Splits an aggregate into the partial aggregation each thread (later: each worker) runs and the final merge:
 * COUNT merges as a sum of counts, SUM/MIN/MAX as themselves, AVG travels as (SUM, COUNT) and divides at the
 * end. The partial output is the group keys followed by the partial states.
 */
public final class AggregatePlan {
    private final PlanNode.Aggregate agg;
    private final List<AggCall> partial = new ArrayList<>();
    private final List<AggCall> merge = new ArrayList<>();
    /** For each original call: index of its first state among the partial states. */
    private final int[] stateOf;

    public AggregatePlan(PlanNode.Aggregate agg) {
        this.agg = agg;
        List<FerryType> in = agg.input().types();
        int keys = agg.groupKeys().length;
        this.stateOf = new int[agg.calls().size()];
        for (int i = 0; i < agg.calls().size(); i++) {
            AggCall c = agg.calls().get(i);
            stateOf[i] = partial.size();
            switch (c.kind()) {
                case COUNT -> {
                    partial.add(c);
                    merge.add(new AggCall(AggKind.SUM0, keys + partial.size() - 1, FerryType.BIGINT));
                }
                case AVG -> {
                    FerryType argType = in.get(c.arg());
                    FerryType sumType = argType.physical() == Physical.DOUBLE ? FerryType.DOUBLE
                            : argType.kind() == TypeKind.DECIMAL ? FerryType.decimal(18, argType.scale())
                            : FerryType.BIGINT;
                    partial.add(new AggCall(AggKind.SUM, c.arg(), sumType));
                    merge.add(new AggCall(AggKind.SUM, keys + partial.size() - 1, sumType));
                    partial.add(new AggCall(AggKind.COUNT, c.arg(), FerryType.BIGINT));
                    merge.add(new AggCall(AggKind.SUM0, keys + partial.size() - 1, FerryType.BIGINT));
                }
                default -> {
                    partial.add(c);
                    merge.add(new AggCall(c.kind(), keys + partial.size() - 1, c.type()));
                }
            }
        }
    }

    public List<AggCall> partialCalls() {
        return partial;
    }

    public List<AggCall> finalCalls() {
        return merge;
    }

    public int[] finalKeys() {
        int[] k = new int[agg.groupKeys().length];
        for (int i = 0; i < k.length; i++) {
            k[i] = i;
        }
        return k;
    }

    /** Types of the partial output: group keys, then partial states. */
    public List<FerryType> partialTypes(List<FerryType> inputTypes) {
        List<FerryType> out = new ArrayList<>();
        for (int k : agg.groupKeys()) {
            out.add(inputTypes.get(k));
        }
        for (AggCall c : partial) {
            out.add(c.type());
        }
        return out;
    }

    /** Turns a batch of merged states into the aggregate's output columns (AVG = SUM / COUNT). */
    public Batch finish(Batch merged) {
        int keys = agg.groupKeys().length;
        int n = merged.rowCount();
        Vector[] out = new Vector[keys + agg.calls().size()];
        System.arraycopy(merged.columns(), 0, out, 0, keys);
        List<FerryType> in = agg.input().types();
        for (int i = 0; i < agg.calls().size(); i++) {
            AggCall c = agg.calls().get(i);
            Vector state = merged.column(keys + stateOf[i]);
            if (c.kind() != AggKind.AVG) {
                out[keys + i] = state;
                continue;
            }
            LongVector counts = (LongVector) merged.column(keys + stateOf[i] + 1);
            FerryType argType = in.get(c.arg());
            double scale = argType.kind() == TypeKind.DECIMAL ? io.ferry.core.expr.Decimals.pow10(argType.scale()) : 1;
            double[] avg = new double[n];
            boolean[] nulls = null;
            for (int r = 0; r < n; r++) {
                long cnt = counts.get(r);
                if (cnt == 0) {
                    if (nulls == null) {
                        nulls = new boolean[n];
                    }
                    nulls[r] = true;
                    continue;
                }
                double sum = state instanceof DoubleVector d ? d.get(r) : ((LongVector) state).get(r) / scale;
                avg[r] = sum / cnt;
            }
            out[keys + i] = new DoubleVector(avg, nulls, n);
        }
        return new Batch(n, out);
    }
}
