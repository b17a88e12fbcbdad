package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ferry.core.exec.PlanNode;
import io.ferry.core.gen.RowGenerator;
import io.ferry.sql.fun.TableFunctions;

/** The rows of a table function ({@link TableFunctions}), made by its generator in the engine's threads. */
public final class FerryGenerate extends AbstractRelNode implements FerryRel {
    private final RexCall call;
    private final RowGenerator generator;

    FerryGenerate(RelOptCluster cluster, RelTraitSet traits, RelDataType rowType, RexCall call,
            RowGenerator generator) {
        super(cluster, traits);
        this.rowType = rowType;
        this.call = call;
        this.generator = generator;
    }

    /** Whether {@code scan} calls a function Ferry generates the rows of. */
    static boolean runs(TableFunctionScan scan) {
        return scan.getInputs().isEmpty() && scan.getCall() instanceof RexCall c
                && TableFunctions.isGenerator(c.getOperator());
    }

    /** {@code scan}, which {@link #runs}, as a generator of its rows. */
    static FerryGenerate of(TableFunctionScan scan, RelTraitSet traits) {
        RexCall call = (RexCall) scan.getCall();
        List<Object> args = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            args.add(constant(scan.getCluster(), operand));
        }
        return new FerryGenerate(scan.getCluster(), traits, scan.getRowType(), call,
                TableFunctions.generator(call.getOperator(), args));
    }

    /**
     * An operand's value. The validator let constants only through, but a negative number or a CAST arrives as a
     * call on a literal: the planner's executor folds it.
     */
    private static Object constant(RelOptCluster cluster, RexNode operand) {
        RexNode folded = operand;
        if (!(operand instanceof RexLiteral)) {
            RexExecutor executor = cluster.getPlanner().getExecutor();
            List<RexNode> out = new ArrayList<>();
            (executor == null ? RexUtil.EXECUTOR : executor).reduce(cluster.getRexBuilder(), List.of(operand), out);
            folded = out.get(0);
        }
        RexLiteral literal = (RexLiteral) folded;
        return SqlTypeName.NUMERIC_TYPES.contains(literal.getType().getSqlTypeName())
                ? literal.getValueAs(BigDecimal.class) : literal.getValueAs(String.class);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FerryGenerate(getCluster(), traitSet, rowType, call, generator);
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("invocation", call).item("rows", generator.rows());
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return generator.rows();
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return super.computeSelfCost(planner, mq).multiplyBy(COST_FACTOR);
    }

    @Override
    public PlanNode toPlan() {
        return new PlanNode.Generate(generator);
    }
}
