package io.ferry.sql.rel;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.core.exec.AggCall;
import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.PlanNode;
import io.ferry.core.exec.SampleDesign;
import io.ferry.core.exec.SortKey;
import io.ferry.core.expr.Call;
import io.ferry.core.expr.InputRef;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.Op;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.fun.ApproxAggFunction;
import io.ferry.sql.fun.BivariateAggFunction;
import io.ferry.sql.fun.QuantileAggFunction;
import io.ferry.sql.translate.RexTranslator;
import io.ferry.sql.translate.UnsupportedExpression;

/**
 * Hash aggregation, partial per thread then final. DISTINCT aggregates are planned as a grouping on (keys, argument)
 * below a plain aggregation when they are the only calls and share one argument; beside other calls, each keeps its
 * set of distinct values in the aggregate. FILTER, calls of several arguments (COUNT(a, b, c), COUNT(DISTINCT a, b,
 * c), CORR(y, x), STRING_AGG(s, sep)), STRING_AGG's own ORDER BY and ANY_VALUE (as MIN) run here too, and GROUPING
 * SETS, ROLLUP and CUBE with GROUPING() and GROUPING_ID() ({@link PlanNode.Aggregate#groupSets}).
 */
public final class FerryAggregate extends Aggregate implements FerryRel {
    /** Input rows below which no thread's partial table gets to {@code AggregateSink.PROBE_GROUPS} groups anyway. */
    private static final double MANY_ROWS = 1 << 17;

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
        boolean tooManyKeys = agg.getGroupType() != Group.SIMPLE
                && agg.getGroupSet().cardinality() > PlanNode.Aggregate.MAX_GROUPING_KEYS;
        if (tooManyKeys || !FerryRel.supported(agg.getRowType())) {
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
        boolean grouped = agg.getGroupType() != Group.SIMPLE;
        // under grouping sets a DISTINCT call keeps its sets of values, which coarser sets union: values counted once
        // per finest group would be counted again in every coarser group they reach
        int distinctArg = grouped ? -1 : loneDistinctArgument(agg);
        int[] argMap = null;
        PlanNode source = input;
        if (distinctArg >= 0) {
            // Deduplicate (keys, arg) first; the outer aggregate then sees each value once per group.
            int[] innerKeys = java.util.Arrays.copyOf(keys, keys.length + 1);
            innerKeys[keys.length] = distinctArg;
            source = input == null ? null : new PlanNode.Aggregate(input, innerKeys, new long[0], List.of(),
                    nearlyUnique(agg, ImmutableBitSet.of(innerKeys)));
            argMap = new int[inTypes.size()];
            java.util.Arrays.fill(argMap, -1);
            argMap[distinctArg] = keys.length;
            int[] outerKeys = new int[keys.length];
            for (int i = 0; i < keys.length; i++) {
                outerKeys[i] = i;
            }
            keys = outerKeys;
        }
        List<AggCall> calls = new ArrayList<>();
        List<List<Integer>> groupings = new ArrayList<>();
        for (AggregateCall call : agg.getAggCallList()) {
            SqlKind kind = call.getAggregation().getKind();
            boolean grouping = kind == SqlKind.GROUPING || kind == SqlKind.GROUPING_ID;
            groupings.add(grouping ? call.getArgList() : null);
            calls.add(grouping ? grouping(call.getArgList().get(0))
                    : call(call, inTypes, agg.getInput().getRowType(), argMap));
        }
        if (grouped && calls.stream().anyMatch(c -> c.kind().approximate())) {
            // the moments of sampled blocks do not add up across groups
            throw new UnsupportedExpression("APPROX_ estimates under grouping sets");
        }
        if (source == null) {
            return null;
        }
        if (calls.stream().anyMatch(c -> c.kind().approximate())) {
            SampleDesign.of(source); // refuses, with a sentence, a sample the estimates cannot use
        }
        if (!grouped) {
            return groupingOfMany(new PlanNode.Aggregate(source, keys, new long[0], calls,
                    distinctArg < 0 && nearlyUnique(agg, agg.getGroupSet())), groupings);
        }
        long[] sets = new long[agg.getGroupSets().size()];
        for (int s = 0; s < sets.length; s++) {
            for (int column : agg.getGroupSets().get(s)) {
                sets[s] |= 1L << PlanNode.Aggregate.keyPosition(keys, column);
            }
        }
        return groupingOfMany(new PlanNode.Aggregate(source, keys, sets, calls), groupings);
    }

    /**
     * Whether the planner expects at least half as many groups of {@code keys} as the aggregate has input rows, over
     * an input of {@link #MANY_ROWS} rows or more ({@code AggregateSink} lets such a thread's partial table go to the
     * merge while small). The groups are at least the product of the keys' distinct counts that are known (columns
     * of tables passed through, {@link JoinSelectivity#distinct}), at most the rows: a key more only adds groups.
     */
    private static boolean nearlyUnique(Aggregate agg, ImmutableBitSet keys) {
        RelMetadataQuery mq = agg.getCluster().getMetadataQuery();
        Double rows = mq.getRowCount(agg.getInput());
        if (keys.isEmpty() || rows == null || rows < MANY_ROWS) {
            return false;
        }
        // an unknown count as one value: the known ones alone give at least as many groups
        return JoinSelectivity.groups(agg.getInput(), keys.toArray(), 1, mq) >= rows / 2;
    }

    private static AggCall grouping(int column) {
        return new AggCall(AggKind.GROUPING, column, FerryType.BIGINT);
    }

    /**
     * The aggregate, under a projection that computes each GROUPING(k1, ..., km) of several keys from GROUPING of
     * each ({@code groupings}: the keys of each call's GROUPING, null for other calls): its bits, k1's the highest.
     * The aggregate computes GROUPING of a single key only; those the projection needs besides its own calls' are
     * added after them and projected away.
     */
    private static PlanNode groupingOfMany(PlanNode.Aggregate aggregate, List<List<Integer>> groupings) {
        if (groupings.stream().allMatch(g -> g == null || g.size() == 1)) {
            return aggregate;
        }
        int keys = aggregate.groupKeys().length;
        List<AggCall> calls = new ArrayList<>(aggregate.calls());
        List<io.ferry.core.expr.Expr> exprs = new ArrayList<>();
        List<FerryType> types = aggregate.types();
        for (int k = 0; k < keys; k++) {
            exprs.add(new InputRef(k, types.get(k)));
        }
        for (int i = 0; i < groupings.size(); i++) {
            List<Integer> args = groupings.get(i);
            if (args == null || args.size() == 1) {
                exprs.add(new InputRef(keys + i, types.get(keys + i)));
                continue;
            }
            io.ferry.core.expr.Expr sum = null;
            for (int j = 0; j < args.size(); j++) {
                AggCall single = grouping(args.get(j));
                int at = calls.indexOf(single);
                if (at < 0) {
                    at = calls.size();
                    calls.add(single);
                }
                io.ferry.core.expr.Expr bit = new InputRef(keys + at, FerryType.BIGINT);
                long weight = 1L << (args.size() - 1 - j);
                io.ferry.core.expr.Expr term = weight == 1 ? bit : new Call(Op.TIMES, List.of(bit,
                        new Literal(weight, FerryType.BIGINT)), FerryType.BIGINT);
                sum = sum == null ? term : new Call(Op.PLUS, List.of(sum, term), FerryType.BIGINT);
            }
            exprs.add(sum);
        }
        return new PlanNode.Project(aggregate.over(aggregate.input(), aggregate.groupKeys(), calls), exprs);
    }

    /**
     * The argument of the DISTINCT calls when every call is one over that same single argument, without FILTER: they
     * are planned as a grouping on (keys, argument) below a plain aggregation. -1 otherwise: DISTINCT calls then keep
     * their set of values in the aggregate itself ({@code AggCall.distinct}).
     */
    private static int loneDistinctArgument(Aggregate agg) {
        int arg = -1;
        for (AggregateCall call : agg.getAggCallList()) {
            if (!call.isDistinct() || call.filterArg >= 0 || call.getArgList().size() != 1
                    || (arg >= 0 && arg != call.getArgList().get(0))) {
                return -1;
            }
            arg = call.getArgList().get(0);
        }
        return arg;
    }

    /** One call in the engine's terms; {@code argMap} (or null) maps its argument below a lone-DISTINCT grouping. */
    private static AggCall call(AggregateCall call, List<FerryType> inTypes, RelDataType inputRow, int[] argMap) {
        if (call.getAggregation() instanceof ApproxAggFunction && call.isDistinct()) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, call.getAggregation().getName()
                    + "(DISTINCT ...) is not an estimate Ferry makes; drop DISTINCT");
        }
        List<Integer> args = call.getAggregation().getKind() == SqlKind.COUNT && !call.isDistinct() ? nullable(call, inputRow)
                : call.getArgList();
        if (args.size() > 2 && call.getAggregation().getKind() != SqlKind.COUNT) {
            throw new UnsupportedExpression("aggregate " + call);
        }
        FerryType type = RexTranslator.type(call.getType());
        int arg = args.isEmpty() ? -1 : argMap != null ? argMap[args.get(0)] : args.get(0);
        int arg2 = args.size() < 2 ? -1 : args.get(1);
        int filter = call.filterArg;
        boolean distinct = call.isDistinct() && argMap == null;
        if (call.getAggregation() instanceof QuantileAggFunction q) {
            if (distinct || arg2 >= 0) {
                throw new UnsupportedExpression("aggregate " + call);
            }
            AggCall c = quantile(q, arg, type, inTypes.get(args.get(0)));
            return new AggCall(c.kind(), arg, type, c.fraction(), c.descending(), -1, filter, false);
        }
        AggKind kind = call.getAggregation() instanceof ApproxAggFunction f ? f.kind()
                : call.getAggregation() instanceof BivariateAggFunction f ? f.kind()
                : switch (call.getAggregation().getKind()) {
            case COUNT, REGR_COUNT -> AggKind.COUNT;
            case SUM -> AggKind.SUM;
            case SUM0 -> AggKind.SUM0;
            // any value of the group is an answer; MIN is one
            case MIN, ANY_VALUE -> AggKind.MIN;
            case MAX -> AggKind.MAX;
            case AVG -> AggKind.AVG;
            case COVAR_POP -> AggKind.COVAR_POP;
            case COVAR_SAMP -> AggKind.COVAR_SAMP;
            case REGR_SXX -> AggKind.REGR_SXX;
            case REGR_SYY -> AggKind.REGR_SYY;
            case LISTAGG, STRING_AGG -> AggKind.STRING_AGG;
            default -> throw new UnsupportedExpression(call.getAggregation().getName());
        };
        List<SortKey> order = order(call, argMap);
        // as in PostgreSQL and DuckDB, a DISTINCT call orders by its arguments only
        if (!order.isEmpty() && (kind != AggKind.STRING_AGG || call.isDistinct()
                && !order.stream().allMatch(k -> k.column() == arg || k.column() == arg2))) {
            throw new UnsupportedExpression(call.getAggregation().getName() + " with ORDER BY");
        }
        if (kind == AggKind.MIN || kind == AggKind.MAX) {
            distinct = false; // the extremes of the distinct values are the extremes
        }
        if (distinct && kind != AggKind.COUNT && kind != AggKind.SUM && kind != AggKind.SUM0 && kind != AggKind.AVG
                && kind != AggKind.STRING_AGG) {
            throw new UnsupportedExpression(kind + "(DISTINCT ...)");
        }
        if (kind.bivariate()) {
            for (int a : args) {
                if (!numeric(inTypes.get(a))) {
                    throw new UnsupportedExpression(kind + " of " + inTypes.get(a));
                }
            }
            if (args.size() != 2 || type.kind() != TypeKind.DOUBLE) {
                throw new UnsupportedExpression(kind + " as " + type);
            }
        } else if (kind == AggKind.STRING_AGG) {
            if (inTypes.get(args.get(0)).kind() != TypeKind.VARCHAR || type.kind() != TypeKind.VARCHAR
                    || (arg2 >= 0 && inTypes.get(arg2).kind() != TypeKind.VARCHAR)) {
                throw new UnsupportedExpression(kind + " of " + inTypes.get(args.get(0)));
            }
        } else if (arg2 >= 0 && kind != AggKind.COUNT) {
            throw new UnsupportedExpression(kind + " of two arguments");
        }
        if (kind == AggKind.AVG && type.kind() != TypeKind.DOUBLE) {
            throw new UnsupportedExpression("AVG returning " + type);
        }
        if (!kind.argumentOptional() && arg < 0) {
            throw new UnsupportedExpression(kind + " without an argument");
        }
        if ((kind == AggKind.SUM || kind == AggKind.SUM0 || kind == AggKind.AVG) && arg >= 0) {
            FerryType argType = inTypes.get(args.get(0));
            if (argType.kind() == TypeKind.VARCHAR || argType.kind() == TypeKind.DATE
                    || argType.kind() == TypeKind.TIMESTAMP || argType.kind() == TypeKind.BOOLEAN) {
                throw new UnsupportedExpression(kind + " of " + argType);
            }
            boolean integerIntoWide = (argType.kind() == TypeKind.BIGINT || argType.kind() == TypeKind.INTEGER)
                    && type.isWideDecimal() && type.scale() == 0;
            if (type.kind() == TypeKind.DECIMAL && !integerIntoWide && (argType.kind() != TypeKind.DECIMAL
                    || argType.scale() != type.scale())) {
                throw new UnsupportedExpression(kind + " of " + argType + " as " + type);
            }
            if (argType.kind() == TypeKind.DOUBLE && type.kind() != TypeKind.DOUBLE) {
                throw new UnsupportedExpression(kind + " of DOUBLE as " + type);
            }
        }
        List<Integer> moreArgs = args.size() > 2 ? args.subList(2, args.size()) : List.of();
        return new AggCall(kind, arg, type, 0, false, arg2, filter, distinct, order, moreArgs);
    }

    /**
     * A call's own ORDER BY (STRING_AGG(s, sep ORDER BY k), LISTAGG's WITHIN GROUP): NULLs last ascending and first
     * descending unless the query says otherwise, as PostgreSQL and DuckDB (Calcite's converter already fills these
     * defaults in; an unspecified direction gets the same). {@code argMap} (or null) maps the columns below a
     * lone-DISTINCT grouping, where they can only be the argument.
     */
    private static List<SortKey> order(AggregateCall call, int[] argMap) {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation c : call.collation.getFieldCollations()) {
            boolean desc = c.getDirection().isDescending();
            boolean nullsFirst = switch (c.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                default -> desc;
            };
            int column = argMap == null ? c.getFieldIndex() : argMap[c.getFieldIndex()];
            if (column < 0) {
                throw new UnsupportedExpression(call.getAggregation().getName() + " ordered by no argument");
            }
            keys.add(new SortKey(column, desc, nullsFirst));
        }
        return keys;
    }

    /**
     * COUNT's arguments that can be NULL: only they decide whether a row counts. COUNT(DISTINCT (a, b)) reaches here
     * as COUNT over (a IS NULL, COALESCE(a, ..), b IS NULL, COALESCE(b, ..)), which counts every row (a row value
     * with NULL fields is no NULL, as in DuckDB).
     */
    private static List<Integer> nullable(AggregateCall call, RelDataType inputRow) {
        return call.getArgList().stream().filter(a -> inputRow.getFieldList().get(a).getType().isNullable()).toList();
    }

    private static boolean numeric(FerryType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    /**
     * A quantile of a number, or for PERCENTILE_DISC also of a DATE or TIMESTAMP (a value is picked, none computed):
     * the types whose values sort as their physical longs or doubles.
     */
    private static AggCall quantile(QuantileAggFunction q, int arg, FerryType type, FerryType argType) {
        boolean number = numeric(argType);
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
