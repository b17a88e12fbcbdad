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
    private static final Pattern AMBIGUOUS_COLUMN = Pattern.compile("Column '([^']*)' is ambiguous");
    private static final Pattern UNKNOWN_TARGET_COLUMN = Pattern.compile("Unknown target column '([^']*)'");
    private static final Pattern TABLE_FUNCTION_AS_VALUE = Pattern.compile("Cannot call table function here: '(\\w+)'");
    private static final Pattern NO_MATCH_FUNCTION = Pattern.compile("No match found for function signature (.*)");
    private static final Pattern MODIFY_OPERATION = Pattern.compile("operation=\\[(UPDATE|DELETE|MERGE)\\]");
    private static final Pattern MISSING_OPERATOR = Pattern.compile("Missing conversions? (?:is|are) (\\w+)");
    private static final Pattern ENCOUNTERED_WORD = Pattern.compile("Encountered \"([A-Za-z_]+)\"");
    private static final Pattern DDL_NOT_SUPPORTED = Pattern.compile("DDL not supported: (\\w+(?: \\w+)?)");

    private SqlErrors() {
    }

    /** What the client is told. */
    public record Translated(String sqlState, String message) {
        public SQLException toSqlException(Throwable cause) {
            return new SQLException(message, sqlState, cause);
        }
    }

    /** What Avatica's result set says when it is read after its statement was cancelled. */
    private static final String CANCELED = "Statement canceled";

    public static Translated translate(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof FerryException f) {
                return new Translated(f.sqlState(), f.getMessage());
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SqlParseException p) {
                return parse(p);
            }
            if (c instanceof StackOverflowError) {
                return new Translated(SqlStates.STATEMENT_TOO_COMPLEX, "statement too complex: its expressions or "
                        + "subqueries nest deeper than Ferry can plan; write long OR chains as IN lists, and flatten "
                        + "nested CASE and subqueries");
            }
            if (c instanceof CalciteContextException ctx) {
                return validation(ctx);
            }
            if (c instanceof SqlValidatorException v) {
                return validation(v.getMessage(), v.getMessage());
            }
            if (c instanceof ArithmeticException a) {
                String m = String.valueOf(a.getMessage());
                if (m.contains("by zero") || m.contains("Division undefined")) {
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
            if (c instanceof SQLException s && s.getSQLState() == null && CANCELED.equals(s.getMessage())) {
                // Avatica's result set refuses the next row of a cancelled statement with no SQLSTATE
                return new Translated(SqlStates.QUERY_CANCELED, "query cancelled by the client");
            }
            if (c instanceof SQLException s && s.getSQLState() != null) {
                return new Translated(s.getSQLState(), s.getMessage());
            }
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.toString() : root.getMessage();
        Matcher m;
        if ((m = DDL_NOT_SUPPORTED.matcher(message)).find()) {
            return new Translated(SqlStates.FEATURE_NOT_SUPPORTED, "Ferry does not support " + m.group(1)
                    + " statements yet; see docs/sql.md for the statements it runs");
        }
        if ((m = TABLE_FUNCTION_AS_VALUE.matcher(message)).find()) {
            String name = m.group(1).toLowerCase(java.util.Locale.ROOT);
            return new Translated(SqlStates.FEATURE_NOT_SUPPORTED, name + " is a table function, which gives rows, "
                    + "not a value: call it in FROM, as in SELECT * FROM " + name + "(…) or JOIN " + name + "(…) AS "
                    + "t(x) ON …");
        }
        if (message.contains("Year out of range")) {
            return yearOutOfRange("date out of range: " + firstLine(message));
        }
        if (message.contains("due to overflow")) {
            return new Translated(SqlStates.NUMERIC_OUT_OF_RANGE, "numeric value out of range: " + firstLine(message)
                    .replaceFirst("^.*Cannot convert", "cannot convert") + "; use a smaller value");
        }
        if (message.contains("There are not enough rules to produce a node")
                || message.contains("could not be implemented")) {
            m = MODIFY_OPERATION.matcher(message);
            if (m.find()) {
                return new Translated(SqlStates.FEATURE_NOT_SUPPORTED, "Ferry does not support " + m.group(1)
                        + " statements yet; see docs/sql.md for the statements it runs");
            }
            m = MISSING_OPERATOR.matcher(message);
            return new Translated(SqlStates.FEATURE_NOT_SUPPORTED, "Ferry cannot run this statement yet"
                    + (m.find() ? ": it has no operator for " + m.group(1).replaceFirst("^Logical", "")
                            .toLowerCase(java.util.Locale.ROOT) + " here" : "")
                    + "; see docs/sql.md for what Ferry runs");
        }
        return new Translated(SqlStates.INTERNAL_ERROR, "internal error: " + firstLine(message));
    }

    private static Translated parse(SqlParseException p) {
        String text = firstLine(p.getMessage());
        Matcher m = ENCOUNTERED_WORD.matcher(text);
        if (m.find()) {
            String word = m.group(1);
            return new Translated(SqlStates.SYNTAX_ERROR, "syntax error: " + text + " '" + word + "' is a reserved word:"
                    + " to use it as a name, quote it (\"" + word.toLowerCase(java.util.Locale.ROOT) + "\")");
        }
        if (text.contains("near the keyword")) {
            return new Translated(SqlStates.SYNTAX_ERROR, "syntax error: " + text + " If a reserved word there is "
                    + "meant as a name, quote it, as in SELECT 1 AS \"select\"");
        }
        return new Translated(SqlStates.SYNTAX_ERROR, "syntax error: " + text);
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
        if ((m = AMBIGUOUS_COLUMN.matcher(inner)).find()) {
            return new Translated(SqlStates.AMBIGUOUS_COLUMN, "column '" + m.group(1) + "' is ambiguous"
                    + tail(text, inner) + ": more than one table in FROM has it; qualify it with a table name or alias");
        }
        if ((m = UNKNOWN_TARGET_COLUMN.matcher(inner)).find()) {
            return new Translated(SqlStates.UNDEFINED_COLUMN, "the table has no column '" + m.group(1) + "' to set"
                    + tail(text, inner));
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
        if (inner.startsWith("Year out of range") || inner.contains("out of range for DATE")) {
            return yearOutOfRange(text);
        }
        if (inner.contains("must be a numeric literal between 0 and 1")) {
            return new Translated(SqlStates.INVALID_PARAMETER_VALUE, text + "; write the fraction as a constant from 0 "
                    + "to 1, as in PERCENTILE_CONT(0.9) WITHIN GROUP (ORDER BY x) or APPROX_PERCENTILE(x, 0.9)");
        }
        if (inner.contains("TABLESAMPLE percentage")) {
            return new Translated(SqlStates.INVALID_PARAMETER_VALUE, text);
        }
        if (inner.startsWith("Ordinal out of range")) {
            // GROUP BY 3 or ORDER BY 3 over fewer select items; a constant expression there (GROUP BY - -2.25) is a
            // position too
            return new Translated(SqlStates.INVALID_COLUMN_REFERENCE, "a GROUP BY or ORDER BY position is not in the "
                    + "select list" + tail(text, inner) + "; number the select items from 1, or write the expression");
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
        if (inner.startsWith("Cannot apply") || inner.contains("Cannot assign") || inner.contains("must be a condition") || inner.contains("cannot be")
                || inner.contains("type") || inner.contains("Type")) {
            return new Translated(SqlStates.DATATYPE_MISMATCH, "type mismatch: " + text);
        }
        return new Translated(SqlStates.SYNTAX_OR_ACCESS_RULE, text);
    }

    private static Translated yearOutOfRange(String text) {
        return new Translated(SqlStates.DATETIME_FIELD_OVERFLOW, text + "; years run from 1 to 9999");
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
