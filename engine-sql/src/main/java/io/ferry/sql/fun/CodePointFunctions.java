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
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import io.ferry.core.expr.StringKernels;

/**
 * CHAR_LENGTH, SUBSTRING and POSITION counting characters (code points), for the parts of a plan that run in
 * Calcite's row engine. Calcite's own implementations count UTF-16 units, so {@code CHAR_LENGTH('🦆')} was 2 there
 * and 1 in Ferry's kernels, and a SUBSTRING could split a character in half. {@code CodePointStrings} puts
 * these in place of Calcite's operators; Ferry's translator knows them by name, so Ferry's kernels still run them
 * where Ferry runs the expression.
 */
public final class CodePointFunctions {
    public static final SqlOperator CHAR_LENGTH = function("CHAR_LENGTH", "charLength",
            ReturnTypes.INTEGER_NULLABLE, List.of(SqlTypeFamily.CHARACTER));
    public static final SqlOperator SUBSTRING = function("SUBSTRING", "substring", ReturnTypes.ARG0_NULLABLE_VARYING,
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));
    public static final SqlOperator SUBSTRING_FROM = function("SUBSTRING", "substringFrom",
            ReturnTypes.ARG0_NULLABLE_VARYING, List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER));
    public static final SqlOperator POSITION = function("POSITION", "position", ReturnTypes.INTEGER_NULLABLE,
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER));

    private CodePointFunctions() {
    }

    private static SqlOperator function(String name, String method, SqlReturnTypeInference returns,
            List<SqlTypeFamily> operands) {
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                returns, InferTypes.FIRST_KNOWN,
                OperandTypes.operandMetadata(operands, types -> List.of(), i -> "arg" + i, i -> false),
                ScalarFunctionImpl.create(CodePointFunctions.class, method));
    }

    public static Integer charLength(String s) {
        return s == null ? null : s.codePointCount(0, s.length());
    }

    public static String substring(String s, Integer start, Integer length) {
        return s == null || start == null || length == null ? null : StringKernels.substring(s, start, length);
    }

    public static String substringFrom(String s, Integer start) {
        return s == null || start == null ? null : StringKernels.substring(s, start, Long.MAX_VALUE);
    }

    /** 1-based position of {@code needle}'s first occurrence in {@code haystack} in characters, 0 if none. */
    public static Integer position(String needle, String haystack) {
        if (needle == null || haystack == null) {
            return null;
        }
        int at = haystack.indexOf(needle);
        return at < 0 ? 0 : haystack.codePointCount(0, at) + 1;
    }
}
