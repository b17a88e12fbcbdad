package io.ferry.sql.fun;

import java.util.List;
import java.util.Locale;

import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import io.ferry.core.exec.AggCall.AggKind;

/**
 * The two-variable statistics of SQL:2016 that Calcite's standard library lacks: {@code CORR(y, x)},
 * {@code REGR_SLOPE}, {@code REGR_INTERCEPT}, {@code REGR_R2}, {@code REGR_AVGX}, {@code REGR_AVGY} and
 * {@code REGR_SXY}, as DOUBLE (COVAR_*, REGR_COUNT, REGR_SXX and REGR_SYY are Calcite's). Only Ferry's engine
 * computes them ({@link io.ferry.core.exec.AggCall.AggKind#CO_MOMENTS}).
 */
public final class BivariateAggFunction extends SqlAggFunction {
    private final AggKind kind;

    private BivariateAggFunction(AggKind kind) {
        super(kind.name(), null, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(SqlTypeName.DOUBLE).andThen(SqlTypeTransforms.FORCE_NULLABLE), null,
                OperandTypes.NUMERIC_NUMERIC, SqlFunctionCategory.NUMERIC);
        this.kind = kind;
    }

    /** The engine's aggregate this function is. */
    public AggKind kind() {
        return kind;
    }

    static List<BivariateAggFunction> all() {
        return List.of(AggKind.CORR, AggKind.REGR_SLOPE, AggKind.REGR_INTERCEPT, AggKind.REGR_R2, AggKind.REGR_AVGX,
                AggKind.REGR_AVGY, AggKind.REGR_SXY).stream().map(BivariateAggFunction::new).toList();
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
