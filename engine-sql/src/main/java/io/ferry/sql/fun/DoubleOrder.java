package io.ferry.sql.fun;

import java.util.List;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * SQL's order of DOUBLEs for Calcite's row engine: NaN equals NaN and is greater than every other value, infinity
 * included, and -0.0 equals 0.0, as in PostgreSQL, DuckDB and Ferry's own kernels. The row engine compares DOUBLEs
 * with Java's operators, for which {@code NaN > 1} and {@code NaN = NaN} are false; {@code io.ferry.sql.rel.
 * RowEngineDoubleComparisons} writes each of its comparisons of DOUBLEs as a comparison of {@link #COMPARE}'s
 * result with 0. Never seen by Ferry's translator: only the row engine's calculations get it.
 */
public final class DoubleOrder {
    /** {@code SQL_COMPARE(x, y)}: -1, 0 or 1 as x sorts before, with or after y; NULL when either is NULL. */
    public static final SqlOperator COMPARE = new SqlUserDefinedFunction(
            new SqlIdentifier("SQL_COMPARE", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.INTEGER_NULLABLE,
            InferTypes.FIRST_KNOWN, OperandTypes.operandMetadata(List.of(SqlTypeFamily.NUMERIC,
                    SqlTypeFamily.NUMERIC), types -> List.of(), i -> "arg" + i, i -> false),
            ScalarFunctionImpl.create(DoubleOrder.class, "compare"));

    private DoubleOrder() {
    }

    public static Integer compare(Double x, Double y) {
        if (x == null || y == null) {
            return null;
        }
        double a = x;
        double b = y;
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        // equal (-0.0 and 0.0 too), or at least one NaN: NaN after everything else
        return Boolean.compare(Double.isNaN(a), Double.isNaN(b));
    }
}
