package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.sql.rel.BottomUp;
import io.ferry.sql.rel.JoinSelectivity;

/**
 * Eager aggregation (Yan and Larson, "Eager Aggregation and Lazy Aggregation", VLDB 1995): an aggregate over an inner
 * equi-join whose calls read only one input (the facts) and which groups by strings of the other (a dimension) is
 * computed in two steps. The facts are first grouped by their join key and their own group keys, then joined, then
 * grouped by the statement's keys: TPC-DS q4, q11 and q74 grouped 2.9 M store sales by eight of customer's columns
 * (seven strings) after the join, where grouping them by customer key and year first leaves 200,000 rows to join
 * and to group by strings. Each partial result joins every dimension row its key matches, as each fact row did, so
 * the dimension's key need not be unique: SUM, MIN and MAX fold the partial results again, COUNT's are summed, an
 * AVG is a SUM and a COUNT first, divided at the end. Other calls (DISTINCT, ordered ones) leave the aggregate as it
 * was. Grouping sets (ROLLUP, CUBE) and GROUPING calls are the second aggregate's: TPC-DS q22 averaged 2.2 M inventory
 * rows by ROLLUP of four item strings, where averaging them by item first leaves 18,000 rows to join and group.
 *
 * <p>Applied where the facts have 100,000 rows or more, the join keeps half of them or more, the dimension gives a
 * string key, and the first grouping leaves at most a quarter of the facts' rows by the distinct counts of its keys (columns of tables passed through,
 * {@link JoinSelectivity#distinct}; a computed key or one without statistics counts as unique, so the aggregate
 * stays). Runs after join ordering, on the join an aggregate sits on, through a projection between them if there is
 * one.
 */
public final class EagerAggregates {
    public static final Program PROGRAM = BottomUp.program(EagerAggregates::rewrite);

    /** The first grouping's groups, at most this share of its input's rows. */
    private static final double MAX_GROUP_SHARE = 0.25;
    /** Facts of fewer rows keep their one aggregate: a second one costs about what it saves. */
    private static final double MIN_ROWS = 100_000;
    /**
     * The join's rows, at least this share of the facts': a join that drops most facts (a filtered dimension) is
     * cheaper than grouping them all first (TPC-DS q37, q58 and q82 ran 6–50 ms slower two-step).
     */
    private static final double MIN_JOINED_SHARE = 0.5;

    private EagerAggregates() {
    }

    static RelNode rewrite(RelNode rel) {
        if (!(rel instanceof LogicalAggregate agg) || agg.getGroupCount() == 0) {
            return rel;
        }
        LogicalJoin join;
        List<RexNode> exprs;
        if (agg.getInput() instanceof LogicalProject p && p.getInput() instanceof LogicalJoin j) {
            join = j;
            exprs = p.getProjects();
        } else if (agg.getInput() instanceof LogicalJoin j) {
            join = j;
            exprs = j.getCluster().getRexBuilder().identityProjects(j.getRowType());
        } else {
            return rel;
        }
        if (join.getJoinType() != JoinRelType.INNER) {
            return rel;
        }
        JoinInfo info = join.analyzeCondition();
        // one key compared with = (not IS NOT DISTINCT FROM, whose NULLs match: the second join is an =)
        if (!info.isEqui() || info.leftKeys.size() != 1 || !join.getCondition().isA(SqlKind.EQUALS)) {
            return rel;
        }
        for (boolean dimensionLeft : new boolean[] {true, false}) {
            RelNode eager = eager(agg, exprs, join, info, dimensionLeft);
            if (eager != null) {
                return eager;
            }
        }
        return rel;
    }

    /** The two-step aggregate with the join's left (or right) input as the dimension, or null where it does not apply. */
    private static RelNode eager(LogicalAggregate agg, List<RexNode> exprs, LogicalJoin join, JoinInfo info,
            boolean dimensionLeft) {
        RelNode dim = dimensionLeft ? join.getLeft() : join.getRight();
        RelNode fact = dimensionLeft ? join.getRight() : join.getLeft();
        int leftCount = join.getLeft().getRowType().getFieldCount();
        int dimStart = dimensionLeft ? 0 : leftCount;
        int dimEnd = dimStart + dim.getRowType().getFieldCount();
        int factStart = dimensionLeft ? leftCount : 0;
        int dimKey = (dimensionLeft ? info.leftKeys : info.rightKeys).get(0);
        int factKey = (dimensionLeft ? info.rightKeys : info.leftKeys).get(0);
        // the first grouping's projection of the fact side: its join key, its group keys, the calls' arguments
        List<RexNode> factExprs = new ArrayList<>();
        factExprs.add(RexInputRef.of(factKey, fact.getRowType()));
        int[] keyPlace = new int[agg.getGroupCount()]; // >= 0: a dimension column; < 0: -(1 + place in factExprs)
        int k = 0;
        boolean stringKey = false;
        for (int key : agg.getGroupSet()) {
            RexNode e = exprs.get(key);
            ImmutableBitSet refs = RelOptUtil.InputFinder.bits(e);
            if (e instanceof RexInputRef ref && ref.getIndex() >= dimStart && ref.getIndex() < dimEnd) {
                stringKey |= SqlTypeUtil.inCharFamily(e.getType());
                keyPlace[k++] = ref.getIndex() - dimStart;
            } else if (within(refs, factStart, fact)) {
                keyPlace[k++] = -(1 + factExprs.size());
                factExprs.add(RexUtil.shift(e, -factStart));
            } else {
                return null;
            }
        }
        if (!stringKey) {
            // grouping by the dimension's integers after the join costs what grouping by the join key before does
            // (TPC-DS q23's customer key, q53's and q63's item and date numbers ran slower two-step)
            return null;
        }
        int factKeys = factExprs.size();
        List<Integer> argPlace = new ArrayList<>();
        for (AggregateCall call : agg.getAggCallList()) {
            if (grouping(call)) {
                if (!agg.getGroupSet().contains(ImmutableBitSet.of(call.getArgList()))) {
                    return null;
                }
                argPlace.add(-1);
                continue;
            }
            if (!splits(call) || call.getArgList().size() > 1) {
                return null;
            }
            if (call.getArgList().isEmpty()) {
                argPlace.add(-1);
                continue;
            }
            RexNode arg = exprs.get(call.getArgList().get(0));
            if (!within(RelOptUtil.InputFinder.bits(arg), factStart, fact)) {
                return null;
            }
            argPlace.add(factExprs.size());
            factExprs.add(RexUtil.shift(arg, -factStart));
        }
        // the estimates last: the checks above need none
        RelMetadataQuery mq = JoinSelectivity.query();
        Double joined = mq.getRowCount(join);
        Double facts = mq.getRowCount(fact);
        if (joined == null || facts == null || joined < MIN_JOINED_SHARE * facts
                || !reduces(fact, facts, factExprs.subList(0, factKeys), mq)) {
            return null;
        }
        RelBuilder b = RelFactories.LOGICAL_BUILDER.create(agg.getCluster(), null);
        b.push(fact).project(factExprs);
        // each call's partial results: one, or an AVG's sum and count
        List<RelBuilder.AggCall> firsts = new ArrayList<>();
        List<SqlAggFunction> merges = new ArrayList<>();
        for (int c = 0; c < argPlace.size(); c++) {
            AggregateCall call = agg.getAggCallList().get(c);
            RexNode arg = argPlace.get(c) < 0 ? null : b.field(argPlace.get(c));
            if (grouping(call)) {
                continue; // the second aggregate's, of its keys
            } else if (arg == null) {
                firsts.add(b.countStar(null));
                merges.add(SqlStdOperatorTable.SUM0);
            } else if (call.getAggregation().getKind() == SqlKind.AVG) {
                firsts.add(b.sum(arg));
                firsts.add(b.count(arg));
                merges.add(SqlStdOperatorTable.SUM);
                merges.add(SqlStdOperatorTable.SUM0);
            } else {
                firsts.add(b.aggregateCall(call.getAggregation(), arg));
                merges.add(merge(call.getAggregation().getKind()));
            }
        }
        b.aggregate(b.groupKey(ImmutableBitSet.range(factKeys)), firsts);
        RelNode grouped = b.build();
        int groupedCount = grouped.getRowType().getFieldCount();
        int dimCount = dim.getRowType().getFieldCount();
        // the join again, its inputs on the same sides: [dimension, grouped facts] or [grouped facts, dimension]
        int dimAt = dimensionLeft ? 0 : groupedCount;
        int groupedAt = dimensionLeft ? dimCount : 0;
        b.push(dimensionLeft ? dim : grouped).push(dimensionLeft ? grouped : dim);
        b.join(JoinRelType.INNER, b.equals(b.field(2, dimensionLeft ? 0 : 1, dimKey),
                b.field(2, dimensionLeft ? 1 : 0, 0)));
        // the statement's keys, then each call's partial results folded; the keys in the statement's order after
        List<Integer> fields = new ArrayList<>();
        for (int place : keyPlace) {
            fields.add(place >= 0 ? dimAt + place : groupedAt - 1 - place);
        }
        ImmutableBitSet keySet = ImmutableBitSet.of(fields);
        if (keySet.cardinality() != fields.size()) {
            return null; // two keys of one column: the aggregate's columns would not line up
        }
        // grouping sets (ROLLUP, CUBE) of the statement's keys, each key where the join puts it
        List<ImmutableBitSet> sets = new ArrayList<>();
        for (ImmutableBitSet set : agg.getGroupSets()) {
            ImmutableBitSet.Builder mapped = ImmutableBitSet.builder();
            for (int key : set) {
                mapped.set(fields.get(agg.getGroupSet().indexOf(key)));
            }
            sets.add(mapped.build());
        }
        List<RelBuilder.AggCall> seconds = new ArrayList<>();
        int merged = 0;
        for (AggregateCall call : agg.getAggCallList()) {
            if (grouping(call)) {
                List<RexNode> keys = new ArrayList<>();
                for (int key : call.getArgList()) {
                    keys.add(b.field(fields.get(agg.getGroupSet().indexOf(key))));
                }
                seconds.add(b.aggregateCall(call.getAggregation(), keys));
            } else {
                for (int n = call.getAggregation().getKind() == SqlKind.AVG ? 2 : 1; n > 0; n--, merged++) {
                    seconds.add(b.aggregateCall(merges.get(merged), b.field(groupedAt + factKeys + merged)));
                }
            }
        }
        b.aggregate(b.groupKey(keySet, sets), seconds);
        List<RexNode> out = new ArrayList<>();
        for (int field : fields) {
            out.add(b.field(keySet.indexOf(field)));
        }
        int partial = fields.size();
        for (AggregateCall call : agg.getAggCallList()) {
            if (call.getAggregation().getKind() == SqlKind.AVG) {
                // as Calcite's AggregateReduceFunctionsRule: the sum in the average's type, divided by the count
                RexNode sum = b.field(partial++);
                sum = b.getRexBuilder().makeCast(b.getTypeFactory().createTypeWithNullability(call.getType(),
                        sum.getType().isNullable()), sum);
                out.add(b.call(SqlStdOperatorTable.DIVIDE, sum, b.field(partial++)));
            } else {
                out.add(b.field(partial++));
            }
        }
        b.project(out);
        return b.convert(agg.getRowType(), true).build();
    }

    /** Whether a call is GROUPING or GROUPING_ID, which reads the grouping set a row is of, not rows. */
    private static boolean grouping(AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.GROUPING
                || call.getAggregation().getKind() == SqlKind.GROUPING_ID;
    }

    /** Whether a call's result can be computed from partial results of groups of its rows. */
    private static boolean splits(AggregateCall call) {
        return !call.isDistinct() && !call.hasFilter() && !call.isApproximate()
                && call.getCollation().getFieldCollations().isEmpty()
                && (call.getAggregation().getKind() == SqlKind.AVG || merge(call.getAggregation().getKind()) != null);
    }

    /** How partial results of a call of this kind fold into its result; null for one that does not fold. */
    private static SqlAggFunction merge(SqlKind kind) {
        return switch (kind) {
            case SUM -> SqlStdOperatorTable.SUM;
            case SUM0, COUNT -> SqlStdOperatorTable.SUM0;
            case MIN -> SqlStdOperatorTable.MIN;
            case MAX -> SqlStdOperatorTable.MAX;
            default -> null;
        };
    }

    /** Whether every column {@code refs} names is one of the fact input's, which starts at {@code factStart}. */
    private static boolean within(ImmutableBitSet refs, int factStart, RelNode fact) {
        return refs.isEmpty() || refs.nth(0) >= factStart
                && refs.length() <= factStart + fact.getRowType().getFieldCount();
    }

    /**
     * Whether grouping {@code fact} by {@code keys} leaves at most {@link #MAX_GROUP_SHARE} of its rows, by the
     * product of the keys' distinct counts; a key that is not a table's column counts as unique.
     */
    private static boolean reduces(RelNode fact, double rows, List<RexNode> keys, RelMetadataQuery mq) {
        int[] columns = keys.stream().mapToInt(k -> k instanceof RexInputRef ref ? ref.getIndex() : -1).toArray();
        return rows >= MIN_ROWS && JoinSelectivity.groups(fact, columns, rows, mq) <= rows * MAX_GROUP_SHARE;
    }
}
