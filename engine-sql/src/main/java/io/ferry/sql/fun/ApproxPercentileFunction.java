package io.ferry.sql.fun;

import java.util.List;

import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * {@code APPROX_PERCENTILE(x, f)} (Trino's and Spark's name) and {@code APPROX_QUANTILE(x, f)} (DuckDB's): the
 * quantile at fraction {@code f}, a constant in [0, 1], of the numeric {@code x}, estimated from a KLL sketch, as a
 * DOUBLE. {@code QuantileCallsRule} binds the fraction into a {@link QuantileAggFunction}, which Ferry's engine runs.
 */
public final class ApproxPercentileFunction extends SqlAggFunction {
    private ApproxPercentileFunction(String name) {
        super(name, null, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(SqlTypeTransforms.FORCE_NULLABLE), null,
                OperandTypes.NUMERIC_UNIT_INTERVAL_NUMERIC_LITERAL, SqlFunctionCategory.NUMERIC);
    }

    static List<ApproxPercentileFunction> all() {
        return List.of(new ApproxPercentileFunction("APPROX_PERCENTILE"),
                new ApproxPercentileFunction("APPROX_QUANTILE"));
    }
}
