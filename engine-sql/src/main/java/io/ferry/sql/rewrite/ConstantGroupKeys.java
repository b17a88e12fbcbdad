package io.ferry.sql.rewrite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.sql.rel.BottomUp;

/**
 * Takes literal (and other constant) GROUP BY keys out of an aggregate, and projects them back above it. Run only before decorrelation:
 * Calcite's decorrelator drops such keys itself, and got it wrong twice. With every key a literal it grouped by
 * nothing, so {@code GROUP BY <constant>} over an empty input gave one row where SQL gives none (seen under
 * {@code NOT EXISTS}); with several literal keys it put them back in the wrong order ("decorrelation produced a
 * relation with a different type", seen with {@code SELECT DISTINCT <constants>, (scalar subquery)}).
 *
 * <p>With a key left to group by, that aggregate is the answer. With none, the aggregate becomes a grand total
 * that also counts its rows, filtered on a count above zero: one row when the input has rows, none otherwise,
 * exactly as grouping by constants.
 */
public final class ConstantGroupKeys {
    public static final Program PROGRAM = BottomUp.program(visited -> {
        if (visited instanceof LogicalAggregate aggregate
                && aggregate.getInput() instanceof LogicalProject project) {
            RelNode rewritten = aggregate.getGroupType() == Aggregate.Group.SIMPLE ? rewrite(aggregate, project)
                    : perGroupingSet(aggregate, project);
            return rewritten == null ? visited : rewritten;
        }
        return visited;
    });

    private ConstantGroupKeys() {
    }

    /**
     * Output {@code i} of {@code project} in terms of what lies below the projections and filters stacked under it:
     * the decorrelator's builder merges such stacks, so a key that reads a literal a lower projection made is a
     * literal to it (seed 70 query 2594: {@code SELECT DISTINCT <constants>} over a {@code GROUP BY <constant>, d});
     * a filter passes its input's columns on as they are, and a HAVING puts one between the projections (seed 126
     * query 2655: {@code SELECT DISTINCT 'x' … GROUP BY 'x', b HAVING …} over a correlated IN answered one row over
     * an empty input).
     */
    private static RexNode resolved(Project project, int i) {
        RexNode e = project.getProjects().get(i);
        RelNode in = project.getInput();
        while (in instanceof Project || in instanceof Filter) {
            if (in instanceof Project below) {
                e = RelOptUtil.pushPastProject(e, below);
            }
            in = in.getInput(0);
        }
        // simplified as the decorrelator's builder simplifies it: an empty range over a NOT NULL column, which
        // Calcite writes {@code id <> id}, is FALSE to it (fuzzer, seed 812 query 1405: {@code GROUP BY (id BETWEEN
        // 100 AND 2)} above a correlated NOT IN gave one row over an empty input)
        RexBuilder rex = project.getCluster().getRexBuilder();
        return new RexSimplify(rex, RelOptPredicateList.EMPTY, RexUtil.EXECUTOR).simplifyPreservingType(e);
    }

    /**
     * A literal, or a deterministic expression of literals ({@code CAST(CAST(-5 AS BIGINT) AS VARCHAR)}): the
     * decorrelator's builder folds the latter into a literal before it looks, and then dropped every key from an
     * aggregate in an uncorrelated branch of a set operation, which came out a column wider than the other branch
     * ("Cannot compute compatible row type for arguments to set op", fuzzer seed 70 query 2594).
     */
    private static boolean isConstant(RexNode e) {
        return e instanceof RexLiteral || RexUtil.isConstant(e) && RexUtil.isDeterministic(e);
    }

    /**
     * An aggregate of grouping sets (ROLLUP, CUBE, GROUPING SETS) with a constant key as the UNION ALL of one plain
     * aggregate per set, each rewritten as above, a key outside a set NULL and each GROUPING call its set's constant.
     * Calcite's decorrelator drops constant keys from such an aggregate too, and then failed to rebuild its sets
     * (XX000, an IllegalArgumentException: {@code … WHERE NOT EXISTS (SELECT … WHERE '' = a0.g) GROUP BY CUBE(a0.g),
     * CAST(0 AS DECIMAL(12,2))}, fuzzer seeds 151 and 156).
     */
    private static RelNode perGroupingSet(LogicalAggregate aggregate, LogicalProject project) {
        List<Integer> keys = aggregate.getGroupSet().asList();
        if (keys.stream().noneMatch(k -> isConstant(resolved(project, k)))) {
            return null;
        }
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<AggregateCall> plain = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            if (!isGrouping(c)) {
                plain.add(c);
            }
        }
        List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(aggregate.getCluster(), null);
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            List<AggregateCall> calls = new ArrayList<>();
            for (AggregateCall c : plain) {
                calls.add(c.adaptTo(project, c.getArgList(), c.filterArg, aggregate.getGroupCount(),
                        set.cardinality()));
            }
            LogicalAggregate simple = LogicalAggregate.create(project, List.of(), set, null, calls);
            RelNode rewritten = rewrite(simple, project);
            builder.push(rewritten == null ? simple : rewritten);
            List<RexNode> out = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                RelDataType type = fields.get(i).getType();
                out.add(set.get(keys.get(i)) ? rex.makeCast(type, builder.field(set.indexOf(keys.get(i))), true,
                        false) : rex.makeNullLiteral(type));
            }
            int next = set.cardinality();
            for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
                AggregateCall c = aggregate.getAggCallList().get(i);
                RelDataType type = fields.get(keys.size() + i).getType();
                out.add(isGrouping(c) ? rex.makeExactLiteral(BigDecimal.valueOf(groupingValue(c, set)), type)
                        : rex.makeCast(type, builder.field(next++), true, false));
            }
            builder.project(out, aggregate.getRowType().getFieldNames(), true);
        }
        return builder.union(true, aggregate.getGroupSets().size()).build();
    }

    private static boolean isGrouping(AggregateCall c) {
        return c.getAggregation().getKind() == SqlKind.GROUPING || c.getAggregation().getKind() == SqlKind.GROUPING_ID;
    }

    /** GROUPING(a, b, …) for the rows of {@code set}: a bit per argument, the first the highest, set when left out. */
    private static long groupingValue(AggregateCall c, ImmutableBitSet set) {
        long value = 0;
        for (int arg : c.getArgList()) {
            value = value << 1 | (set.get(arg) ? 0 : 1);
        }
        return value;
    }

    private static RelNode rewrite(LogicalAggregate aggregate, LogicalProject project) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return null;
        }
        ImmutableBitSet.Builder kept = ImmutableBitSet.builder();
        boolean constant = false;
        for (int key : aggregate.getGroupSet()) {
            if (isConstant(resolved(project, key))) {
                constant = true;
            } else {
                kept.set(key);
            }
        }
        ImmutableBitSet groupSet = kept.build();
        boolean grandTotal = groupSet.isEmpty();
        // Inside a correlated subquery (EXISTS becomes GROUP BY TRUE there) the decorrelator groups by the
        // correlation's columns instead, which is right and far cheaper than a grand total it must then join back
        if (!constant || grandTotal && !RelOptUtil.getVariablesUsed(aggregate).isEmpty()) {
            return null;
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall c : aggregate.getAggCallList()) {
            calls.add(c.adaptTo(project, c.getArgList(), c.filterArg, false, grandTotal));
        }
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(aggregate.getCluster(), null).push(project);
        List<RelBuilder.AggCall> aggCalls = new ArrayList<>();
        for (AggregateCall c : calls) {
            aggCalls.add(builder.aggregateCall(c));
        }
        if (grandTotal) {
            aggCalls.add(builder.countStar("$rows"));
        }
        builder.aggregate(builder.groupKey(groupSet), aggCalls);
        if (grandTotal) {
            // the grand total's one row stands for the constant group only when the input had rows
            builder.filter(builder.greaterThan(builder.field(calls.size()), builder.literal(0)));
        }
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<RexNode> out = new ArrayList<>();
        int next = 0;
        for (int key : aggregate.getGroupSet()) {
            RexNode e = resolved(project, key);
            out.add(isConstant(e) ? e : builder.field(next++));
        }
        for (int i = 0; i < calls.size(); i++) {
            out.add(builder.field(next++));
        }
        List<RexNode> typed = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            typed.add(rex.makeCast(aggregate.getRowType().getFieldList().get(i).getType(), out.get(i), true, false));
        }
        builder.project(typed, aggregate.getRowType().getFieldNames(), true);
        return builder.build();
    }
}
