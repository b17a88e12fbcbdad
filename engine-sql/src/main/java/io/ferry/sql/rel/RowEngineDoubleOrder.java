package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableFilter;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.tools.Program;

import io.ferry.sql.fun.DoubleOrder;

/**
 * SQL's order of DOUBLEs where Calcite's row engine computes. Its comparisons of DOUBLEs, in calculations, filters
 * and join conditions, are written {@code SQL_COMPARE(x, y) op 0} ({@link DoubleOrder}): it compared with Java's
 * operators, so {@code NaN > 1} was FALSE and {@code NaN = NaN} FALSE where Ferry's kernels, PostgreSQL and DuckDB
 * say TRUE. A non-equi join on DOUBLEs (a nested loop in the row engine) lost every pair with a NaN, and so did a
 * comparison above a windowed SUM that the row engine computes. BETWEEN and IN lists over DOUBLEs (Calcite's SEARCH) are expanded into
 * comparisons first. The equi-keys of a hash join stay: they are matched by {@code Double.equals}, under which NaN
 * equals NaN, and values reach the row engine with -0.0 made 0.0 ({@link RowConverter}, {@link SignedZeros}).
 * MIN and MAX of DOUBLEs in the row engine's aggregates and windows become {@link DoubleOrder#MIN} and
 * {@link DoubleOrder#MAX}: Calcite's gave 1.7976931348623157E308 for the MIN of +Infinity and never chose a NaN.
 */
public final class RowEngineDoubleOrder {
    public static final Program PROGRAM = BottomUp.program(RowEngineDoubleOrder::rewrite);

    private RowEngineDoubleOrder() {
    }

    static RelNode rewrite(RelNode rel) {
        RexBuilder rex = rel.getCluster().getRexBuilder();
        if (rel instanceof EnumerableCalc calc) {
            RexProgram program = calc.getProgram();
            List<RexNode> projects = program.expandList(program.getProjectList());
            RexNode filter = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
            List<RexNode> newProjects = projects.stream().map(e -> inSqlOrder(rex, e)).toList();
            RexNode newFilter = filter == null ? null : inSqlOrder(rex, filter);
            if (newProjects.equals(projects) && Objects.equals(newFilter, filter)) {
                return rel;
            }
            return EnumerableCalc.create(calc.getInput(), RexProgram.create(calc.getInput().getRowType(),
                    newProjects, newFilter, calc.getRowType(), rex));
        }
        if (rel instanceof EnumerableWindow window) {
            return inSqlOrder(window);
        }
        if (rel instanceof EnumerableAggregate aggregate) {
            List<AggregateCall> calls = new ArrayList<>();
            boolean changed = false;
            for (AggregateCall c : aggregate.getAggCallList()) {
                SqlUserDefinedAggFunction inOrder = c.getArgList().size() != 1 ? null : minOrMax(c.getAggregation(),
                        aggregate.getInput().getRowType().getFieldList().get(c.getArgList().get(0)).getType(),
                        c.getType());
                if (inOrder != null) {
                    calls.add(AggregateCall.create(inOrder, c.isDistinct(), c.isApproximate(), c.ignoreNulls(),
                            c.rexList, c.getArgList(), c.filterArg, c.distinctKeys, c.collation, c.getType(),
                            c.getName()));
                    changed = true;
                } else {
                    calls.add(c);
                }
            }
            return changed ? aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
                    aggregate.getGroupSets(), calls) : rel;
        }
        if (rel instanceof EnumerableFilter filter) {
            RexNode condition = inSqlOrder(rex, filter.getCondition());
            return condition.equals(filter.getCondition()) ? rel
                    : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
        if (rel instanceof EnumerableNestedLoopJoin || rel instanceof EnumerableHashJoin) {
            Join join = (Join) rel;
            int leftCount = join.getLeft().getRowType().getFieldCount();
            List<RexNode> conjuncts = new ArrayList<>();
            for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
                boolean hashKey = rel instanceof EnumerableHashJoin && equiKey(conjunct, leftCount);
                conjuncts.add(hashKey ? conjunct : inSqlOrder(rex, conjunct));
            }
            RexNode condition = RexUtil.composeConjunction(rex, conjuncts);
            return condition.equals(join.getCondition()) ? rel : join.copy(join.getTraitSet(), condition,
                    join.getLeft(), join.getRight(), join.getJoinType(), join.isSemiJoinDone());
        }
        return rel;
    }

    /** {@link DoubleOrder#MIN} or {@link DoubleOrder#MAX} for Calcite's MIN or MAX of a DOUBLE, else null. */
    private static SqlUserDefinedAggFunction minOrMax(SqlAggFunction function, RelDataType argument,
            RelDataType result) {
        if (!approximate(argument) || result.getSqlTypeName() != SqlTypeName.DOUBLE) {
            return null;
        }
        return function.getKind() == SqlKind.MIN ? DoubleOrder.MIN
                : function.getKind() == SqlKind.MAX ? DoubleOrder.MAX : null;
    }

    /**
     * The window with its MIN and MAX of DOUBLEs in SQL's order, built again by Calcite's rule from a logical window
     * (an EnumerableWindow cannot be built otherwise outside Calcite's package).
     */
    private static RelNode inSqlOrder(EnumerableWindow window) {
        List<Window.Group> groups = new ArrayList<>();
        boolean changed = false;
        for (Window.Group g : window.groups) {
            List<Window.RexWinAggCall> calls = new ArrayList<>();
            for (Window.RexWinAggCall c : g.aggCalls) {
                SqlUserDefinedAggFunction inOrder = c.getOperands().size() != 1 ? null
                        : minOrMax((SqlAggFunction) c.getOperator(), c.getOperands().get(0).getType(), c.getType());
                if (inOrder != null) {
                    calls.add(new Window.RexWinAggCall(inOrder, c.getType(), c.getOperands(), c.ordinal, c.distinct,
                            c.ignoreNulls));
                    changed = true;
                } else {
                    calls.add(c);
                }
            }
            groups.add(new Window.Group(g.keys, g.isRows, g.lowerBound, g.upperBound, g.exclude, g.orderKeys,
                    calls));
        }
        if (!changed) {
            return window;
        }
        LogicalWindow logical = LogicalWindow.create(window.getTraitSet().replace(Convention.NONE),
                window.getInput(), window.constants, window.getRowType(), groups);
        RelNode converted = ((ConverterRule) EnumerableRules.ENUMERABLE_WINDOW_RULE).convert(logical);
        return converted == null ? window : converted;
    }

    /** {@code $i = $j} (or IS NOT DISTINCT FROM) of a left and a right column: one of a hash join's keys. */
    private static boolean equiKey(RexNode conjunct, int leftCount) {
        if (!(conjunct instanceof RexCall call) || (call.getKind() != SqlKind.EQUALS
                && call.getKind() != SqlKind.IS_NOT_DISTINCT_FROM)
                || !(call.getOperands().get(0) instanceof RexInputRef a)
                || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return false;
        }
        return a.getIndex() < leftCount != b.getIndex() < leftCount;
    }

    private static RexNode inSqlOrder(RexBuilder rex, RexNode node) {
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                if (call.getKind() == SqlKind.SEARCH && approximate(call.getOperands().get(0).getType())) {
                    return RexUtil.expandSearch(rex, null, call).accept(this);
                }
                RexCall visited = (RexCall) super.visitCall(call);
                if (!SqlKind.COMPARISON.contains(visited.getKind()) || visited.getOperands().size() != 2
                        || visited.getKind() == SqlKind.IS_DISTINCT_FROM
                        || visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM) {
                    return visited;
                }
                RexNode x = visited.getOperands().get(0);
                RexNode y = visited.getOperands().get(1);
                if (!approximate(x.getType()) && !approximate(y.getType())) {
                    return visited;
                }
                RexNode compared = rex.makeCall(DoubleOrder.COMPARE, asDouble(rex, x), asDouble(rex, y));
                return rex.makeCall(visited.getType(), visited.getOperator(),
                        List.of(compared, rex.makeExactLiteral(BigDecimal.ZERO)));
            }
        });
    }

    private static RexNode asDouble(RexBuilder rex, RexNode e) {
        if (e.getType().getSqlTypeName() == SqlTypeName.DOUBLE) {
            return e;
        }
        RelDataType type = rex.getTypeFactory().createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), e.getType().isNullable());
        return rex.makeCast(type, e);
    }

    private static boolean approximate(RelDataType type) {
        return SqlTypeUtil.isApproximateNumeric(type);
    }
}
