package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

import io.ferry.core.expr.DatePart;
import io.ferry.sql.fun.DateFunctions;
import io.ferry.sql.translate.RexTranslator;

/**
 * EXTRACT from a DATE or TIMESTAMP, where Calcite's row engine computes it, becomes Ferry's DATE_PART on the value
 * ({@link DateFunctions#DATE_PART}, the kernel Ferry's own EXTRACT runs), as RexTranslator translates it.
 *
 * <p>Calcite's code generation failed such a projection with "Unable to implement EnumerableCalc" (a
 * NullPointerException, "timeUnitRange") where one unit was read both outside a CASE branch and inside one:
 * {@code COALESCE(EXTRACT(MONTH FROM a.dt), EXTRACT(MONTH FROM b.ts))} above a nested-loop join (fuzzer, seed 44
 * query 2194, where a semi-join on TRUE put the projection in the row engine). The generator caches a literal's
 * translation by value and hands a CASE branch that cached variable, but not the constant behind it, so the second
 * EXTRACT no longer finds its unit. A unit spelled as a string is an ordinary argument, which the cache serves
 * right.
 */
public final class RowEngineExtracts {
    public static final Program PROGRAM = BottomUp.program(RowEngineExtracts::rewrite);

    private RowEngineExtracts() {
    }

    static RelNode rewrite(RelNode rel) {
        if (!(rel instanceof EnumerableCalc calc)) {
            return rel;
        }
        RexProgram program = calc.getProgram();
        RexBuilder rex = calc.getCluster().getRexBuilder();
        RexShuttle datePart = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                return visited.getKind() == SqlKind.EXTRACT ? asDatePart(rex, visited) : visited;
            }
        };
        List<RexNode> expanded = program.expandList(program.getProjectList());
        RexNode filter = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        List<RexNode> projects = expanded.stream().map(e -> e.accept(datePart)).toList();
        RexNode condition = filter == null ? null : filter.accept(datePart);
        if (projects.equals(expanded) && Objects.equals(condition, filter)) {
            return rel;
        }
        return EnumerableCalc.create(calc.getInput(),
                RexProgram.create(calc.getInput().getRowType(), projects, condition, calc.getRowType(), rex));
    }

    private static RexNode asDatePart(RexBuilder rex, RexCall extract) {
        RexNode value = extract.getOperands().get(1);
        SqlTypeName from = value.getType().getSqlTypeName();
        if (!(extract.getOperands().get(0) instanceof RexLiteral unitLiteral)
                || !(unitLiteral.getValue() instanceof TimeUnitRange unit)
                || (from != SqlTypeName.DATE && from != SqlTypeName.TIMESTAMP)) {
            return extract;
        }
        DatePart part = RexTranslator.datePartOf(unit);
        if (part == null) {
            return extract;
        }
        RelDataTypeFactory types = rex.getTypeFactory();
        boolean nullable = value.getType().isNullable();
        RelDataType millis = types.createTypeWithNullability(types.createSqlType(SqlTypeName.TIMESTAMP, 3), nullable);
        RelDataType bigint = types.createTypeWithNullability(types.createSqlType(SqlTypeName.BIGINT), nullable);
        RexNode result = rex.makeCall(bigint, DateFunctions.DATE_PART,
                List.of(rex.makeLiteral(part.name().toLowerCase(Locale.ROOT)), rex.makeCast(millis, value)));
        if (unit == TimeUnitRange.DOW) {
            // Calcite's DOW counts from Sunday = 1, DATE_PART's from 0 (as RexTranslator's EXTRACT)
            result = rex.makeCall(SqlStdOperatorTable.PLUS, result, rex.makeBigintLiteral(BigDecimal.ONE));
        }
        return result.getType().equals(extract.getType()) ? result : rex.makeAbstractCast(extract.getType(), result);
    }
}
