package io.ferry.core.exec;

import java.math.BigDecimal;
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
import io.ferry.core.vector.WideDecimal;

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
        // calls that share a state (shareKey) add it once: APPROX_ estimates of one argument share its moments,
        // quantiles its values or sketch, two-variable statistics their co-moments, DISTINCT calls their set
        Map<List<Object>, Integer> shared = new HashMap<>();
        int states = 0;
        for (int i = 0; i < agg.calls().size(); i++) {
            AggCall c = agg.calls().get(i);
            if (c.kind() == AggKind.GROUPING) {
                stateOf[i] = -1; // no state: the grouping set of the row gives it
                continue;
            }
            List<Object> share = shareKey(c);
            Integer at = share == null ? null : shared.get(share);
            if (at != null) {
                stateOf[i] = at;
                continue;
            }
            if (share != null) {
                shared.put(share, states);
            }
            stateOf[i] = states;
            if (c.kind().approximate()) {
                // under FILTER a unit's rows that fail it add nothing to its sums, as if the argument were NULL
                // there: the estimates of the subpopulation where the filter holds (a domain estimate), exact
                partial.add(new AggCall(design.clustered() ? AggKind.BLOCK_MOMENTS : AggKind.ROW_MOMENTS, c.arg(),
                        FerryType.DOUBLE, 0, false, -1, c.filter(), false));
                for (int k = 0; k < MOMENTS; k++) {
                    merge.add(new AggCall(AggKind.SUM, keys + states++, FerryType.DOUBLE));
                }
                continue;
            }
            if (c.kind() == AggKind.STRING_AGG && c.distinct()) {
                // its entries sorted by (ORDER BY, value, separator) put equal ones side by side: the finish keeps
                // the first of each run, so the DISTINCT needs no set of its own
                List<SortKey> order = new ArrayList<>(c.order());
                order.add(new SortKey(c.arg(), false, false));
                if (c.arg2() >= 0) {
                    order.add(new SortKey(c.arg2(), false, false));
                }
                partial.add(new AggCall(AggKind.STRING_AGG, c.arg(), FerryType.VARCHAR, 0, false, c.arg2(),
                        c.filter(), false, order));
                merge.add(new AggCall(AggKind.ORDERED_STRING_AGG_MERGE, keys + states++, FerryType.VARCHAR));
                continue;
            }
            AggKind state = c.distinct() ? AggKind.DISTINCT_SET
                    : c.kind().quantile() ? (c.kind() == AggKind.APPROX_PERCENTILE ? AggKind.KLL : AggKind.VALUES)
                    : c.kind().bivariate() ? AggKind.CO_MOMENTS
                    : c.kind() == AggKind.STRING_AGG ? AggKind.STRING_AGG : null;
            if (state != null) {
                // a DISTINCT state reads raw arguments in the partial (distinct = true) and packed sets in the merge
                partial.add(new AggCall(state, c.arg(), FerryType.VARCHAR, 0, false, c.arg2(), c.filter(),
                        state == AggKind.DISTINCT_SET, c.order(), c.moreArgs()));
                AggKind mergeKind = state != AggKind.STRING_AGG ? state
                        : c.order().isEmpty() ? AggKind.STRING_AGG_MERGE : AggKind.ORDERED_STRING_AGG_MERGE;
                merge.add(new AggCall(mergeKind, keys + states++, FerryType.VARCHAR));
                continue;
            }
            switch (c.kind()) {
                case COUNT -> {
                    partial.add(c);
                    merge.add(new AggCall(AggKind.SUM0, keys + states++, FerryType.BIGINT));
                }
                case AVG -> {
                    FerryType sumType = sumType(agg.input().types().get(c.arg()));
                    partial.add(new AggCall(AggKind.SUM, c.arg(), sumType, 0, false, -1, c.filter(), false));
                    merge.add(new AggCall(AggKind.SUM, keys + states++, sumType));
                    partial.add(new AggCall(AggKind.COUNT, c.arg(), FerryType.BIGINT, 0, false, -1, c.filter(), false));
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
     * What AVG sums its argument as: DOUBLE, or an exact number as a 38-digit DECIMAL of its scale, so that AVG of
     * BIGINTs or of DECIMALs does not overflow where their sum passes a long (DuckDB sums them in 128 bits too).
     */
    private static FerryType sumType(FerryType argType) {
        return argType.physical() == Physical.DOUBLE ? FerryType.DOUBLE
                : FerryType.decimal(FerryType.MAX_DECIMAL_PRECISION,
                        argType.kind() == TypeKind.DECIMAL ? argType.scale() : 0);
    }

    /** What identifies the state a call shares with others that read it too; null if it has its own. */
    private static List<Object> shareKey(AggCall c) {
        if (c.kind().approximate()) {
            return List.of("moments", c.arg(), c.filter());
        }
        if (c.distinct() && c.kind() != AggKind.STRING_AGG) {
            return List.of("set", c.arg(), c.arg2(), c.moreArgs(), c.filter());
        }
        if (c.kind().quantile()) {
            return List.of(c.kind() == AggKind.APPROX_PERCENTILE ? "sketch" : "values", c.arg(), c.filter());
        }
        if (c.kind().bivariate()) {
            return List.of("co-moments", c.arg(), c.arg2(), c.filter());
        }
        return null;
    }

    /**
     * Columns of {@code agg}'s partial output — group keys, then each call's states — counted without looking at
     * its input, so that a decoder checks a nested plan's references in linear time.
     */
    public static int partialWidth(PlanNode.Aggregate agg) {
        int width = agg.groupKeys().length;
        java.util.Set<List<Object>> shared = new java.util.HashSet<>();
        for (AggCall c : agg.calls()) {
            List<Object> share = shareKey(c);
            if (share != null) {
                width += !shared.add(share) ? 0 : c.kind().approximate() ? MOMENTS : 1;
            } else if (c.kind() != AggKind.GROUPING) {
                width += c.kind() == AggKind.AVG && !c.distinct() ? 2 : 1;
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

    /** The output of a plain GROUP BY's merged states ({@link #finish(Batch, long)} with every key grouped on). */
    public Batch finish(Batch merged) {
        return finish(merged, -1L);
    }

    /**
     * Turns a batch of merged states into the aggregate's output columns: AVG = SUM / COUNT, APPROX_ estimates and
     * bounds from their moments, quantiles from the values or sketch of their argument, GROUPING from {@code set}
     * (the grouping set of the batch's rows, as in {@link PlanNode.Aggregate#groupSets}).
     */
    public Batch finish(Batch merged, long set) {
        int keys = agg.groupKeys().length;
        int n = merged.rowCount();
        Vector[] out = new Vector[keys + agg.calls().size()];
        System.arraycopy(merged.columns(), 0, out, 0, keys);
        List<FerryType> in = agg.input().types();
        // each state of values is sorted once, whatever number of quantiles read it
        Map<Integer, SortedValues> exact = new HashMap<>();
        for (int i = 0; i < agg.calls().size(); i++) {
            AggCall c = agg.calls().get(i);
            if (c.kind() == AggKind.GROUPING) {
                long rolledUp = (set >>> PlanNode.Aggregate.keyPosition(agg.groupKeys(), c.arg()) & 1) ^ 1;
                long[] values = new long[n];
                java.util.Arrays.fill(values, rolledUp);
                out[keys + i] = new LongVector(values, null, n);
                continue;
            }
            if (c.kind().approximate()) {
                out[keys + i] = estimate(c.kind(), merged, keys + stateOf[i]);
                continue;
            }
            if (c.distinct() && c.kind() != AggKind.STRING_AGG) {
                out[keys + i] = distinct(c, (BytesVector) merged.column(keys + stateOf[i]), in.get(c.arg()));
                continue;
            }
            if (c.kind().bivariate()) {
                out[keys + i] = CoMomentsAccumulator.finish(c.kind(), (BytesVector) merged.column(keys + stateOf[i]));
                continue;
            }
            if (c.kind() == AggKind.STRING_AGG) {
                BytesVector states = (BytesVector) merged.column(keys + stateOf[i]);
                out[keys + i] = c.order().isEmpty() && !c.distinct() ? StringAggAccumulator.finish(states)
                        : OrderedStringAggAccumulator.finish(states, c.distinct());
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
            out[keys + i] = average(state, (LongVector) merged.column(keys + stateOf[i] + 1), in.get(c.arg()));
        }
        return new Batch(n, out);
    }

    /**
     * AVG = SUM / COUNT, NULL over no rows. A DECIMAL's exact sum is divided once, by the count times the power of ten
     * of its scale, as DuckDB does: dividing by the power of ten first rounded twice, and an average that is exactly
     * a half at the scale of a later CAST (-4242.975) came out on the other side of it (fuzzer, seed 54 query 2627).
     */
    private static Vector average(Vector state, LongVector counts, FerryType argType) {
        int n = counts.size();
        int scale = argType.kind() == TypeKind.DECIMAL ? argType.scale() : 0;
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
            avg[r] = state instanceof DoubleVector d ? d.get(r) / cnt : exactAverage((BytesVector) state, r, cnt, scale);
        }
        return new DoubleVector(avg, nulls, n);
    }


    /** A 128-bit sum over {@code cnt * scale}, rounded once ({@link io.ferry.core.expr.Decimals#average}). */
    private static double exactAverage(BytesVector sums, int r, long cnt, int scale) {
        int at = sums.start(r);
        long hi = WideDecimal.hi(sums.data(), at);
        long lo = WideDecimal.lo(sums.data(), at);
        return WideDecimal.isLong(hi, lo) ? io.ferry.core.expr.Decimals.average(lo, scale, cnt)
                : io.ferry.core.expr.Decimals.average(new BigDecimal(WideDecimal.toBigInteger(hi, lo), scale), cnt);
    }


    /**
     * A DISTINCT call's function over each group's final set of distinct tuples: COUNT counts them; SUM, SUM0 and
     * AVG fold the values with the accumulators of their plain forms, each set's row as its group.
     */
    private static Vector distinct(AggCall c, BytesVector sets, FerryType argType) {
        int n = sets.size();
        int[] rows = new int[n];
        for (int r = 0; r < n; r++) {
            rows[r] = r;
        }
        Vector[] tuples = DistinctAccumulator.unpack(sets, rows, n);
        int m = tuples == null ? 0 : tuples[0].size();
        int[] owners = new int[m];
        for (int t = 0; t < m; t++) {
            owners[t] = (int) ((LongVector) tuples[0]).get(t);
        }
        Vector values = tuples == null ? null : tuples[1];
        if (c.kind() == AggKind.COUNT) {
            return fold(AggKind.COUNT, argType, FerryType.BIGINT, owners, null, n);
        }
        if (c.kind() != AggKind.AVG) {
            return fold(c.kind(), argType, c.type(), owners, values, n);
        }
        FerryType sumType = sumType(argType);
        return average(fold(AggKind.SUM, argType, sumType, owners, values, n),
                (LongVector) fold(AggKind.COUNT, argType, FerryType.BIGINT, owners, null, n), argType);
    }

    private static Vector fold(AggKind kind, FerryType argType, FerryType type, int[] groups, Vector values,
            int n) {
        Accumulator a = Accumulator.create(kind, argType, type);
        a.ensure(n);
        if (groups.length > 0) {
            a.add(groups, values, groups.length);
        }
        return a.result(0, n);
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
