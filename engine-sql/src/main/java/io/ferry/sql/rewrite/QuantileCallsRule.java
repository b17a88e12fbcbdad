package io.ferry.sql.rewrite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.AggCall.AggKind;
import io.ferry.sql.fun.ApproxPercentileFunction;
import io.ferry.sql.fun.QuantileAggFunction;

/**
 * Binds the fraction of a quantile into its function. Calcite plans {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY
 * x)} as a call on a projected column holding {@code f}, ordered by {@code x}, and {@code APPROX_PERCENTILE(x, f)} as
 * a call on the columns of both; after this rule each is a {@link QuantileAggFunction} of {@code x} alone, with the
 * fraction and the order in it, which Ferry's aggregate runs. The validator has checked that the fraction is a
 * constant in [0, 1].
 */
public final class QuantileCallsRule extends RelOptRule {
    public static final QuantileCallsRule INSTANCE = new QuantileCallsRule();

    private QuantileCallsRule() {
        super(operand(LogicalAggregate.class, any()), "QuantileCallsRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        RelNode input = aggregate.getInput().stripped();
        if (!(input instanceof LogicalProject project)) {
            return;
        }
        List<AggregateCall> calls = new ArrayList<>();
        boolean changed = false;
        for (AggregateCall agg : aggregate.getAggCallList()) {
            AggregateCall bound = bind(agg, project.getProjects());
            changed |= bound != agg;
            calls.add(bound);
        }
        if (changed) {
            call.transformTo(aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
                    aggregate.getGroupSets(), calls));
        }
    }

    private static AggregateCall bind(AggregateCall agg, List<RexNode> exprs) {
        SqlKind kind = agg.getAggregation().getKind();
        int arg;
        int fractionArg;
        boolean descending = false;
        AggKind quantile;
        if (kind == SqlKind.PERCENTILE_CONT || kind == SqlKind.PERCENTILE_DISC) {
            List<RelFieldCollation> order = agg.collation.getFieldCollations();
            if (agg.getArgList().size() != 1 || order.size() != 1) {
                throw new FerryException(SqlStates.SYNTAX_OR_ACCESS_RULE, agg.getAggregation().getName()
                        + " takes one fraction and orders by one expression, as in PERCENTILE_CONT(0.5) WITHIN GROUP "
                        + "(ORDER BY x)");
            }
            fractionArg = agg.getArgList().get(0);
            arg = order.get(0).getFieldIndex();
            descending = order.get(0).direction.isDescending();
            quantile = kind == SqlKind.PERCENTILE_CONT ? AggKind.PERCENTILE_CONT : AggKind.PERCENTILE_DISC;
        } else if (agg.getAggregation() instanceof ApproxPercentileFunction) {
            arg = agg.getArgList().get(0);
            fractionArg = agg.getArgList().get(1);
            quantile = AggKind.APPROX_PERCENTILE;
        } else {
            return agg;
        }
        if (!(exprs.get(fractionArg) instanceof RexLiteral literal)) {
            return agg;
        }
        if (agg.isDistinct() || agg.filterArg >= 0) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, agg.getAggregation().getName()
                    + " with DISTINCT or FILTER is not supported; filter the rows in WHERE or a subquery instead");
        }
        double fraction = literal.getValueAs(BigDecimal.class).doubleValue();
        QuantileAggFunction function = QuantileAggFunction.of(quantile, fraction, descending);
        return AggregateCall.create(function, false, false, false, List.of(), List.of(arg), -1, null,
                RelCollations.EMPTY, agg.getType(), agg.getName());
    }
}
