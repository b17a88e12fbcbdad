package io.ferry.sql;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.validate.SqlValidatorException;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Turns whatever went wrong while planning or running a statement into the SQLSTATE and sentence a JDBC user
 * sees: Ferry's own errors carry theirs; Calcite's parser and validator errors are classified by kind.
 */
public final class SqlErrors {
    private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("Object '([^']*)' not found");
    private static final Pattern TABLE_NOT_FOUND = Pattern.compile("Table '([^']*)' not found");
    private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found");
    private static final Pattern NO_MATCH_FUNCTION = Pattern.compile("No match found for function signature (.*)");

    private SqlErrors() {
    }

    /** What the client is told. */
    public record Translated(String sqlState, String message) {
        public SQLException toSqlException(Throwable cause) {
            return new SQLException(message, sqlState, cause);
        }
    }

    public static Translated translate(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof FerryException f) {
                return new Translated(f.sqlState(), f.getMessage());
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SqlParseException p) {
                return new Translated(SqlStates.SYNTAX_ERROR, "syntax error: " + firstLine(p.getMessage()));
            }
            if (c instanceof CalciteContextException ctx) {
                return validation(ctx);
            }
            if (c instanceof SqlValidatorException v) {
                return validation(v.getMessage(), v.getMessage());
            }
            if (c instanceof ArithmeticException a) {
                String m = String.valueOf(a.getMessage());
                if (m.contains("by zero")) {
                    return new Translated(SqlStates.DIVISION_BY_ZERO, FerryException.divisionByZero().getMessage());
                }
                return new Translated(SqlStates.NUMERIC_OUT_OF_RANGE, "numeric overflow: " + m);
            }
            if (c instanceof NumberFormatException n) {
                return new Translated(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, "invalid number: " + n.getMessage());
            }
            if (c instanceof OutOfMemoryError) {
                return new Translated(SqlStates.OUT_OF_MEMORY, "the server ran out of memory running this statement");
            }
            if (c instanceof SQLException s && s.getSQLState() != null) {
                return new Translated(s.getSQLState(), s.getMessage());
            }
        }
        String message = t.getMessage() == null ? t.toString() : t.getMessage();
        if (message.contains("There are not enough rules to produce a node")
                || message.contains("could not be implemented")) {
            return new Translated(SqlStates.FEATURE_NOT_SUPPORTED, "Ferry cannot run this statement: "
                    + firstLine(message));
        }
        return new Translated(SqlStates.INTERNAL_ERROR, "internal error: " + firstLine(message));
    }

    private static Translated validation(CalciteContextException ctx) {
        String where = ctx.getPosLine() > 0 ? " (line " + ctx.getPosLine() + ", column " + ctx.getPosColumn() + ")" : "";
        Throwable cause = ctx.getCause();
        String inner = cause != null && cause.getMessage() != null ? cause.getMessage() : ctx.getMessage();
        return validation(inner, inner + where);
    }

    private static Translated validation(String inner, String text) {
        Matcher m;
        if ((m = TABLE_NOT_FOUND.matcher(inner)).find() || (m = OBJECT_NOT_FOUND.matcher(inner)).find()) {
            return new Translated(SqlStates.UNDEFINED_TABLE, "table '" + m.group(1) + "' does not exist" + tail(text, inner)
                    + "; check the name, or list tables with !tables or DatabaseMetaData.getTables");
        }
        if ((m = COLUMN_NOT_FOUND.matcher(inner)).find()) {
            return new Translated(SqlStates.UNDEFINED_COLUMN, "column '" + m.group(1) + "' does not exist"
                    + tail(text, inner));
        }
        if (inner.startsWith("Illegal DATE literal") || inner.startsWith("Illegal TIMESTAMP literal")
                || inner.startsWith("Illegal TIME literal")) {
            return new Translated(SqlStates.INVALID_DATETIME_FORMAT, text
                    + "; write DATE 'YYYY-MM-DD' or TIMESTAMP 'YYYY-MM-DD HH:MM:SS' with a real calendar date");
        }
        if (inner.contains("TABLESAMPLE percentage")) {
            return new Translated(SqlStates.INVALID_PARAMETER_VALUE, text);
        }
        if (inner.contains("out of range")) {
            return new Translated(SqlStates.NUMERIC_OUT_OF_RANGE, text + "; use a wider type (BIGINT, DECIMAL, DOUBLE)");
        }
        if (inner.contains("does not allow NULLs")) {
            return new Translated(SqlStates.NOT_NULL_VIOLATION, text + "; supply a value for that column");
        }
        if ((m = NO_MATCH_FUNCTION.matcher(inner)).find()) {
            return new Translated(SqlStates.UNDEFINED_FUNCTION, "no function matches " + m.group(1) + tail(text, inner));
        }
        if (inner.startsWith("Cannot apply") || inner.contains("Cannot assign") || inner.contains("cannot be")
                || inner.contains("type") || inner.contains("Type")) {
            return new Translated(SqlStates.DATATYPE_MISMATCH, "type mismatch: " + text);
        }
        return new Translated(SqlStates.SYNTAX_OR_ACCESS_RULE, text);
    }

    private static String tail(String text, String inner) {
        return text.length() > inner.length() ? text.substring(inner.length()) : "";
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
