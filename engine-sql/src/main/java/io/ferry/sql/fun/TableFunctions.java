package io.ferry.sql.fun;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.gen.RowGenerator;
import io.ferry.core.gen.Series;
import io.ferry.core.gen.SkewWorkload;
import io.ferry.core.types.FerryType;
import io.ferry.sql.TypeMapping;

/**
 * Table functions, written in FROM like a table ({@code FROM generate_series(1, 10)}, or with TABLE(…)), whose rows
 * a {@link RowGenerator} makes in Ferry's engine, in parallel morsels:
 * <ul>
 *   <li>{@code generate_series(start, stop [, step])}: PostgreSQL's and DuckDB's series of BIGINTs, stop included;
 *   <li>{@code skew_workload(table, spec)}: table a, b, c or d of the I-Store skew paper's workload, the rows
 *       {@code bin/ferry load --generate skew:spec} stores ({@link SkewWorkload.Spec#parseRows}).
 * </ul>
 * Arguments are constants: the generator is made when the statement is validated, so a bad argument fails there,
 * with its SQLSTATE, and the plan knows how many rows come.
 */
public final class TableFunctions {
    public static final SqlFunction GENERATE_SERIES = new GeneratorFunction("GENERATE_SERIES",
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER)));
    public static final SqlFunction SKEW_WORKLOAD = new GeneratorFunction("SKEW_WORKLOAD",
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER));

    private TableFunctions() {
    }

    static List<SqlOperator> all() {
        return List.of(GENERATE_SERIES, SKEW_WORKLOAD);
    }

    /** Whether {@code op} is one of these functions. */
    public static boolean isGenerator(SqlOperator op) {
        return op instanceof GeneratorFunction;
    }

    /** The generator for a call of {@code function} with these constant arguments (numbers or strings). */
    public static RowGenerator generator(SqlOperator function, List<Object> args) {
        if (function == GENERATE_SERIES) {
            return new Series(number(args, 0), number(args, 1), args.size() > 2 ? number(args, 2) : 1);
        }
        String table = ((String) args.get(0)).trim().toLowerCase(Locale.ROOT);
        return new SkewWorkload(SkewWorkload.Spec.parseRows((String) args.get(1))).rows(table);
    }

    private static long number(List<Object> args, int i) {
        try {
            return ((BigDecimal) args.get(i)).longValueExact();
        } catch (ArithmeticException e) {
            throw new FerryException(SqlStates.NUMERIC_OUT_OF_RANGE, "generate_series: argument " + (i + 1)
                    + " (" + args.get(i) + ") is not a BIGINT; give whole numbers from -2^63 to 2^63-1");
        }
    }

    /** A numeric operand, or a string literal the validator casts to one ({@code generate_series('3', 5)}). */
    private static BigDecimal number(SqlOperatorBinding binding, int i) {
        Object value = binding.getOperandLiteralValue(i, Object.class);
        if (value instanceof BigDecimal d) {
            return d;
        }
        String text = text(value);
        try {
            return new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new FerryException(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, "argument " + (i + 1) + " of "
                    + binding.getOperator().getName().toLowerCase(Locale.ROOT) + ", '" + text + "', is not a number");
        }
    }

    /** A string operand; a number the validator casts to one reads as it is written. */
    private static String text(Object value) {
        return value instanceof NlsString s ? s.getValue() : String.valueOf(value);
    }

    /** A function whose operands must be constants and whose rows a generator makes. */
    private static final class GeneratorFunction extends SqlFunction implements SqlTableFunction {
        GeneratorFunction(String name, SqlOperandTypeChecker operands) {
            super(name, SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, null, operands,
                    SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
        }

        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return this::rowType;
        }

        private RelDataType rowType(SqlOperatorBinding binding) {
            RowGenerator generator = generator(this, constants(binding));
            RelDataTypeFactory types = binding.getTypeFactory();
            RelDataTypeFactory.Builder row = types.builder();
            for (int c = 0; c < generator.types().size(); c++) {
                FerryType type = generator.types().get(c);
                row.add(generator.names().get(c), TypeMapping.toCalcite(types, type, false));
            }
            return row.build();
        }

        /** Each operand's value: a BigDecimal for a number, a String for a string. */
        private List<Object> constants(SqlOperatorBinding binding) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < binding.getOperandCount(); i++) {
                boolean literal = binding.isOperandLiteral(i, true);
                Object value = literal ? binding.getOperandLiteralValue(i, Object.class) : null;
                if (!literal || value == null) {
                    throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, getName().toLowerCase(Locale.ROOT)
                            + " takes constants: argument " + (i + 1) + " must be a literal, not a column, a "
                            + "parameter, an expression, a subquery or NULL");
                }
                boolean number = SqlTypeName.NUMERIC_TYPES.contains(binding.getOperandType(i).getSqlTypeName());
                out.add(number ? number(binding, i) : text(binding.getOperandLiteralValue(i, Object.class)));
            }
            return out;
        }
    }
}
