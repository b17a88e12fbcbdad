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

import io.ferry.core.expr.RegexKernels;

/**
 * DuckDB's {@code REGEXP_EXTRACT(s, pattern[, group])} ('' when nothing matches) and PostgreSQL's
 * {@code REGEXP_SUBSTR(s, pattern[, start[, occurrence]])} (NULL when nothing matches). Calcite has both names
 * only in its BigQuery library, where the third argument is a start position and a pattern with one group returns
 * the group: the same calls would answer differently, so Ferry defines its own. Ferry's kernels run them; the
 * methods here, which the row engine calls, give the same answers.
 */
public final class RegexFunctions {
    public static final SqlOperator REGEXP_EXTRACT = function("REGEXP_EXTRACT", "extract",
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER));
    public static final SqlOperator REGEXP_EXTRACT_GROUP = function("REGEXP_EXTRACT", "extractGroup",
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER));
    public static final SqlOperator REGEXP_SUBSTR = function("REGEXP_SUBSTR", "substr",
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER));
    public static final SqlOperator REGEXP_SUBSTR_FROM = function("REGEXP_SUBSTR", "substrFrom",
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER));
    public static final SqlOperator REGEXP_SUBSTR_OCCURRENCE = function("REGEXP_SUBSTR", "substrOccurrence",
            List.of(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));

    private RegexFunctions() {
    }

    static List<SqlOperator> all() {
        return List.of(REGEXP_EXTRACT, REGEXP_EXTRACT_GROUP, REGEXP_SUBSTR, REGEXP_SUBSTR_FROM,
                REGEXP_SUBSTR_OCCURRENCE);
    }

    private static SqlOperator function(String name, String method, List<SqlTypeFamily> operands) {
        return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                ReturnTypes.VARCHAR_NULLABLE, InferTypes.FIRST_KNOWN,
                OperandTypes.operandMetadata(operands, types -> List.of(), i -> "arg" + i, i -> false),
                ScalarFunctionImpl.create(RegexFunctions.class, method));
    }

    public static String extract(String s, String regex) {
        return s == null || regex == null ? null : RegexKernels.extract(s, regex, 0);
    }

    public static String extractGroup(String s, String regex, Integer group) {
        return s == null || regex == null || group == null ? null : RegexKernels.extract(s, regex, group);
    }

    public static String substr(String s, String regex) {
        return s == null || regex == null ? null : RegexKernels.substr(s, regex, 1, 1);
    }

    public static String substrFrom(String s, String regex, Integer start) {
        return s == null || regex == null || start == null ? null : RegexKernels.substr(s, regex, start, 1);
    }

    public static String substrOccurrence(String s, String regex, Integer start, Integer occurrence) {
        return s == null || regex == null || start == null || occurrence == null ? null
                : RegexKernels.substr(s, regex, start, occurrence);
    }
}
