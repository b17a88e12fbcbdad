package io.ferry.sql.fun;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import io.ferry.core.FerryException;

/**
 * MOD and {@code %} of a DOUBLE operand: a DOUBLE, the remainder of C's fmod (the sign of the dividend), as DuckDB
 * answers. Calcite's MOD takes exact numbers only, cast DOUBLE operands to DECIMAL(18, 15), and so kept 15 digits
 * after the point and refused operands of 1000 or more (22003). Exact operands are typed as Calcite types them (the
 * divisor's type). A zero divisor is an error (22012), as for integers and in PostgreSQL.
 *
 * <p>The validator takes {@link #MOD} and {@link #PERCENT} in place of Calcite's (it would look Calcite's up again by
 * name, and cast). Converted to relational algebra ({@link #converted}), an exact remainder is Calcite's MOD again, and
 * a DOUBLE one {@link #DOUBLE_MOD}, which Ferry's kernels compute as MOD of DOUBLEs and the row engine with
 * {@link #mod(Double, Double)}.
 */
public final class Remainders {
    private static final SqlReturnTypeInference TYPE = binding -> {
        RelDataType x = binding.getOperandType(0);
        RelDataType y = binding.getOperandType(1);
        if (!SqlTypeUtil.isApproximateNumeric(x) && !SqlTypeUtil.isApproximateNumeric(y)) {
            return ReturnTypes.NULLABLE_MOD.inferReturnType(binding);
        }
        return binding.getTypeFactory().createTypeWithNullability(
                binding.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), x.isNullable() || y.isNullable());
    };

    public static final SqlOperator MOD = new SqlFunction("MOD", SqlKind.MOD, TYPE, null, OperandTypes.NUMERIC_NUMERIC,
            SqlFunctionCategory.NUMERIC) {
        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            return validateOperands(validator, scope, call);
        }
    };
    public static final SqlOperator PERCENT = new SqlBinaryOperator(SqlStdOperatorTable.PERCENT_REMAINDER.getName(),
            SqlKind.MOD, SqlStdOperatorTable.PERCENT_REMAINDER.getLeftPrec(), true, TYPE, null,
            OperandTypes.NUMERIC_NUMERIC) {
        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            return validateOperands(validator, scope, call);
        }
    };
    static final SqlOperator DOUBLE_MOD = new SqlUserDefinedFunction(new SqlIdentifier("MOD", SqlParserPos.ZERO),
            SqlKind.MOD, ReturnTypes.DOUBLE_NULLABLE, InferTypes.FIRST_KNOWN,
            OperandTypes.operandMetadata(List.of(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC), types -> List.of(),
                    i -> "arg" + i, i -> false),
            ScalarFunctionImpl.create(Remainders.class, "mod"));

    private Remainders() {
    }

    /** {@code converted} as Calcite's MOD, or, where it is a DOUBLE remainder, as {@link #DOUBLE_MOD} of DOUBLEs. */
    public static RexNode converted(RexBuilder rex, RexNode converted) {
        if (!(converted instanceof RexCall call) || call.getKind() != SqlKind.MOD) {
            return converted;
        }
        if (call.getType().getSqlTypeName() != SqlTypeName.DOUBLE) {
            return rex.makeCall(call.getType(), SqlStdOperatorTable.MOD, call.getOperands());
        }
        List<RexNode> operands = call.getOperands().stream().map(o -> rex.makeCast(
                rex.getTypeFactory().createTypeWithNullability(call.getType(), o.getType().isNullable()), o,
                true, false)).toList();
        return rex.makeCall(call.getType(), DOUBLE_MOD, operands);
    }

    /** The row engine's MOD of DOUBLEs: Java's {@code %} is C's fmod. */
    public static Double mod(Double x, Double y) {
        if (x == null || y == null) {
            return null;
        }
        if (y == 0) {
            throw FerryException.divisionByZero();
        }
        return x % y;
    }
}
