package io.ferry.sql.fun;

import static org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER;
import static org.apache.calcite.sql.type.SqlTypeFamily.INTEGER;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import io.ferry.core.expr.Op;
import io.ferry.core.expr.OneRow;
import io.ferry.core.types.FerryType;

/**
 * String functions Ferry defines itself, where Calcite's libraries lack a form PostgreSQL and DuckDB users write
 * ({@code LTRIM(s, characters)}, {@code RTRIM(s, characters)}, {@code BTRIM(s[, characters])}) or type one wrongly
 * (Calcite types LPAD and RPAD NOT NULL, so a NULL argument gave '' in Ferry's engine and {@code LPAD(NULL, 2) IS
 * NULL} could fold to FALSE). Ferry's kernels run them; the row engine calls the methods here, which run the same
 * kernels on one row.
 */
public final class StringFunctions {
    public static final SqlOperator LTRIM = function("LTRIM", "ltrim", CHARACTER, CHARACTER);
    public static final SqlOperator RTRIM = function("RTRIM", "rtrim", CHARACTER, CHARACTER);
    public static final SqlOperator BTRIM_SPACES = function("BTRIM", "btrimSpaces", CHARACTER);
    public static final SqlOperator BTRIM = function("BTRIM", "btrim", CHARACTER, CHARACTER);
    public static final SqlOperator LPAD_SPACES = function("LPAD", "lpadSpaces", CHARACTER, INTEGER);
    public static final SqlOperator LPAD = function("LPAD", "lpad", CHARACTER, INTEGER, CHARACTER);
    public static final SqlOperator RPAD_SPACES = function("RPAD", "rpadSpaces", CHARACTER, INTEGER);
    public static final SqlOperator RPAD = function("RPAD", "rpad", CHARACTER, INTEGER, CHARACTER);

    /** Calcite's operators that those above take the place of. */
    private static final Set<SqlOperator> REPLACED = Set.of(SqlLibraryOperators.LPAD, SqlLibraryOperators.RPAD);

    private StringFunctions() {
    }

    static List<SqlOperator> all() {
        return List.of(LTRIM, RTRIM, BTRIM_SPACES, BTRIM, LPAD_SPACES, LPAD, RPAD_SPACES, RPAD);
    }

    /** {@code libraries} without the operators Ferry defines in their place. */
    public static SqlOperatorTable withoutReplaced(SqlOperatorTable libraries) {
        return new SqlOperatorTable() {
            @Override
            public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
                    List<SqlOperator> operators, SqlNameMatcher matcher) {
                int before = operators.size();
                libraries.lookupOperatorOverloads(name, category, syntax, operators, matcher);
                operators.subList(before, operators.size()).removeIf(REPLACED::contains);
            }

            @Override
            public List<SqlOperator> getOperatorList() {
                List<SqlOperator> all = new ArrayList<>(libraries.getOperatorList());
                all.removeIf(REPLACED::contains);
                return Collections.unmodifiableList(all);
            }
        };
    }

    private static SqlOperator function(String name, String method, SqlTypeFamily... operands) {
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                ReturnTypes.ARG0_NULLABLE_VARYING, InferTypes.FIRST_KNOWN,
                OperandTypes.operandMetadata(List.of(operands), types -> List.of(), i -> "arg" + i, i -> false),
                ScalarFunctionImpl.create(StringFunctions.class, method));
    }

    private static String call(Op op, Object... args) {
        return (String) OneRow.eval(op, FerryType.VARCHAR, args);
    }

    public static String ltrim(String s, String chars) {
        return call(Op.LTRIM, s, chars);
    }

    public static String rtrim(String s, String chars) {
        return call(Op.RTRIM, s, chars);
    }

    public static String btrimSpaces(String s) {
        return call(Op.BTRIM, s, " ");
    }

    public static String btrim(String s, String chars) {
        return call(Op.BTRIM, s, chars);
    }

    public static String lpadSpaces(String s, Integer width) {
        return call(Op.LPAD, s, width, " ");
    }

    public static String lpad(String s, Integer width, String fill) {
        return call(Op.LPAD, s, width, fill);
    }

    public static String rpadSpaces(String s, Integer width) {
        return call(Op.RPAD, s, width, " ");
    }

    public static String rpad(String s, Integer width, String fill) {
        return call(Op.RPAD, s, width, fill);
    }
}
