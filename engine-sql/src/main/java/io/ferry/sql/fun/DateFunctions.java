package io.ferry.sql.fun;

import java.util.List;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import io.ferry.core.expr.DateKernels;
import io.ferry.core.expr.DatePart;

/**
 * DuckDB's {@code DATE_PART('unit', x)}, {@code DATE_TRUNC('unit', x)} and {@code DATEDIFF('unit', start, end)}, and
 * MySQL's {@code DATEDIFF(end, start)}, over TIMESTAMP(3) arguments (FerryPrepare casts DATEs to them, which changes no answer). Ferry's translator runs them
 * with its kernels; where a plan runs in Calcite's row engine, the static methods below call the same
 * {@link DateKernels}, so both engines agree. They are put in place by FerryPrepare before validation (Calcite's
 * PostgreSQL library has its own DATE_PART, which reads a unit as an interval keyword), not looked up by name.
 */
public final class DateFunctions {
    public static final SqlOperator DATE_PART = function("DATE_PART", "datePart", ReturnTypes.BIGINT_NULLABLE,
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.TIMESTAMP));
    public static final SqlOperator DATE_TRUNC = function("DATE_TRUNC", "dateTrunc",
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 3).andThen(SqlTypeTransforms.TO_NULLABLE),
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.TIMESTAMP));
    public static final SqlOperator DATEDIFF = function("DATEDIFF", "dateDiff", ReturnTypes.BIGINT_NULLABLE,
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP));

    /** MySQL's {@code DATEDIFF(end, start)}: the days from start to end, DATEDIFF('day', start, end). */
    public static final SqlOperator DATEDIFF_DAYS = function("DATEDIFF", "dateDiffDays", ReturnTypes.BIGINT_NULLABLE,
            List.of(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP));

    /**
     * {@code EXTRACT(EPOCH FROM i)} of a day-time interval: its seconds with their fraction, a DOUBLE as DuckDB
     * answers (PostgreSQL a NUMERIC); Calcite's EXTRACT would cut them to a BIGINT. FerryPrepare puts it in place.
     */
    public static final SqlOperator INTERVAL_EPOCH = function("EXTRACT", "intervalEpoch", ReturnTypes.DOUBLE_NULLABLE,
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTERVAL_DAY_TIME));

    /** INTERVAL DAY TO SECOND, nullable if either of two operands is. */
    private static final SqlReturnTypeInference DAY_TO_SECOND = binding -> {
        RelDataTypeFactory types = binding.getTypeFactory();
        RelDataType interval = types.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY,
                RelDataType.PRECISION_NOT_SPECIFIED, TimeUnit.SECOND, 3, SqlParserPos.ZERO));
        return types.createTypeWithNullability(interval,
                binding.getOperandType(0).isNullable() || binding.getOperandType(1).isNullable());
    };

    /**
     * {@code t1 - t2} of two TIMESTAMPs, or of a DATE and a TIMESTAMP: the interval between them, as PostgreSQL and
     * DuckDB answer, where Calcite asks for {@code (t1 - t2) DAY TO SECOND}. FerryPrepare puts it in place, operands
     * untouched (a GROUP BY must find the same expression in the select list), and converts it to
     * {@link #TIMESTAMP_DIFFERENCE} over TIMESTAMPs.
     */
    public static final SqlOperator TIMESTAMP_MINUS = new SqlBinaryOperator("-", SqlKind.MINUS, 40, true,
            DAY_TO_SECOND, InferTypes.FIRST_KNOWN, OperandTypes.family(SqlTypeFamily.DATETIME,
                    SqlTypeFamily.DATETIME)) {
        /** As {@link #function}'s: a lookup of "-" would put Calcite's MINUS back. */
        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            return ownType(this, validator, scope, call);
        }
    };

    /**
     * The interval from the second TIMESTAMP to the first, what {@link #TIMESTAMP_MINUS} becomes in relational
     * algebra. Not Calcite's MINUS_DATE: that is made with two operands but types itself by a third, so Calcite's
     * decorrelator, retyping a call whose operands it rewrote, failed on it (XX000, fuzzer seed 1902: the difference
     * of two MAXes in a correlated NOT IN).
     */
    public static final SqlOperator TIMESTAMP_DIFFERENCE = function("TIMESTAMP_DIFFERENCE", "timestampDifference",
            DAY_TO_SECOND, List.of(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP));

    private DateFunctions() {
    }

    /** {@link #TIMESTAMP_DIFFERENCE} in Calcite's row engine: milliseconds, what it holds a day-time interval as. */
    public static Long timestampDifference(Long end, Long start) {
        return end == null || start == null ? null : Math.subtractExact(end, start);
    }

    private static SqlOperator function(String name, String method, SqlReturnTypeInference returns,
            List<SqlTypeFamily> operands) {
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                returns, InferTypes.FIRST_KNOWN,
                OperandTypes.operandMetadata(operands, types -> List.of(), i -> "arg" + i, i -> false),
                ScalarFunctionImpl.create(DateFunctions.class, method)) {
            /** Checks the operands against this function itself: Calcite's lookup by name would find its own. */
            @Override
            public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
                return ownType(this, validator, scope, call);
            }
        };
    }

    /** {@code call}'s type, its operands checked against {@code operator} itself (not one a lookup by name finds). */
    private static RelDataType ownType(SqlOperator operator, SqlValidator validator, SqlValidatorScope scope,
            SqlCall call) {
        for (SqlNode operand : call.getOperandList()) {
            validator.deriveType(scope, operand);
        }
        return operator.validateOperands(validator, scope, call);
    }

    public static Long datePart(String unit, Long millis) {
        return unit == null || millis == null ? null
                : DateKernels.part(DatePart.of(unit, "DATE_PART", false), millis);
    }

    public static Long dateTrunc(String unit, Long millis) {
        return unit == null || millis == null ? null
                : DateKernels.trunc(DatePart.of(unit, "DATE_TRUNC", true), millis);
    }

    public static Long dateDiff(String unit, Long start, Long end) {
        return unit == null || start == null || end == null ? null
                : DateKernels.diff(DatePart.of(unit, "DATEDIFF", true), start, end);
    }

    public static Double intervalEpoch(String unit, Long millis) {
        return millis == null ? null : millis / 1000.0;
    }

    public static Long dateDiffDays(Long end, Long start) {
        return end == null || start == null ? null : DateKernels.diff(DatePart.DAY, start, end);
    }
}
