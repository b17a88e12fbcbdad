package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.List;

import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.Program;

import io.ferry.core.expr.Decimals;

/**
 * AVG of an exact number where Calcite's row engine aggregates: Calcite's engine has no AVG, so the planner reduces
 * it to {@code CAST(SUM(x) AS DOUBLE) / COUNT(x)}, which rounds a sum past 2^53 before dividing it. Equal means of
 * groups of different sizes then came out a unit apart, where Ferry's own aggregate and DuckDB answer one value, and a
 * DISTINCT kept both (fuzzer, seed 311 query 2072). Each such quotient over an {@link EnumerableAggregate}'s SUM and
 * COUNT of the same values becomes {@code FERRY_AVERAGE(sum, count)}, the exact sum divided by the count and rounded
 * once ({@link Decimals#average}), as Ferry's aggregate divides.
 */
public final class RowEngineAverages {
    public static final Program PROGRAM = BottomUp.program(RowEngineAverages::rewrite);

    private static final SqlOperator AVERAGE = new SqlUserDefinedFunction(
            new SqlIdentifier("FERRY_AVERAGE", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
            ReturnTypes.DOUBLE_NULLABLE, InferTypes.FIRST_KNOWN,
            OperandTypes.operandMetadata(List.of(SqlTypeFamily.ANY, SqlTypeFamily.ANY), types -> List.of(),
                    i -> "arg" + i, i -> true),
            ScalarFunctionImpl.create(RowEngineAverages.class, "average"));

    private RowEngineAverages() {
    }

    static RelNode rewrite(RelNode rel) {
        if (!(rel instanceof EnumerableCalc calc) || !(calc.getInput() instanceof EnumerableAggregate aggregate)) {
            return rel;
        }
        RexProgram program = calc.getProgram();
        RexBuilder rex = calc.getCluster().getRexBuilder();
        RexShuttle averages = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                return isAverage(aggregate, visited) ? rex.makeCall(visited.getType(), AVERAGE,
                        List.of(((RexCall) visited.getOperands().get(0)).getOperands().get(0),
                                visited.getOperands().get(1))) : visited;
            }
        };
        List<RexNode> expanded = program.expandList(program.getProjectList());
        List<RexNode> projects = expanded.stream().map(e -> e.accept(averages)).toList();
        if (projects.equals(expanded)) {
            return rel;
        }
        RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        return EnumerableCalc.create(calc.getInput(),
                RexProgram.create(calc.getInput().getRowType(), projects, condition, calc.getRowType(), rex));
    }

    /** {@code CAST(sum AS DOUBLE) / count} over the aggregate's SUM and COUNT of one exact argument. */
    private static boolean isAverage(EnumerableAggregate aggregate, RexCall call) {
        if (call.getKind() != SqlKind.DIVIDE || call.getType().getSqlTypeName() != SqlTypeName.DOUBLE
                || !(call.getOperands().get(0) instanceof RexCall cast) || cast.getKind() != SqlKind.CAST
                || !(cast.getOperands().get(0) instanceof RexInputRef sumRef)
                || !(call.getOperands().get(1) instanceof RexInputRef countRef)
                || !SqlTypeName.EXACT_TYPES.contains(sumRef.getType().getSqlTypeName())) {
            return false;
        }
        AggregateCall sum = call(aggregate, sumRef.getIndex());
        AggregateCall count = call(aggregate, countRef.getIndex());
        return sum != null && count != null && sum.getAggregation().getKind() == SqlKind.SUM
                && count.getAggregation().getKind() == SqlKind.COUNT && sum.getArgList().equals(count.getArgList())
                && sum.filterArg == count.filterArg && sum.isDistinct() == count.isDistinct();
    }

    private static AggregateCall call(EnumerableAggregate aggregate, int field) {
        int i = field - aggregate.getGroupCount();
        return i >= 0 && i < aggregate.getAggCallList().size() ? aggregate.getAggCallList().get(i) : null;
    }

    /** The row engine's call: an exact sum (a BigDecimal, or a Long or Integer) over a count, rounded once. */
    public static Double average(Object sum, Object count) {
        if (sum == null || count == null || ((Number) count).longValue() == 0) {
            return null;
        }
        long n = ((Number) count).longValue();
        return sum instanceof BigDecimal d ? Decimals.average(d, n) : Decimals.average(((Number) sum).longValue(), 0, n);
    }
}
