package io.ferry.sql.fun;

import static org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER;
import static org.apache.calcite.sql.type.SqlTypeFamily.INTEGER;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import io.ferry.core.expr.Op;
import io.ferry.core.expr.OneRow;
import io.ferry.core.types.FerryType;

/**
 * String functions Ferry defines itself, where Calcite's libraries lack a form PostgreSQL and DuckDB users write
 * ({@code LTRIM(s, characters)}, {@code RTRIM(s, characters)}, {@code BTRIM(s[, characters])}), type one wrongly
 * (Calcite types LPAD and RPAD NOT NULL, so a NULL argument gave '' in Ferry's engine and {@code LPAD(NULL, 2) IS
 * NULL} could fold to FALSE), or answer differently from Ferry's kernels (Calcite's LEFT, RIGHT and LPAD count UTF-16
 * units, its SPLIT_PART reads an empty delimiter as PostgreSQL, its INITCAP ends a word at 'ü', its REGEXP_LIKE folds
 * ASCII case only): a projection that falls back to the row engine for another reason would answer differently from
 * one that does not. Ferry's kernels run them; the row engine calls the methods here, which run the same kernels on
 * one row, so both engines give one answer.
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
    public static final SqlOperator LEFT = function("LEFT", "left", CHARACTER, INTEGER);
    public static final SqlOperator RIGHT = function("RIGHT", "right", CHARACTER, INTEGER);
    public static final SqlOperator SPLIT_PART = function("SPLIT_PART", "splitPart", CHARACTER, CHARACTER, INTEGER);
    public static final SqlOperator INITCAP = function("INITCAP", "initcap", CHARACTER);
    public static final SqlOperator REGEXP_LIKE = predicate("REGEXP_LIKE", "regexpLike", CHARACTER, CHARACTER);
    public static final SqlOperator REGEXP_LIKE_FLAGS = predicate("REGEXP_LIKE", "regexpLikeFlags", CHARACTER,
            CHARACTER, CHARACTER);
    public static final SqlOperator REGEXP_REPLACE = function("REGEXP_REPLACE", "regexpReplace", CHARACTER,
            CHARACTER, CHARACTER);
    public static final SqlOperator REGEXP_REPLACE_FLAGS = function("REGEXP_REPLACE", "regexpReplaceFlags",
            CHARACTER, CHARACTER, CHARACTER, CHARACTER);

    /** Calcite's operators that those above take the place of. */
    private static final List<SqlOperator> REPLACED = List.of(SqlLibraryOperators.LPAD, SqlLibraryOperators.RPAD,
            SqlLibraryOperators.LEFT, SqlLibraryOperators.RIGHT, SqlLibraryOperators.SPLIT_PART,
            SqlStdOperatorTable.INITCAP, SqlLibraryOperators.REGEXP_LIKE, SqlLibraryOperators.REGEXP_REPLACE_PG_3,
            SqlLibraryOperators.REGEXP_REPLACE_PG_4);

    private StringFunctions() {
    }

    static List<SqlOperator> all() {
        return List.of(LTRIM, RTRIM, BTRIM_SPACES, BTRIM, LPAD_SPACES, LPAD, RPAD_SPACES, RPAD, LEFT, RIGHT,
                SPLIT_PART, INITCAP, REGEXP_LIKE, REGEXP_LIKE_FLAGS, REGEXP_REPLACE, REGEXP_REPLACE_FLAGS);
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
        return function(name, method, ReturnTypes.ARG0_NULLABLE_VARYING, operands);
    }

    private static SqlOperator predicate(String name, String method, SqlTypeFamily... operands) {
        return function(name, method, ReturnTypes.BOOLEAN_NULLABLE, operands);
    }

    private static SqlOperator function(String name, String method, SqlReturnTypeInference returns,
            SqlTypeFamily... operands) {
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                returns, InferTypes.FIRST_KNOWN,
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

    public static String left(String s, Integer count) {
        return call(Op.LEFT, s, count);
    }

    public static String right(String s, Integer count) {
        return call(Op.RIGHT, s, count);
    }

    public static String splitPart(String s, String delimiter, Integer field) {
        return call(Op.SPLIT_PART, s, delimiter, field);
    }

    public static String initcap(String s) {
        return call(Op.INITCAP, s);
    }

    public static Boolean regexpLike(String s, String pattern) {
        return regexpLikeFlags(s, pattern, "");
    }

    public static Boolean regexpLikeFlags(String s, String pattern, String flags) {
        Object match = OneRow.eval(Op.REGEXP_LIKE, FerryType.BOOLEAN, s, pattern, flags);
        return match == null ? null : (Long) match == 1;
    }

    public static String regexpReplace(String s, String pattern, String replacement) {
        return call(Op.REGEXP_REPLACE, s, pattern, replacement, "");
    }

    public static String regexpReplaceFlags(String s, String pattern, String replacement, String flags) {
        return call(Op.REGEXP_REPLACE, s, pattern, replacement, flags);
    }
}
