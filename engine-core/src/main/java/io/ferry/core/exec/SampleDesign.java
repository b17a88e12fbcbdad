package io.ferry.core.exec;

import java.util.ArrayList;
import java.util.List;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * How the rows under an aggregate were sampled — what its APPROX_ estimates scale by (docs/sampling.md): every unit
 * of the sampled table was kept independently with {@code probability} π, and a unit is a row (BERNOULLI) or a whole
 * block (SYSTEM, {@code clustered}). Without a sample π is 1 and the estimates are exact.
 *
 * <p>The sample must be on the table the aggregate streams — the scan at the bottom of its spine, the probe side of
 * its joins — because that is where a unit's rows arrive together: a block is one morsel, read whole by one thread on
 * one node, so an aggregate sums a block's rows before it squares them without any bookkeeping of block identities.
 * A sample on a join's build side, or on two tables, has no such units (and the pairs of two independent samples
 * are not an independent sample), so estimates there are refused rather than given with a wrong interval.
 */
public record SampleDesign(double probability, boolean clustered) {
    /** No sample: every row is in, the estimates are exact. */
    public static final SampleDesign NONE = new SampleDesign(1, false);

    /** The design of the rows {@code input} produces, or an error saying why it has none an estimate can use. */
    public static SampleDesign of(PlanNode input) {
        List<PlanNode.Scan> sampled = new ArrayList<>();
        collectSampled(input, sampled);
        if (sampled.isEmpty()) {
            return NONE;
        }
        PlanNode.Scan streamed = Spine.is(input) ? Spine.scan(input) : null;
        if (sampled.size() > 1 || sampled.get(0) != streamed) {
            StringBuilder names = new StringBuilder();
            for (PlanNode.Scan s : sampled) {
                names.append(names.length() == 0 ? "" : " and ").append(s.table().name());
            }
            String where = sampled.size() > 1 ? "two samples (" + names + ") make no single sample"
                    : streamed == null ? names + " is sampled below a subquery's aggregate, sort or limit"
                    : names + " is sampled on the build side of a join (the query streams " + streamed.table().name()
                            + ")";
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "APPROX_ aggregates estimate from one sampled "
                    + "table, the one the query streams (the left input of its joins); here " + where + ". Put "
                    + "TABLESAMPLE on one table only, the largest, and let the others join whole");
        }
        SampleSpec spec = sampled.get(0).sample();
        return new SampleDesign(spec.percent() / 100, spec.method() == SampleSpec.Method.SYSTEM);
    }

    private static void collectSampled(PlanNode node, List<PlanNode.Scan> out) {
        if (node instanceof PlanNode.Scan s) {
            if (s.sample() != null) {
                out.add(s);
            }
            return;
        }
        if (node instanceof PlanNode.MergeAggregate m) {
            collectSampled(m.aggregate(), out); // its partials are the same aggregate's, split
            return;
        }
        for (PlanNode in : node.inputs()) {
            collectSampled(in, out);
        }
    }
}
