package io.ferry.sql.fun;

import java.util.List;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.schema.impl.AggregateFunctionImpl;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.util.Optionality;

/**
 * SQL's order of DOUBLEs for Calcite's row engine: NaN equals NaN and is greater than every other value, infinity
 * included, and -0.0 equals 0.0, as in PostgreSQL, DuckDB and Ferry's own kernels. The row engine compares DOUBLEs
 * with Java's operators, for which {@code NaN > 1} and {@code NaN = NaN} are false; {@code io.ferry.sql.rel.
 * RowEngineDoubleOrder} writes each of its comparisons of DOUBLEs as a comparison of {@link #COMPARE}'s result with
 * 0, and its MIN and MAX of DOUBLEs as {@link #MIN} and {@link #MAX}. Never seen by Ferry's translator: only the row
 * engine's plans get them.
 */
public final class DoubleOrder {
    /** {@code SQL_COMPARE(x, y)}: -1, 0 or 1 as x sorts before, with or after y; NULL when either is NULL. */
    public static final SqlOperator COMPARE = new SqlUserDefinedFunction(
            new SqlIdentifier("SQL_COMPARE", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.INTEGER_NULLABLE,
            InferTypes.FIRST_KNOWN, OperandTypes.operandMetadata(List.of(SqlTypeFamily.NUMERIC,
                    SqlTypeFamily.NUMERIC), types -> List.of(), i -> "arg" + i, i -> false),
            ScalarFunctionImpl.create(DoubleOrder.class, "compare"));

    /**
     * MIN of DOUBLEs in SQL's order, for the row engine's aggregates. Calcite's started from Double.MAX_VALUE and
     * compared with Java's operators: the MIN of a group of +Infinity was 1.7976931348623157E308, and a NaN never
     * won a MAX. NaN, the greatest value, is MIN's starting point; Calcite gives NULL where no value was added.
     */
    public static final class Min {
        public double init() {
            return Double.NaN;
        }

        public double add(double min, double value) {
            return compare(value, min) < 0 ? value : min;
        }

        public double merge(double a, double b) {
            return add(a, b);
        }

        public double result(double min) {
            return min;
        }
    }

    /** MAX of DOUBLEs in SQL's order (see {@link Min}), from -Infinity, the least value. */
    public static final class Max {
        public double init() {
            return Double.NEGATIVE_INFINITY;
        }

        public double add(double max, double value) {
            return compare(value, max) > 0 ? value : max;
        }

        public double merge(double a, double b) {
            return add(a, b);
        }

        public double result(double max) {
            return max;
        }
    }

    @SuppressWarnings("deprecation")
    public static final SqlUserDefinedAggFunction MIN = aggregate("MIN", Min.class);
    @SuppressWarnings("deprecation")
    public static final SqlUserDefinedAggFunction MAX = aggregate("MAX", Max.class);

    private DoubleOrder() {
    }

    @SuppressWarnings("deprecation")
    private static SqlUserDefinedAggFunction aggregate(String name, Class<?> implementation) {
        return new SqlUserDefinedAggFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
                ReturnTypes.ARG0_NULLABLE_IF_EMPTY, InferTypes.FIRST_KNOWN, OperandTypes.NUMERIC,
                AggregateFunctionImpl.create(implementation), false, false, Optionality.FORBIDDEN,
                new JavaTypeFactoryImpl());
    }

    public static Integer compare(Double x, Double y) {
        return x == null || y == null ? null : compare(x.doubleValue(), y.doubleValue());
    }

    static int compare(double a, double b) {
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
