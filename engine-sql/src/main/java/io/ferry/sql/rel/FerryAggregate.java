package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.core.exec.AggCall;
import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleDesign;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.fun.ApproxAggFunction;
import io.ferry.sql.fun.QuantileAggFunction;
import io.ferry.sql.translate.RexTranslator;
import io.ferry.sql.translate.UnsupportedExpression;

/**
 * Hash aggregation, partial per thread then final. DISTINCT aggregates are planned as a grouping on
 * (keys, argument) below a plain aggregation, when every distinct call shares one argument.
 */
public final class FerryAggregate extends Aggregate implements FerryRel {
    public FerryAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
            List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, groupSets, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
            List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new FerryAggregate(getCluster(), traitSet, input, groupSet, groupSets, aggCalls);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    /** Whether Ferry can run this aggregate natively. */
    public static boolean supported(Aggregate agg) {
        if (agg.getGroupType() != Group.SIMPLE || !FerryRel.supported(agg.getRowType())) {
            return false;
        }
        try {
            plan(agg, null);
            return true;
        } catch (UnsupportedExpression e) {
            return false;
        }
    }

    @Override
    public PlanNode toPlan() {
        return plan(this, FerryRel.plan(getInput()));
    }

    private static PlanNode plan(Aggregate agg, PlanNode input) {
        List<FerryType> inTypes = FerryRel.types(agg.getInput().getRowType());
        int[] keys = agg.getGroupSet().toArray();
        int distinctArg = -1;
        boolean anyPlain = false;
        for (AggregateCall call : agg.getAggCallList()) {
            if (call.getAggregation() instanceof ApproxAggFunction && call.isDistinct()) {
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, call.getAggregation().getName()
                        + "(DISTINCT ...) is not an estimate Ferry makes; drop DISTINCT");
            }
            if (call.filterArg >= 0 || call.getArgList().size() > 1 || !call.collation.getFieldCollations().isEmpty()) {
                throw new UnsupportedExpression("aggregate " + call);
            }
            if (call.isDistinct()) {
                if (call.getArgList().size() != 1 || (distinctArg >= 0 && distinctArg != call.getArgList().get(0))) {
                    throw new UnsupportedExpression("DISTINCT over several arguments");
                }
                distinctArg = call.getArgList().get(0);
            } else {
                anyPlain = true;
            }
        }
        if (distinctArg >= 0 && anyPlain) {
            throw new UnsupportedExpression("DISTINCT and plain aggregates together");
        }
        List<AggCall> calls = new ArrayList<>();
        int[] argMap = null;
        PlanNode source = input;
        if (distinctArg >= 0) {
            // Deduplicate (keys, arg) first; the outer aggregate then sees each value once per group.
            int[] innerKeys = java.util.Arrays.copyOf(keys, keys.length + 1);
            innerKeys[keys.length] = distinctArg;
            source = input == null ? null : new PlanNode.Aggregate(input, innerKeys, List.of());
            argMap = new int[inTypes.size()];
            java.util.Arrays.fill(argMap, -1);
            argMap[distinctArg] = keys.length;
            int[] outerKeys = new int[keys.length];
            for (int i = 0; i < keys.length; i++) {
                outerKeys[i] = i;
            }
            keys = outerKeys;
        }
        for (AggregateCall call : agg.getAggCallList()) {
            FerryType type = RexTranslator.type(call.getType());
            int arg = call.getArgList().isEmpty() ? -1 : call.getArgList().get(0);
            if (argMap != null && arg >= 0) {
                arg = argMap[arg];
            }
            if (call.getAggregation() instanceof QuantileAggFunction q) {
                calls.add(quantile(q, arg, type, inTypes.get(call.getArgList().get(0))));
                continue;
            }
            AggKind kind = call.getAggregation() instanceof ApproxAggFunction f ? f.kind()
                    : switch (call.getAggregation().getKind()) {
                case COUNT -> AggKind.COUNT;
                case SUM -> AggKind.SUM;
                case SUM0 -> AggKind.SUM0;
                case MIN -> AggKind.MIN;
                case MAX -> AggKind.MAX;
                case AVG -> AggKind.AVG;
                default -> throw new UnsupportedExpression(call.getAggregation().getName());
            };
            if (kind == AggKind.AVG && type.kind() != TypeKind.DOUBLE) {
                throw new UnsupportedExpression("AVG returning " + type);
            }
            if (!kind.argumentOptional() && arg < 0) {
                throw new UnsupportedExpression(kind + " without an argument");
            }
            if ((kind == AggKind.SUM || kind == AggKind.SUM0 || kind == AggKind.AVG) && arg >= 0) {
                FerryType argType = inTypes.get(call.getArgList().get(0));
                if (argType.kind() == TypeKind.VARCHAR || argType.kind() == TypeKind.DATE
                        || argType.kind() == TypeKind.TIMESTAMP || argType.kind() == TypeKind.BOOLEAN) {
                    throw new UnsupportedExpression(kind + " of " + argType);
                }
                if (type.kind() == TypeKind.DECIMAL && (argType.kind() != TypeKind.DECIMAL
                        || argType.scale() != type.scale())) {
                    throw new UnsupportedExpression(kind + " of " + argType + " as " + type);
                }
                if (argType.kind() == TypeKind.DOUBLE && type.kind() != TypeKind.DOUBLE) {
                    throw new UnsupportedExpression(kind + " of DOUBLE as " + type);
                }
            }
            calls.add(new AggCall(kind, arg, type));
        }
        if (source == null) {
            return null;
        }
        if (calls.stream().anyMatch(c -> c.kind().approximate())) {
            SampleDesign.of(source); // refuses, with a sentence, a sample the estimates cannot use
        }
        return new PlanNode.Aggregate(source, keys, calls);
    }

    /**
     * A quantile of a number, or for PERCENTILE_DISC also of a DATE or TIMESTAMP (a value is picked, none computed):
     * the types whose values sort as their physical longs or doubles.
     */
    private static AggCall quantile(QuantileAggFunction q, int arg, FerryType type, FerryType argType) {
        boolean number = switch (argType.kind()) {
            case INTEGER, BIGINT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
        boolean orderable = number || argType.kind() == TypeKind.DATE || argType.kind() == TypeKind.TIMESTAMP;
        if (!(number || (q.kind() == AggKind.PERCENTILE_DISC && orderable))) {
            throw new FerryException(SqlStates.DATATYPE_MISMATCH, q.getName() + " of " + argType.sqlName()
                    + " is not supported: PERCENTILE_CONT, MEDIAN and APPROX_PERCENTILE take a number, "
                    + "PERCENTILE_DISC a number, DATE or TIMESTAMP");
        }
        boolean sameType = type.equals(argType);
        if (q.kind() == AggKind.PERCENTILE_DISC ? !sameType : !(type.kind() == TypeKind.DOUBLE
                || (q.kind() == AggKind.PERCENTILE_CONT && argType.kind() == TypeKind.DECIMAL && sameType))) {
            throw new UnsupportedExpression(q.getName() + " of " + argType + " as " + type);
        }
        return new AggCall(q.kind(), arg, type, q.fraction(), q.descending());
    }
}
