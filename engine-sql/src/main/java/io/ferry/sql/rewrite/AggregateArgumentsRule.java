package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.RelBuilder;

/**
 * Rewrites the arguments of aggregate calls that Calcite's later phases would compute wrongly.
 *
 * <ul>
 *   <li>Moments ({@code VAR_*}, {@code STDDEV_*}, {@code COVAR_*}, {@code REGR_SXX/SYY}) take DOUBLE arguments, as
 *       the standard says. Calcite expands {@code COVAR_POP(x, y)} into {@code (SUM(x*y) - SUM(x)*SUM(y)/n)/n}
 *       in the arguments' type, so over integers the product of sums overflowed and the division truncated.</li>
 *   <li>{@code COUNT(DISTINCT (a, b))}, a distinct aggregate over a row value: Calcite's row engine compares row
 *       values by identity, so every row was distinct (600572 instead of 298378 on the demo data). A row value is
 *       never NULL, even when its fields are, and two rows are the same when their fields are, NULLs included
 *       (PostgreSQL, DuckDB); so the row becomes its fields, each nullable field two never-null ones
 *       ({@code f IS NULL}, {@code COALESCE(f, zero)}), which a multi-argument {@code COUNT(DISTINCT …)} counts
 *       with those semantics.</li>
 * </ul>
 */
public final class AggregateArgumentsRule extends RelOptRule {
    public static final AggregateArgumentsRule INSTANCE = new AggregateArgumentsRule();

    private static final Set<SqlKind> MOMENTS = EnumSet.of(SqlKind.VAR_POP, SqlKind.VAR_SAMP, SqlKind.STDDEV_POP,
            SqlKind.STDDEV_SAMP, SqlKind.COVAR_POP, SqlKind.COVAR_SAMP, SqlKind.REGR_SXX, SqlKind.REGR_SYY);

    private AggregateArgumentsRule() {
        super(operand(LogicalAggregate.class, any()), "AggregateArgumentsRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        // The aggregate's input columns as expressions over a base: through a project, its expressions (where a row
        // value is visible as such), else the input's own columns. New arguments are appended over the same base.
        RelNode input = aggregate.getInput().stripped();
        RelNode base = input instanceof LogicalProject p ? p.getInput() : input;
        List<RexNode> exprs = new ArrayList<>(input instanceof LogicalProject p ? p.getProjects()
                : rex.identityProjects(base.getRowType()));
        List<AggregateCall> calls = new ArrayList<>();
        boolean changed = false;
        for (AggregateCall agg : aggregate.getAggCallList()) {
            List<Integer> args = agg.getArgList();
            if (MOMENTS.contains(agg.getAggregation().getKind())) {
                args = new ArrayList<>();
                for (int arg : agg.getArgList()) {
                    RelDataType type = exprs.get(arg).getType();
                    args.add(type.getSqlTypeName() == SqlTypeName.DOUBLE ? arg
                            : add(exprs, rex.makeCast(rex.getTypeFactory().createTypeWithNullability(
                                    rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), type.isNullable()),
                                    exprs.get(arg))));
                }
            } else if (agg.isDistinct() && args.stream().anyMatch(i -> exprs.get(i).getKind() == SqlKind.ROW)) {
                args = new ArrayList<>();
                for (int arg : agg.getArgList()) {
                    if (exprs.get(arg).getKind() != SqlKind.ROW) {
                        args.add(arg);
                        continue;
                    }
                    for (RexNode field : ((RexCall) exprs.get(arg)).getOperands()) {
                        args.addAll(rowField(rex, exprs, field));
                    }
                }
            }
            changed |= !args.equals(agg.getArgList());
            calls.add(args.equals(agg.getArgList()) ? agg : agg.withArgList(args));
        }
        if (!changed) {
            return;
        }
        RelBuilder builder = call.builder();
        builder.push(base).project(exprs);
        call.transformTo(aggregate.copy(aggregate.getTraitSet(), builder.build(), aggregate.getGroupSet(),
                aggregate.getGroupSets(), calls));
    }

    /** The never-null arguments standing for one field of a row value. */
    private static List<Integer> rowField(RexBuilder rex, List<RexNode> exprs, RexNode f) {
        if (!f.getType().isNullable()) {
            return List.of(add(exprs, f));
        }
        RelDataType notNull = rex.getTypeFactory().createTypeWithNullability(f.getType(), false);
        return List.of(add(exprs, rex.makeCall(SqlStdOperatorTable.IS_NULL, f)),
                add(exprs, rex.makeNotNull(rex.makeCall(SqlStdOperatorTable.COALESCE, f,
                        rex.makeZeroLiteral(notNull)))));
    }

    private static int add(List<RexNode> exprs, RexNode e) {
        exprs.add(e);
        return exprs.size() - 1;
    }
}
