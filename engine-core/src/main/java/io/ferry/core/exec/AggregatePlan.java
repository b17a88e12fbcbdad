package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.core.stats.SampleMoments;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;

/**
 * Splits an aggregate into the partial aggregation each thread (later: each worker) runs and the final merge:
 * COUNT merges as a sum of counts, SUM/MIN/MAX as themselves, AVG travels as (SUM, COUNT) and divides at the
 * end, and the APPROX_ calls on one argument as the five sums of its sample moments (docs/sampling.md), which merge
 * by addition wherever the partial ran. Quantiles travel as one state per argument that all of them on it share: the
 * argument's values for the exact ones, a KLL sketch for APPROX_PERCENTILE. The partial output is the group keys
 * followed by the partial states.
 */
public final class AggregatePlan {
    /** State columns of one APPROX_ argument: Σt, Σm, Σt², Σm², Σtm. */
    private static final int MOMENTS = 5;

    private final PlanNode.Aggregate agg;
    private final List<AggCall> partial = new ArrayList<>();
    private final List<AggCall> merge = new ArrayList<>();
    /** For each original call: index of its first state column among the partial states. */
    private final int[] stateOf;
    /** How the aggregate's input was sampled, when it has APPROX_ calls; else null. */
    private final SampleDesign design;

    public AggregatePlan(PlanNode.Aggregate agg) {
        this.agg = agg;
        int keys = agg.groupKeys().length;
        this.stateOf = new int[agg.calls().size()];
        this.design = agg.calls().stream().anyMatch(c -> c.kind().approximate()) ? SampleDesign.of(agg.input())
                : null;
        // APPROX_ calls on one argument share its moments: the estimate and both bounds cost one state
        Map<Integer, Integer> momentsOf = new HashMap<>();
        Map<Integer, Integer> valuesOf = new HashMap<>();
        Map<Integer, Integer> sketchOf = new HashMap<>();
        int states = 0;
        for (int i = 0; i < agg.calls().size(); i++) {
            AggCall c = agg.calls().get(i);
            if (c.kind().approximate()) {
                Integer shared = momentsOf.get(c.arg());
                if (shared != null) {
                    stateOf[i] = shared;
                    continue;
                }
                momentsOf.put(c.arg(), states);
                stateOf[i] = states;
                partial.add(new AggCall(design.clustered() ? AggKind.BLOCK_MOMENTS : AggKind.ROW_MOMENTS, c.arg(),
                        FerryType.DOUBLE));
                for (int k = 0; k < MOMENTS; k++) {
                    merge.add(new AggCall(AggKind.SUM, keys + states++, FerryType.DOUBLE));
                }
                continue;
            }
            if (c.kind().quantile()) {
                boolean exact = c.kind() != AggKind.APPROX_PERCENTILE;
                Map<Integer, Integer> shared = exact ? valuesOf : sketchOf;
                Integer at = shared.get(c.arg());
                if (at != null) {
                    stateOf[i] = at;
                    continue;
                }
                AggKind state = exact ? AggKind.VALUES : AggKind.KLL;
                shared.put(c.arg(), states);
                stateOf[i] = states;
                partial.add(new AggCall(state, c.arg(), FerryType.VARCHAR));
                merge.add(new AggCall(state, keys + states++, FerryType.VARCHAR));
                continue;
            }
            stateOf[i] = states;
            switch (c.kind()) {
                case COUNT -> {
                    partial.add(c);
                    merge.add(new AggCall(AggKind.SUM0, keys + states++, FerryType.BIGINT));
                }
                case AVG -> {
                    FerryType argType = agg.input().types().get(c.arg());
                    FerryType sumType = argType.physical() == Physical.DOUBLE ? FerryType.DOUBLE
                            : argType.kind() == TypeKind.DECIMAL ? FerryType.decimal(18, argType.scale())
                            : FerryType.BIGINT;
                    partial.add(new AggCall(AggKind.SUM, c.arg(), sumType));
                    merge.add(new AggCall(AggKind.SUM, keys + states++, sumType));
                    partial.add(new AggCall(AggKind.COUNT, c.arg(), FerryType.BIGINT));
                    merge.add(new AggCall(AggKind.SUM0, keys + states++, FerryType.BIGINT));
                }
                default -> {
                    partial.add(c);
                    merge.add(new AggCall(c.kind(), keys + states++, c.type()));
                }
            }
        }
    }

    /**
     * Columns of {@code agg}'s partial output — group keys, then each call's states — counted without looking at
     * its input, so that a decoder checks a nested plan's references in linear time.
     */
    public static int partialWidth(PlanNode.Aggregate agg) {
        int width = agg.groupKeys().length;
        java.util.Set<Integer> momentsArgs = new java.util.HashSet<>();
        java.util.Set<Integer> valuesArgs = new java.util.HashSet<>();
        java.util.Set<Integer> sketchArgs = new java.util.HashSet<>();
        for (AggCall c : agg.calls()) {
            if (c.kind().approximate()) {
                width += momentsArgs.add(c.arg()) ? MOMENTS : 0;
            } else if (c.kind().quantile()) {
                width += (c.kind() == AggKind.APPROX_PERCENTILE ? sketchArgs : valuesArgs).add(c.arg()) ? 1 : 0;
            } else {
                width += c.kind() == AggKind.AVG ? 2 : 1;
            }
        }
        return width;
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
            boolean moments = c.kind() == AggKind.ROW_MOMENTS || c.kind() == AggKind.BLOCK_MOMENTS;
            for (int k = 0; k < (moments ? MOMENTS : 1); k++) {
                out.add(c.type());
            }
        }
        return out;
    }

    /**
     * Turns a batch of merged states into the aggregate's output columns: AVG = SUM / COUNT, APPROX_ estimates and
     * bounds from their moments, quantiles from the values or sketch of their argument.
     */
    public Batch finish(Batch merged) {
        int keys = agg.groupKeys().length;
        int n = merged.rowCount();
        Vector[] out = new Vector[keys + agg.calls().size()];
        System.arraycopy(merged.columns(), 0, out, 0, keys);
        List<FerryType> in = agg.input().types();
        // each state of values is sorted once, whatever number of quantiles read it
        Map<Integer, SortedValues> exact = new HashMap<>();
        for (int i = 0; i < agg.calls().size(); i++) {
            AggCall c = agg.calls().get(i);
            if (c.kind().approximate()) {
                out[keys + i] = estimate(c.kind(), merged, keys + stateOf[i]);
                continue;
            }
            if (c.kind().quantile()) {
                BytesVector states = (BytesVector) merged.column(keys + stateOf[i]);
                out[keys + i] = c.kind() == AggKind.APPROX_PERCENTILE ? approximateQuantile(c, states)
                        : exact.computeIfAbsent(stateOf[i], s -> new SortedValues(states, in.get(c.arg())))
                                .quantile(c);
                continue;
            }
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

    private static Vector approximateQuantile(AggCall c, BytesVector states) {
        int n = states.size();
        double[] values = new double[n];
        double fraction = c.descending() ? 1 - c.fraction() : c.fraction();
        for (int r = 0; r < n; r++) {
            if (!states.isNull(r)) {
                values[r] = KllAccumulator.quantile(states, r, fraction);
            }
        }
        return new DoubleVector(values, states.nulls() == null ? null : states.nulls().clone(), n);
    }

    /**
     * One APPROX_ column from the five moment columns at {@code at}. NULL where there is no estimate: a 0% sample, a
     * total or mean over no non-NULL value (as SUM and AVG are NULL there).
     */
    private Vector estimate(AggKind kind, Batch merged, int at) {
        int n = merged.rowCount();
        double[][] sums = new double[MOMENTS][];
        for (int k = 0; k < MOMENTS; k++) {
            sums[k] = ((DoubleVector) merged.column(at + k)).values();
        }
        double pi = design.probability();
        double[] values = new double[n];
        boolean[] nulls = null;
        for (int r = 0; r < n; r++) {
            SampleMoments sample = new SampleMoments(sums[0][r], sums[1][r], sums[2][r], sums[3][r], sums[4][r]);
            if (pi == 0 || (kind.quantity() != AggKind.Quantity.COUNT && sample.rows() == 0)) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[r] = true;
                continue;
            }
            SampleMoments.Estimate e = switch (kind.quantity()) {
                case COUNT -> sample.count(pi, SampleMoments.Z95);
                case SUM -> sample.total(pi, SampleMoments.Z95);
                case AVG -> sample.mean(pi, SampleMoments.Z95);
            };
            values[r] = switch (kind.bound()) {
                case ESTIMATE -> e.value();
                case LOWER -> e.lower();
                case UPPER -> e.upper();
            };
        }
        return new DoubleVector(values, nulls, n);
    }
}
