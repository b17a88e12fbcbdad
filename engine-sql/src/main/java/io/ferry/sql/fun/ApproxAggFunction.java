package io.ferry.sql.fun;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import io.ferry.core.exec.AggCall.AggKind;

/**
 * {@code APPROX_COUNT(*)}, {@code APPROX_SUM(x)}, {@code APPROX_AVG(x)} and their {@code _LOWER} and {@code _UPPER}
 * bounds: population estimates from a TABLESAMPLE with 95% confidence intervals, as DOUBLE columns
 * (docs/sampling.md). Only Ferry's engine computes them; they have no row-at-a-time implementation.
 */
public final class ApproxAggFunction extends SqlAggFunction {
    private final AggKind kind;

    private ApproxAggFunction(AggKind kind) {
        super(kind.name(), null, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(SqlTypeTransforms.FORCE_NULLABLE), null,
                kind.quantity() == AggKind.Quantity.COUNT ? OperandTypes.variadic(SqlOperandCountRanges.of(1))
                        : OperandTypes.NUMERIC,
                SqlFunctionCategory.NUMERIC);
        this.kind = kind;
    }

    /** The engine's aggregate this function is. */
    public AggKind kind() {
        return kind;
    }

    /** One function per APPROX_ kind. */
    static List<ApproxAggFunction> all() {
        List<ApproxAggFunction> out = new ArrayList<>();
        for (AggKind k : AggKind.values()) {
            if (k.approximate()) {
                out.add(new ApproxAggFunction(k));
            }
        }
        return out;
    }

    /** {@code APPROX_COUNT(*)}, like {@code COUNT(*)}: the star is no column to derive a type from. */
    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
        if (kind.quantity() == AggKind.Quantity.COUNT && call.operandCount() == 1
                && call.operand(0) instanceof SqlIdentifier id && id.isStar()) {
            return validator.getTypeFactory().createTypeWithNullability(
                    validator.getTypeFactory().createSqlType(SqlTypeName.DOUBLE), true);
        }
        return super.deriveType(validator, scope, call);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
