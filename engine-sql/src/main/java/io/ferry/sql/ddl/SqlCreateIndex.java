package io.ferry.sql.ddl;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** CREATE INDEX [IF NOT EXISTS] name ON table (column, ...) ({@link FerryDdlExecutor}). */
public final class SqlCreateIndex extends SqlCreate {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

    public final SqlIdentifier name;
    public final SqlIdentifier table;
    public final SqlNodeList columns;

    public SqlCreateIndex(SqlParserPos pos, boolean replace, boolean ifNotExists, SqlIdentifier name,
            SqlIdentifier table, SqlNodeList columns) {
        super(OPERATOR, pos, replace, ifNotExists);
        this.name = name;
        this.table = table;
        this.columns = columns;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(name, table, columns);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword(getReplace() ? "CREATE OR REPLACE INDEX" : "CREATE INDEX");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, leftPrec, rightPrec);
        writer.keyword("ON");
        table.unparse(writer, leftPrec, rightPrec);
        SqlWriter.Frame frame = writer.startList("(", ")");
        for (SqlNode c : columns) {
            writer.sep(",");
            c.unparse(writer, 0, 0);
        }
        writer.endList(frame);
    }
}
