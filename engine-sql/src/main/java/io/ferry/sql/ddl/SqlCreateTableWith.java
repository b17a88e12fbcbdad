package io.ferry.sql.ddl;

import java.util.Map;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE TABLE t (...) WITH (name = 'value', ...) [AS query]}: Calcite's CREATE TABLE with PostgreSQL's table
 * options. Ferry reads {@code partition_by} ({@link io.ferry.core.storage.PartitionScheme}) and {@code placement}
 * ({@link io.ferry.core.storage.Placement}); {@link FerryDdlExecutor} refuses any other name.
 */
public final class SqlCreateTableWith extends SqlCreateTable {
    /** Option names in lower case, with their values. */
    public final Map<String, String> options;

    public SqlCreateTableWith(SqlParserPos pos, boolean replace, boolean ifNotExists, SqlIdentifier name,
            SqlNodeList columnList, SqlNode query, Map<String, String> options) {
        super(pos, replace, ifNotExists, name, columnList, query);
        this.options = Map.copyOf(options);
    }
}
