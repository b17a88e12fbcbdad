package io.ferry.sql.fun;

import java.util.Locale;
import java.util.Objects;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.util.Optionality;

import io.ferry.core.exec.AggCall.AggKind;

/**
 * A quantile of one argument with its fraction and order bound in: what {@code MEDIAN(x)} is from the start, and what
 * {@code QuantileCallsRule} makes of {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x)}, {@code PERCENTILE_DISC}
 * and {@code APPROX_PERCENTILE(x, f)}, whose fraction Calcite leaves in a projected column. Only Ferry's engine
 * computes it. Two calls with different fractions are different functions: the fraction is part of the equality and
 * of the digest, so that the planner never takes one for the other.
 */
public final class QuantileAggFunction extends SqlAggFunction {
    /** {@code MEDIAN(x)}: PERCENTILE_CONT(0.5), as DuckDB and Oracle define it, typed as it. */
    public static final QuantileAggFunction MEDIAN = new QuantileAggFunction("MEDIAN", AggKind.PERCENTILE_CONT, 0.5,
            false);

    private final AggKind kind;
    private final double fraction;
    private final boolean descending;

    private QuantileAggFunction(String name, AggKind kind, double fraction, boolean descending) {
        super(name, null, SqlKind.OTHER_FUNCTION, returnType(kind), null, OperandTypes.NUMERIC,
                SqlFunctionCategory.NUMERIC);
        if (!kind.quantile()) {
            throw new IllegalArgumentException(kind + " is no quantile");
        }
        this.kind = kind;
        this.fraction = fraction;
        this.descending = descending;
    }

    /** The quantile {@code kind} at {@code fraction} of the argument ordered ascending or descending. */
    public static QuantileAggFunction of(AggKind kind, double fraction, boolean descending) {
        return new QuantileAggFunction(kind.name(), kind, fraction, descending);
    }

    /**
     * {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x)} typed as DuckDB types it: a DECIMAL interpolates in its
     * own type, every other number as a DOUBLE. Calcite's gives x's type, so the median of the INTEGERs 1 and 2 was an
     * INTEGER; this one takes its place before validation (FerryPrepare).
     */
    public static final SqlAggFunction PERCENTILE_CONT = SqlBasicAggFunction.create(SqlKind.PERCENTILE_CONT,
            opBinding -> interpolatedType(opBinding.getTypeFactory(), opBinding.getCollationType()),
            SqlStdOperatorTable.PERCENTILE_CONT.getOperandTypeChecker())
            .withFunctionType(SqlFunctionCategory.SYSTEM)
            .withGroupOrder(Optionality.MANDATORY)
            .withPercentile(true);

    /** A DISC quantile is one of the argument's values; CONT's interpolates (above); an estimate is a DOUBLE. */
    private static SqlReturnTypeInference returnType(AggKind kind) {
        return switch (kind) {
            case PERCENTILE_DISC -> ReturnTypes.ARG0.andThen(SqlTypeTransforms.FORCE_NULLABLE);
            case PERCENTILE_CONT -> opBinding -> interpolatedType(opBinding.getTypeFactory(),
                    opBinding.getOperandType(0));
            default -> ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(SqlTypeTransforms.FORCE_NULLABLE);
        };
    }

    private static RelDataType interpolatedType(RelDataTypeFactory types, RelDataType ordered) {
        RelDataType type = ordered.getSqlTypeName() == SqlTypeName.DECIMAL ? ordered
                : types.createSqlType(SqlTypeName.DOUBLE);
        return types.createTypeWithNullability(type, true);
    }

    public AggKind kind() {
        return kind;
    }

    public double fraction() {
        return fraction;
    }

    public boolean descending() {
        return descending;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuantileAggFunction q && q.getName().equals(getName()) && q.kind == kind
                && Double.compare(q.fraction, fraction) == 0 && q.descending == descending;
    }

    @Override
    public int hashCode() {
        return Objects.hash(getName(), kind, fraction, descending);
    }

    @Override
    public String toString() {
        return getName().toLowerCase(Locale.ROOT) + "[" + fraction + (descending ? " desc" : "") + "]";
    }
}
