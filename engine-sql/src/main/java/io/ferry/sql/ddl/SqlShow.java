package io.ferry.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorTable;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.parser.impl.FerrySqlParserImpl;
import io.ferry.sql.schema.FerrySchema;
import io.ferry.sql.schema.InformationSchema;
import io.ferry.sql.schema.SystemSchema;

/**
 * {@code SHOW TABLES [FROM schema]}, {@code SHOW COLUMNS FROM t} and {@code DESCRIBE t}: a query over
 * {@code information_schema}, so the answer is an ordinary result set and agrees with what the schema says. The parser
 * builds it; {@link #resolve} runs before validation and restricts it to the schema or table the statement names,
 * found as any query would find it (default schema, case rules), or fails as a query naming it would.
 *
 * <p>SHOW TABLES gives {@code name} and {@code kind} ({@code table}, {@code view}, {@code system table}); DESCRIBE
 * and SHOW COLUMNS give DuckDB's columns: {@code column_name}, {@code column_type}, {@code null} (YES or NO),
 * {@code key} (PRI, UNI), {@code default} and {@code extra}.
 */
public final class SqlShow extends SqlSelect {
    private static final List<String> SCHEMAS = List.of(FerrySchema.NAME, SystemSchema.NAME, InformationSchema.NAME);

    private static final String TABLES = "SELECT table_name AS name, CASE table_type WHEN '"
            + InformationSchema.BASE_TABLE + "' THEN 'table' WHEN '" + InformationSchema.VIEW + "' THEN 'view' "
            + "ELSE 'system table' END AS kind FROM information_schema.tables ORDER BY table_name";

    /** {@code key} is PRI for a primary key's columns, UNI for a unique key's, as in DuckDB. */
    private static final String COLUMNS = "SELECT column_name, column_type, \"null\", \"key\", \"default\", extra "
            + "FROM (SELECT c.table_schema, c.table_name, c.ordinal_position, c.column_name, "
            + "c.data_type AS column_type, c.is_nullable AS \"null\", k.kind AS \"key\", "
            + "c.column_default AS \"default\", CAST(NULL AS VARCHAR) AS extra FROM information_schema.columns c "
            + "LEFT JOIN (SELECT u.table_schema, u.table_name, u.column_name, MIN(CASE t.constraint_type "
            + "WHEN 'PRIMARY KEY' THEN CAST('PRI' AS VARCHAR) ELSE 'UNI' END) AS kind "
            + "FROM information_schema.key_column_usage u "
            + "JOIN information_schema.table_constraints t ON u.constraint_name = t.constraint_name "
            + "AND u.table_name = t.table_name GROUP BY u.table_schema, u.table_name, u.column_name) AS k "
            + "ON k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name"
            + ") AS d ORDER BY ordinal_position";

    /** The schema SHOW TABLES lists, or null: the default one. */
    private final SqlIdentifier schema;
    /** The table SHOW COLUMNS and DESCRIBE describe, or null for SHOW TABLES. */
    private final SqlIdentifier table;

    private SqlShow(SqlParserPos pos, String template, SqlIdentifier schema, SqlIdentifier table) {
        this(pos, parse(template), schema, table);
    }

    private SqlShow(SqlParserPos pos, SqlOrderBy query, SqlIdentifier schema, SqlIdentifier table) {
        this(pos, (SqlSelect) query.query, query.orderList, schema, table);
    }

    private SqlShow(SqlParserPos pos, SqlSelect q, SqlNodeList orderBy, SqlIdentifier schema, SqlIdentifier table) {
        super(pos, null, q.getSelectList(), q.getFrom(), null, null, null, null, null, orderBy, null, null, null);
        this.schema = schema;
        this.table = table;
    }

    /** {@code SHOW TABLES [FROM schema]}; {@code schema} null lists the user's tables and views. */
    public static SqlShow tables(SqlParserPos pos, SqlIdentifier schema) {
        return new SqlShow(pos, TABLES, schema, null);
    }

    /** {@code SHOW COLUMNS FROM table}, {@code DESCRIBE table}. */
    public static SqlShow columns(SqlParserPos pos, SqlIdentifier table) {
        return new SqlShow(pos, COLUMNS, null, requireNonNull(table, "table is null"));
    }

    /**
     * Finds the schema or table the statement names and keeps the query to its rows; an unknown table or schema is
     * the error a query naming it gets (42P01, 3F000).
     */
    public void resolve(SqlValidatorCatalogReader reader) {
        if (table == null) {
            setWhere(equal("table_schema", schemaName()));
            return;
        }
        SqlValidatorTable found = reader.getTable(table.names);
        List<String> name = found == null ? null : found.getQualifiedName();
        if (name == null || name.size() != 2 || !SCHEMAS.contains(name.get(0))) {
            throw new FerryException(SqlStates.UNDEFINED_TABLE, "table or view '" + table + "' does not exist; "
                    + "SHOW TABLES lists your tables and views, SHOW TABLES FROM sys Ferry's system tables");
        }
        setWhere(SqlStdOperatorTable.AND.createCall(SqlParserPos.ZERO, equal("table_schema", name.get(0)),
                equal("table_name", name.get(1))));
    }

    private String schemaName() {
        if (schema == null) {
            return FerrySchema.NAME;
        }
        String wanted = schema.toString();
        for (String s : SCHEMAS) {
            if (s.equalsIgnoreCase(wanted)) {
                return s;
            }
        }
        throw new FerryException(SqlStates.INVALID_SCHEMA_NAME, "schema '" + wanted + "' does not exist; Ferry's "
                + "schemas are " + String.join(", ", SCHEMAS) + " (" + FerrySchema.NAME + " holds your tables)");
    }

    private static SqlNode equal(String column, String value) {
        return SqlStdOperatorTable.EQUALS.createCall(SqlParserPos.ZERO,
                new SqlIdentifier(column, SqlParserPos.ZERO), SqlLiteral.createCharString(value, SqlParserPos.ZERO));
    }

    /** One of the templates above, parsed with Ferry's own rules (they are constants: a failure is Ferry's bug). */
    private static SqlOrderBy parse(String sql) {
        SqlParser.Config config = SqlParser.config().withParserFactory(FerrySqlParserImpl.FACTORY)
                .withUnquotedCasing(Casing.TO_LOWER).withQuotedCasing(Casing.UNCHANGED)
                .withQuoting(Quoting.DOUBLE_QUOTE).withCaseSensitive(false);
        try {
            return (SqlOrderBy) SqlParser.create(sql, config).parseQuery();
        } catch (SqlParseException e) {
            throw new IllegalStateException("Ferry's own introspection query does not parse: " + sql, e);
        }
    }
}
