package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
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

import io.ferry.core.expr.OneRow;
import io.ferry.core.types.FerryType;

/**
 * CASTs that Calcite's row engine computes by cutting digits get Ferry's rounding there too: a DOUBLE or DECIMAL to
 * an INTEGER, a BIGINT or a DECIMAL of a smaller scale. Calcite cut {@code CAST(2.259E0 AS DECIMAL(12, 2))} to 2.25
 * and {@code CAST(2.5 AS INTEGER)} to 2 where a projection ran in the row engine (above a UNION or a window), while
 * Ferry's kernels and DuckDB round them to 2.26 and 3. Each such CAST in a row-engine calculation becomes a call of
 * Ferry's cast kernel on the one value ({@link OneRow#cast}), so both engines give one answer.
 */
public final class RoundingCasts {
    public static final Program PROGRAM = BottomUp.program(RoundingCasts::rewrite);

    private static final SqlOperator TO_DECIMAL = function("FERRY_TO_DECIMAL", "toDecimal");
    private static final SqlOperator TO_INTEGER = function("FERRY_TO_INTEGER", "toInteger");
    private static final SqlOperator TO_BIGINT = function("FERRY_TO_BIGINT", "toBigint");

    private RoundingCasts() {
    }

    static RelNode rewrite(RelNode rel) {
        if (!(rel instanceof EnumerableCalc calc)) {
            return rel;
        }
        RexProgram program = calc.getProgram();
        RexBuilder rex = calc.getCluster().getRexBuilder();
        RexShuttle rounding = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                return visited.getKind() == SqlKind.CAST ? rounded(rex, visited) : visited;
            }
        };
        List<RexNode> expanded = program.expandList(program.getProjectList());
        RexNode filter = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        List<RexNode> projects = expanded.stream().map(e -> e.accept(rounding)).toList();
        RexNode condition = filter == null ? null : filter.accept(rounding);
        if (projects.equals(expanded) && Objects.equals(condition, filter)) {
            return rel;
        }
        return EnumerableCalc.create(calc.getInput(),
                RexProgram.create(calc.getInput().getRowType(), projects, condition, calc.getRowType(), rex));
    }

    private static RexNode rounded(RexBuilder rex, RexCall cast) {
        RelDataType from = cast.getOperands().get(0).getType();
        RelDataType to = cast.getType();
        boolean approximate = SqlTypeName.APPROX_TYPES.contains(from.getSqlTypeName());
        boolean decimal = from.getSqlTypeName() == SqlTypeName.DECIMAL;
        if (!approximate && !decimal) {
            return cast;
        }
        RexNode value = approximate ? rex.makeCast(rex.getTypeFactory().createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), from.isNullable()), cast.getOperands().get(0))
                : cast.getOperands().get(0);
        return switch (to.getSqlTypeName()) {
            case INTEGER -> rex.makeCall(to, TO_INTEGER, List.of(value));
            case BIGINT -> rex.makeCall(to, TO_BIGINT, List.of(value));
            case DECIMAL -> decimal && to.getScale() >= from.getScale() ? cast
                    : rex.makeCall(to, TO_DECIMAL, List.of(value,
                            rex.makeExactLiteral(BigDecimal.valueOf(to.getPrecision())),
                            rex.makeExactLiteral(BigDecimal.valueOf(to.getScale()))));
            default -> cast;
        };
    }

    private static SqlOperator function(String name, String method) {
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                ReturnTypes.ARG0, InferTypes.FIRST_KNOWN,
                OperandTypes.operandMetadata(List.of(SqlTypeFamily.ANY), types -> List.of(), i -> "arg" + i, i -> true),
                ScalarFunctionImpl.create(RoundingCasts.class, method));
    }

    public static BigDecimal toDecimal(Object value, int precision, int scale) {
        return OneRow.castToDecimal(value, FerryType.decimal(precision, scale));
    }

    public static Integer toInteger(Object value) {
        Long v = OneRow.cast(value, FerryType.INTEGER);
        return v == null ? null : v.intValue();
    }

    public static Long toBigint(Object value) {
        return OneRow.cast(value, FerryType.BIGINT);
    }
}
