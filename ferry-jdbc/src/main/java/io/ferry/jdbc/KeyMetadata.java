package io.ferry.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;

/**
 * {@code getPrimaryKeys} and {@code getIndexInfo} answered from the server's {@code information_schema} and
 * {@code sys.indexes}, and {@code getFunctions} from the server's function lists ({@link #functions}). Avatica's protocol has no request for either, so its client answers both with no rows whatever
 * the server holds; this driver asks with a query instead. Ferry keeps a unique index per PRIMARY KEY and UNIQUE
 * constraint (a hash set of its keys), and the zone-map indexes CREATE INDEX makes, which are not unique (TYPE
 * {@code tableIndexOther}). Table and schema names match in any case, as tools that fold them expect.
 */
final class KeyMetadata {
    private KeyMetadata() {
    }

    static AvaticaSpecificDatabaseMetaData wrap(AvaticaSpecificDatabaseMetaData avatica) {
        return (AvaticaSpecificDatabaseMetaData) Proxy.newProxyInstance(KeyMetadata.class.getClassLoader(),
                new Class<?>[] {AvaticaSpecificDatabaseMetaData.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getPrimaryKeys") && args.length == 3) {
                        return primaryKeys(avatica.getConnection(), (String) args[1], (String) args[2]);
                    }
                    if (method.getName().equals("getFunctions") && args.length == 3) {
                        return functions(avatica, (String) args[2]);
                    }
                    if (method.getName().equals("getIndexInfo") && args.length == 5) {
                        return indexInfo(avatica.getConnection(), (String) args[1], (String) args[2],
                                (Boolean) args[3]);
                    }
                    try {
                        return method.invoke(avatica, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** JDBC's columns, ordered by COLUMN_NAME. */
    private static ResultSet primaryKeys(Connection c, String schema, String table) throws SQLException {
        return query(c, "CAST(NULL AS VARCHAR) AS \"TABLE_CAT\", " + named("k.table_schema", "TABLE_SCHEM") + ", "
                + named("k.table_name", "TABLE_NAME") + ", " + named("k.column_name", "COLUMN_NAME") + ", "
                + "k.ordinal_position + 0 AS \"KEY_SEQ\", " + named("k.constraint_name", "PK_NAME"), "'PRIMARY KEY'",
                schema, table, "\"COLUMN_NAME\"");
    }

    /**
     * JDBC's columns, ordered by NON_UNIQUE, TYPE, INDEX_NAME and ORDINAL_POSITION: the keys' indexes, then, unless
     * {@code unique}, the zone-map indexes.
     */
    private static ResultSet indexInfo(Connection c, String schema, String table, boolean unique)
            throws SQLException {
        String keys = keyQuery("CAST(NULL AS VARCHAR) AS \"TABLE_CAT\", " + named("k.table_schema", "TABLE_SCHEM")
                + ", " + named("k.table_name", "TABLE_NAME") + ", FALSE AS \"NON_UNIQUE\", CAST(NULL AS VARCHAR) AS "
                + "\"INDEX_QUALIFIER\", " + named("k.constraint_name", "INDEX_NAME") + ", "
                + DatabaseMetaData.tableIndexHashed + " AS \"TYPE\", k.ordinal_position + 0 AS \"ORDINAL_POSITION\", "
                + named("k.column_name", "COLUMN_NAME") + ", "
                + "CAST(NULL AS VARCHAR) AS \"ASC_OR_DESC\", CAST(NULL AS BIGINT) AS \"CARDINALITY\", "
                + "CAST(NULL AS BIGINT) AS \"PAGES\", CAST(NULL AS VARCHAR) AS \"FILTER_CONDITION\"",
                "'PRIMARY KEY', 'UNIQUE'", schema, table);
        String zoneMaps = "SELECT CAST(NULL AS VARCHAR), i.table_schema, i.table_name, TRUE, CAST(NULL AS VARCHAR), "
                + "i.index_name, " + DatabaseMetaData.tableIndexOther + ", 1, i.column_name, CAST(NULL AS VARCHAR), "
                + "CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), CAST(NULL AS VARCHAR) FROM sys.indexes i WHERE TRUE"
                + matching("i", schema, table);
        return run(c, "SELECT * FROM (" + keys + (unique ? "" : " UNION ALL " + zoneMaps) + ") AS x ORDER BY "
                + "\"NON_UNIQUE\", \"TYPE\", \"INDEX_NAME\", \"ORDINAL_POSITION\"");
    }

    /**
     * The functions of {@code getStringFunctions}, {@code getNumericFunctions}, {@code getTimeDateFunctions} and
     * {@code getSystemFunctions} (the lists the server gives, of functions that run) whose names match
     * {@code pattern}, as JDBC's getFunctions rows ordered by FUNCTION_NAME; REMARKS says which list. Avatica's
     * client answered no rows.
     */
    private static ResultSet functions(DatabaseMetaData md, String pattern) throws SQLException {
        java.util.regex.Pattern match = pattern == null ? null : like(pattern);
        java.util.SortedMap<String, String> kinds = new java.util.TreeMap<>();
        String[][] lists = {{md.getStringFunctions(), "string function"}, {md.getNumericFunctions(),
                "numeric function"}, {md.getTimeDateFunctions(), "date and time function"},
                {md.getSystemFunctions(), "system function"}};
        for (String[] list : lists) {
            for (String name : list[0].split(",")) {
                String n = name.trim();
                if (!n.isEmpty() && (match == null || match.matcher(n).matches())) {
                    kinds.merge(n, list[1], (a, b) -> a + ", " + b);
                }
            }
        }
        StringBuilder rows = new StringBuilder();
        for (java.util.Map.Entry<String, String> e : kinds.entrySet()) {
            rows.append(rows.isEmpty() ? "" : ", ").append("(").append(literal(e.getKey())).append(", ")
                    .append(literal(e.getValue())).append(")");
        }
        // no function matches: one row to select from, filtered out (Calcite's SELECT needs a FROM for its WHERE)
        String where = rows.isEmpty() ? " WHERE FALSE" : "";
        return run(md.getConnection(), "SELECT CAST(NULL AS VARCHAR) AS \"FUNCTION_CAT\", CAST(NULL AS VARCHAR) "
                + "AS \"FUNCTION_SCHEM\", CAST(f.n AS VARCHAR) AS \"FUNCTION_NAME\", CAST(f.r AS VARCHAR) AS "
                + "\"REMARKS\", " + DatabaseMetaData.functionNoTable + " AS \"FUNCTION_TYPE\", CAST(f.n AS VARCHAR) "
                + "AS \"SPECIFIC_NAME\" FROM (VALUES " + (rows.isEmpty() ? "('', '')" : rows) + ") AS f(n, r)" + where
                + " ORDER BY 3");
    }

    /** A JDBC name pattern ({@code %}, {@code _}, {@code \} escapes), matched without regard to case. */
    private static java.util.regex.Pattern like(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == '\\' && i + 1 < pattern.length()) {
                regex.append(java.util.regex.Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else {
                regex.append(ch == '%' ? ".*" : ch == '_' ? "." : java.util.regex.Pattern.quote(String.valueOf(ch)));
            }
        }
        return java.util.regex.Pattern.compile(regex.toString(), java.util.regex.Pattern.CASE_INSENSITIVE
                | java.util.regex.Pattern.DOTALL);
    }

    private static ResultSet query(Connection c, String select, String types, String schema, String table,
            String orderBy) throws SQLException {
        return run(c, keyQuery(select, types, schema, table) + " ORDER BY " + orderBy);
    }

    /** The key columns of the constraints of {@code types}, of the tables {@code schema} and {@code table} match. */
    private static String keyQuery(String select, String types, String schema, String table) {
        return "SELECT " + select + " FROM information_schema.key_column_usage k "
                + "JOIN information_schema.table_constraints t ON k.constraint_name = t.constraint_name "
                + "AND k.table_name = t.table_name WHERE t.constraint_type IN (" + types + ")"
                + matching("k", schema, table);
    }

    private static String matching(String alias, String schema, String table) {
        return (schema == null ? "" : " AND LOWER(" + alias + ".table_schema) = LOWER(" + literal(schema) + ")")
                + (table == null ? "" : " AND LOWER(" + alias + ".table_name) = LOWER(" + literal(table) + ")");
    }

    private static ResultSet run(Connection c, String sql) throws SQLException {
        Statement statement = c.createStatement();
        statement.closeOnCompletion();
        return statement.executeQuery(sql);
    }

    /**
     * A text column under its JDBC name, as an expression: for a plain column, getColumnName would report the
     * information_schema column it comes from.
     */
    private static String named(String column, String name) {
        return "CAST(" + column + " AS VARCHAR) AS \"" + name + "\"";
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
