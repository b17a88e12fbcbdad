package io.ferry.sql.ddl;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** ALTER TABLE with one action: ADD COLUMN, DROP COLUMN, RENAME COLUMN or RENAME TO ({@link FerryDdlExecutor}). */
public final class SqlAlterTable extends SqlDdl {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

    /** What the statement does to the table. */
    public enum Action { ADD_COLUMN, DROP_COLUMN, RENAME_COLUMN, RENAME_TABLE }

    public final Action action;
    public final boolean ifExists;
    public final SqlIdentifier name;
    /** IF NOT EXISTS on ADD, IF EXISTS on DROP: the column's presence or absence is no error. */
    public final boolean ifColumn;
    /** The column added, dropped or renamed; null for RENAME TO. */
    public final SqlIdentifier column;
    /** The added column's type; null for other actions. */
    public final SqlDataTypeSpec type;
    public final boolean cascade;
    /** The new name of the column or table, for the renames. */
    public final SqlIdentifier newName;

    private SqlAlterTable(SqlParserPos pos, Action action, boolean ifExists, SqlIdentifier name, boolean ifColumn,
            SqlIdentifier column, SqlDataTypeSpec type, boolean cascade, SqlIdentifier newName) {
        super(OPERATOR, pos);
        this.action = action;
        this.ifExists = ifExists;
        this.name = name;
        this.ifColumn = ifColumn;
        this.column = column;
        this.type = type;
        this.cascade = cascade;
        this.newName = newName;
    }

    public static SqlAlterTable addColumn(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
            boolean ifNotExists, SqlIdentifier column, SqlDataTypeSpec type) {
        return new SqlAlterTable(pos, Action.ADD_COLUMN, ifExists, name, ifNotExists, column, type, false, null);
    }

    public static SqlAlterTable dropColumn(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
            boolean ifColumnExists, SqlIdentifier column, boolean cascade) {
        return new SqlAlterTable(pos, Action.DROP_COLUMN, ifExists, name, ifColumnExists, column, null, cascade,
                null);
    }

    public static SqlAlterTable renameColumn(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
            SqlIdentifier column, SqlIdentifier newName) {
        return new SqlAlterTable(pos, Action.RENAME_COLUMN, ifExists, name, false, column, null, false, newName);
    }

    public static SqlAlterTable renameTable(SqlParserPos pos, boolean ifExists, SqlIdentifier name,
            SqlIdentifier newName) {
        return new SqlAlterTable(pos, Action.RENAME_TABLE, ifExists, name, false, null, null, false, newName);
    }

    @Override
    public List<SqlNode> getOperandList() {
        List<SqlNode> operands = new ArrayList<>();
        for (SqlNode n : new SqlNode[] {name, column, type, newName}) {
            if (n != null) {
                operands.add(n);
            }
        }
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER TABLE");
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, leftPrec, rightPrec);
        switch (action) {
            case ADD_COLUMN -> {
                writer.keyword("ADD COLUMN");
                if (ifColumn) {
                    writer.keyword("IF NOT EXISTS");
                }
                column.unparse(writer, leftPrec, rightPrec);
                type.unparse(writer, leftPrec, rightPrec);
            }
            case DROP_COLUMN -> {
                writer.keyword("DROP COLUMN");
                if (ifColumn) {
                    writer.keyword("IF EXISTS");
                }
                column.unparse(writer, leftPrec, rightPrec);
                if (cascade) {
                    writer.keyword("CASCADE");
                }
            }
            case RENAME_COLUMN -> {
                writer.keyword("RENAME COLUMN");
                column.unparse(writer, leftPrec, rightPrec);
                writer.keyword("TO");
                newName.unparse(writer, leftPrec, rightPrec);
            }
            case RENAME_TABLE -> {
                writer.keyword("RENAME TO");
                newName.unparse(writer, leftPrec, rightPrec);
            }
        }
    }
}
