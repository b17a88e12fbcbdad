package io.ferry.sql.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code COPY table FROM 'file' [WITH] [(option [value], ...)]}, {@code COPY table TO 'file' ...} and
 * {@code COPY (query) TO 'file' ...}, as PostgreSQL and DuckDB write them: a file on the server's machine, read into
 * a table or written from one or from a query ({@link FerryDdlExecutor} hands it to the engine's
 * {@link io.ferry.sql.FileCopies}). Options: FORMAT csv, HEADER [true|false], DELIMITER 'c', QUOTE 'c', NULL 'text'.
 */
public final class SqlCopy extends SqlDdl {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("COPY", SqlKind.OTHER_DDL);

    /** The table read into or written from; null when a query is written. */
    public final SqlIdentifier table;
    /** The query written; null for a table. */
    public final SqlNode query;
    /** Whether the file is read (FROM) rather than written (TO). */
    public final boolean from;
    public final String file;
    /** Option names in lower case, each with its value as written (null when none was given). */
    public final Map<String, String> options;

    public SqlCopy(SqlParserPos pos, SqlIdentifier table, SqlNode query, boolean from, String file,
            Map<String, String> options) {
        super(OPERATOR, pos);
        this.table = table;
        this.query = query;
        this.from = from;
        this.file = file;
        this.options = options;
    }

    /** Adds option {@code name} with {@code value} (null: given without a value) to {@code into}. */
    public static void option(Map<String, String> into, String name, String value) {
        into.put(name.toLowerCase(Locale.ROOT), value);
    }

    @Override
    public List<SqlNode> getOperandList() {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(table != null ? table : query);
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("COPY");
        if (table != null) {
            table.unparse(writer, leftPrec, rightPrec);
        } else {
            writer.print("(");
            query.unparse(writer, 0, 0);
            writer.print(")");
        }
        writer.keyword(from ? "FROM" : "TO");
        writer.literal("'" + file.replace("'", "''") + "'");
    }
}
