package io.ferry.server.flight;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlOuterJoinsSupportLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedGroupBy;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedResultSetType;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedSubqueries;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedUnions;
import org.apache.arrow.flight.sql.impl.FlightSql.SupportedAnsi92SqlGrammarLevel;
import org.apache.arrow.flight.sql.impl.FlightSql.SupportedSqlGrammar;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import com.google.protobuf.ByteString;

import io.ferry.server.FerryVersion;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.Principal;
import io.ferry.sql.schema.FerrySchema;
import io.ferry.sql.schema.InformationSchema;

/**
 * Flight SQL's catalog calls, answered from {@code information_schema} as the calling user reads it (so a user sees
 * the tables their grants allow, as on the JDBC port) and from what Ferry is (SqlInfo, the types it has). Ferry has
 * schemas but no catalogs: catalog names are NULL, and GetCatalogs is empty, as JDBC's getCatalogs is.
 */
final class FlightCatalog implements AutoCloseable {
    private static final List<String> TABLE_TYPES = List.of("SYSTEM TABLE", "TABLE", "VIEW");

    private final FerryEngine engine;
    private final BufferAllocator allocator;
    private final SqlInfoBuilder sqlInfo;
    private final Set<Integer> sqlInfoKeys;

    FlightCatalog(FerryEngine engine, BufferAllocator allocator) {
        this.engine = engine;
        this.allocator = allocator;
        this.sqlInfo = sqlInfo();
        this.sqlInfoKeys = registeredKeys(sqlInfo);
    }

    void catalogs(ServerStreamListener listener) {
        empty(Schemas.GET_CATALOGS_SCHEMA, listener);
    }

    void empty(Schema schema, ServerStreamListener listener) {
        send(schema, root -> root.setRowCount(0), listener);
    }

    void schemas(Principal who, CommandGetDbSchemas command, ServerStreamListener listener) {
        String pattern = command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : "%";
        List<String> names = new ArrayList<>();
        if (!command.hasCatalog() || command.getCatalog().isEmpty()) {
            query(who, "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE ? "
                    + "ORDER BY schema_name", List.of(pattern), rs -> names.add(rs.getString(1)));
        }
        send(Schemas.GET_SCHEMAS_SCHEMA, root -> {
            for (int i = 0; i < names.size(); i++) {
                text(root, "catalog_name", i, null);
                text(root, "db_schema_name", i, names.get(i));
            }
            root.setRowCount(names.size());
        }, listener);
    }

    /** A table as GetTables lists it; {@code type} in JDBC's words (TABLE, VIEW, SYSTEM TABLE). */
    private record TableRow(String schema, String name, String type) {
    }

    void tables(Principal who, CommandGetTables command, ServerStreamListener listener) {
        String schemaPattern = command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : "%";
        String tablePattern = command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : "%";
        Set<String> types = new HashSet<>(command.getTableTypesList());
        List<TableRow> rows = new ArrayList<>();
        if (!command.hasCatalog() || command.getCatalog().isEmpty()) {
            query(who, "SELECT table_schema, table_name, table_type FROM information_schema.tables "
                    + "WHERE table_schema LIKE ? AND table_name LIKE ?", List.of(schemaPattern, tablePattern), rs -> {
                        String type = InformationSchema.BASE_TABLE.equals(rs.getString(3)) ? "TABLE"
                                : rs.getString(3);
                        if (types.isEmpty() || types.contains(type)) {
                            rows.add(new TableRow(rs.getString(1), rs.getString(2), type));
                        }
                    });
        }
        // JDBC's order: type, schema, name
        rows.sort(java.util.Comparator.comparing(TableRow::type).thenComparing(TableRow::schema)
                .thenComparing(TableRow::name));
        Map<String, List<Field>> columns = command.getIncludeSchema() ? columns(who, schemaPattern, tablePattern)
                : Map.of();
        Schema schema = command.getIncludeSchema() ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA;
        send(schema, root -> {
            for (int i = 0; i < rows.size(); i++) {
                TableRow t = rows.get(i);
                text(root, "catalog_name", i, null);
                text(root, "db_schema_name", i, t.schema());
                text(root, "table_name", i, t.name());
                text(root, "table_type", i, t.type());
                if (command.getIncludeSchema()) {
                    Schema table = new Schema(columns.getOrDefault(t.schema() + "." + t.name(), List.of()));
                    ((VarBinaryVector) root.getVector("table_schema")).setSafe(i, ipc(table).toByteArray());
                }
            }
            root.setRowCount(rows.size());
        }, listener);
    }

    /** The columns of the matching tables as Arrow fields, by "schema.table", in column order. */
    private Map<String, List<Field>> columns(Principal who, String schemaPattern, String tablePattern) {
        Map<String, List<Field>> out = new LinkedHashMap<>();
        query(who, "SELECT table_schema, table_name, column_name, data_type, is_nullable, numeric_precision, "
                + "numeric_scale, character_maximum_length FROM information_schema.columns "
                + "WHERE table_schema LIKE ? AND table_name LIKE ? ORDER BY table_schema, table_name, "
                + "ordinal_position", List.of(schemaPattern, tablePattern), rs -> {
                    String dataType = rs.getString(4);
                    int jdbcType = jdbcType(dataType);
                    int precision = jdbcType == Types.VARCHAR ? rs.getInt(8) : rs.getInt(6);
                    int scale = rs.getInt(7);
                    FlightSqlColumnMetadata meta = new FlightSqlColumnMetadata.Builder()
                            .typeName(dataType)
                            .schemaName(rs.getString(1))
                            .tableName(rs.getString(2))
                            .precision(precision)
                            .scale(scale)
                            .build();
                    Field field = new Field(rs.getString(3), new FieldType("YES".equals(rs.getString(5)),
                            ArrowColumns.arrowType(jdbcType, precision, scale), null, meta.getMetadataMap()), null);
                    out.computeIfAbsent(rs.getString(1) + "." + rs.getString(2), k -> new ArrayList<>()).add(field);
                });
        return out;
    }

    /** The JDBC type of an {@code information_schema.columns.data_type} ({@code DECIMAL(12,2)}, {@code VARCHAR}). */
    private static int jdbcType(String dataType) {
        String base = dataType.toUpperCase(Locale.ROOT);
        int paren = base.indexOf('(');
        base = paren < 0 ? base : base.substring(0, paren);
        return switch (base) {
            case "BOOLEAN" -> Types.BOOLEAN;
            case "INTEGER" -> Types.INTEGER;
            case "BIGINT" -> Types.BIGINT;
            case "DOUBLE" -> Types.DOUBLE;
            case "DECIMAL" -> Types.DECIMAL;
            case "DATE" -> Types.DATE;
            case "TIMESTAMP" -> Types.TIMESTAMP;
            default -> Types.VARCHAR;
        };
    }

    void tableTypes(ServerStreamListener listener) {
        send(Schemas.GET_TABLE_TYPES_SCHEMA, root -> {
            for (int i = 0; i < TABLE_TYPES.size(); i++) {
                text(root, "table_type", i, TABLE_TYPES.get(i));
            }
            root.setRowCount(TABLE_TYPES.size());
        }, listener);
    }

    /** A key column: schema, table, column, position in the key, key name. */
    private record KeyColumn(String schema, String table, String column, int position, String name) {
    }

    void primaryKeys(Principal who, CommandGetPrimaryKeys command, ServerStreamListener listener) {
        List<KeyColumn> keys = new ArrayList<>();
        String schema = command.hasDbSchema() ? command.getDbSchema() : FerrySchema.NAME;
        query(who, "SELECT k.table_schema, k.table_name, k.column_name, k.ordinal_position, k.constraint_name "
                + "FROM information_schema.key_column_usage k JOIN information_schema.table_constraints c "
                + "ON c.constraint_name = k.constraint_name AND c.table_name = k.table_name "
                + "WHERE c.constraint_type = 'PRIMARY KEY' AND k.table_schema = ? AND k.table_name = ? "
                + "ORDER BY k.ordinal_position", List.of(schema, command.getTable()),
                rs -> keys.add(new KeyColumn(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                        rs.getString(5))));
        send(Schemas.GET_PRIMARY_KEYS_SCHEMA, root -> {
            for (int i = 0; i < keys.size(); i++) {
                KeyColumn k = keys.get(i);
                text(root, "catalog_name", i, null);
                text(root, "db_schema_name", i, k.schema());
                text(root, "table_name", i, k.table());
                text(root, "column_name", i, k.column());
                ((IntVector) root.getVector("key_sequence")).setSafe(i, k.position());
                text(root, "key_name", i, k.name());
            }
            root.setRowCount(keys.size());
        }, listener);
    }

    /** Ferry's types, as JDBC's getTypeInfo lists them. */
    private record TypeRow(String name, int jdbcType, int size, String quote, Integer radix, boolean caseSensitive,
            Integer maxScale) {
    }

    private static final List<TypeRow> TYPES = List.of(
            new TypeRow("BOOLEAN", Types.BOOLEAN, 1, null, null, false, null),
            new TypeRow("INTEGER", Types.INTEGER, 10, null, 10, false, 0),
            new TypeRow("BIGINT", Types.BIGINT, 19, null, 10, false, 0),
            new TypeRow("DOUBLE", Types.DOUBLE, 15, null, 2, false, null),
            new TypeRow("DECIMAL", Types.DECIMAL, 38, null, 10, false, 18),
            new TypeRow("DATE", Types.DATE, 10, "'", null, false, null),
            new TypeRow("TIMESTAMP", Types.TIMESTAMP, 23, "'", null, false, 3),
            new TypeRow("VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, "'", null, true, null));

    void typeInfo(CommandGetXdbcTypeInfo request, ServerStreamListener listener) {
        List<TypeRow> rows = TYPES.stream().filter(t -> !request.hasDataType() || request.getDataType()
                == t.jdbcType()).toList();
        send(Schemas.GET_TYPE_INFO_SCHEMA, root -> {
            for (int i = 0; i < rows.size(); i++) {
                TypeRow t = rows.get(i);
                text(root, "type_name", i, t.name());
                integer(root, "data_type", i, t.jdbcType());
                integer(root, "column_size", i, t.size());
                text(root, "literal_prefix", i, t.quote());
                text(root, "literal_suffix", i, t.quote());
                ((FieldVector) root.getVector("create_params")).setNull(i);
                integer(root, "nullable", i, DatabaseMetaData.typeNullable);
                ((BitVector) root.getVector("case_sensitive")).setSafe(i, t.caseSensitive() ? 1 : 0);
                integer(root, "searchable", i, DatabaseMetaData.typeSearchable);
                ((BitVector) root.getVector("unsigned_attribute")).setSafe(i, 0);
                ((BitVector) root.getVector("fixed_prec_scale")).setSafe(i, 0);
                ((BitVector) root.getVector("auto_increment")).setSafe(i, 0);
                text(root, "local_type_name", i, t.name());
                integer(root, "minimum_scale", i, t.maxScale() == null ? null : 0);
                integer(root, "maximum_scale", i, t.maxScale());
                integer(root, "sql_data_type", i, t.jdbcType());
                integer(root, "datetime_subcode", i, null);
                integer(root, "num_prec_radix", i, t.radix());
                integer(root, "interval_precision", i, null);
            }
            root.setRowCount(rows.size());
        }, listener);
    }

    /** The SqlInfo values asked for (all when none is named); ones Ferry does not answer are left out. */
    void sqlInfo(List<Integer> asked, ServerStreamListener listener) {
        List<Integer> known = asked.stream().filter(sqlInfoKeys::contains).toList();
        if (!asked.isEmpty() && known.isEmpty()) {
            empty(Schemas.GET_SQL_INFO_SCHEMA, listener);
            return;
        }
        sqlInfo.send(known, listener);
    }

    /** What Ferry is and does, in SqlInfo's terms; every key the Flight SQL JDBC driver reads is set. */
    private SqlInfoBuilder sqlInfo() {
        List<String> numeric = new ArrayList<>();
        List<String> strings = new ArrayList<>();
        List<String> dates = new ArrayList<>();
        List<String> system = new ArrayList<>();
        List<String> keywords = new ArrayList<>();
        try (Connection c = engine.connect()) {
            DatabaseMetaData md = c.getMetaData();
            numeric.addAll(List.of(md.getNumericFunctions().split(",")));
            strings.addAll(List.of(md.getStringFunctions().split(",")));
            dates.addAll(List.of(md.getTimeDateFunctions().split(",")));
            system.addAll(List.of(md.getSystemFunctions().split(",")));
            keywords.addAll(List.of(md.getSQLKeywords().split(",")));
        } catch (SQLException e) {
            // the lists stay empty: the rest of SqlInfo does not depend on them
        }
        return new SqlInfoBuilder()
                .withFlightSqlServerName("Ferry")
                .withFlightSqlServerVersion(FerryVersion.VERSION)
                .withFlightSqlServerArrowVersion(org.apache.arrow.vector.VectorSchemaRoot.class.getPackage()
                        .getImplementationVersion() == null ? "19.0.0" : VectorSchemaRoot.class.getPackage()
                        .getImplementationVersion())
                .withFlightSqlServerReadOnly(false)
                .withFlightSqlServerSql(true)
                .withFlightSqlServerSubstrait(false)
                .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
                .withFlightSqlServerCancel(true)
                .withFlightSqlServerBulkIngestion(false)
                .withFlightSqlServerStatementTimeout(0)
                .withFlightSqlServerTransactionTimeout(0)
                .withSqlIdentifierQuoteChar("\"")
                .withSqlIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_LOWERCASE)
                .withSqlQuotedIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlSearchStringEscape("\\")
                .withSqlExtraNameCharacters("")
                .withSqlSchemaTerm("schema")
                .withSqlCatalogTerm("catalog")
                .withSqlProcedureTerm("procedure")
                .withSqlCatalogAtStart(false)
                .withSqlDdlCatalog(false)
                .withSqlDdlSchema(false)
                .withSqlDdlTable(true)
                .withSqlAllTablesAreSelectable(false)
                .withSqlSupportsColumnAliasing(true)
                .withSqlNullPlusNullIsNull(true)
                .withSqlSupportsTableCorrelationNames(true)
                .withSqlSupportsDifferentTableCorrelationNames(false)
                .withSqlSupportsExpressionsInOrderBy(true)
                .withSqlSupportsOrderByUnrelated(true)
                .withSqlSupportsLikeEscapeClause(true)
                .withSqlSupportsNonNullableColumns(true)
                .withSqlSupportsIntegrityEnhancementFacility(false)
                .withSqlSelectForUpdateSupported(false)
                .withSqlStoredProceduresSupported(false)
                .withSqlCorrelatedSubqueriesSupported(true)
                .withSqlMaxRowSizeIncludesBlobs(false)
                .withSqlTransactionsSupported(false)
                .withSqlDataDefinitionCausesTransactionCommit(false)
                .withSqlDataDefinitionsInTransactionsIgnored(false)
                .withSqlBatchUpdatesSupported(true)
                .withSqlSavepointsSupported(false)
                .withSqlNamedParametersSupported(false)
                .withSqlLocatorsUpdateCopy(false)
                .withSqlStoredFunctionsUsingCallSyntaxSupported(false)
                .withSqlKeywords(trimmed(keywords))
                .withSqlNumericFunctions(trimmed(numeric))
                .withSqlStringFunctions(trimmed(strings))
                .withSqlSystemFunctions(trimmed(system))
                .withSqlDatetimeFunctions(trimmed(dates))
                .withSqlSupportsConvert(Map.of())
                .withSqlNullOrdering(SqlNullOrdering.SQL_NULLS_SORTED_HIGH)
                .withSqlMaxBinaryLiteralLength(0)
                .withSqlMaxCharLiteralLength(0)
                .withSqlMaxColumnNameLength(0)
                .withSqlMaxColumnsInGroupBy(0)
                .withSqlMaxColumnsInIndex(1)
                .withSqlMaxColumnsInOrderBy(0)
                .withSqlMaxColumnsInSelect(0)
                .withSqlMaxColumnsInTable(0)
                .withSqlMaxConnections(0)
                .withSqlMaxCursorNameLength(0)
                .withSqlMaxIndexLength(0)
                .withSqlDbSchemaNameLength(0)
                .withSqlMaxProcedureNameLength(0)
                .withSqlMaxCatalogNameLength(0)
                .withSqlMaxRowSize(0)
                .withSqlMaxStatementLength(0)
                .withSqlMaxStatements(0)
                .withSqlMaxTableNameLength(0)
                .withSqlMaxTablesInSelect(0)
                .withSqlMaxUsernameLength(0)
                .withSqlDefaultTransactionIsolation(0)
                .withSqlSupportedGroupBy(SqlSupportedGroupBy.SQL_GROUP_BY_UNRELATED)
                .withSqlSupportedGrammar(SupportedSqlGrammar.SQL_CORE_GRAMMAR)
                .withSqlAnsi92SupportedLevel(SupportedAnsi92SqlGrammarLevel.ANSI92_ENTRY_SQL)
                .withSqlSchemasSupportedActions()
                .withSqlCatalogsSupportedActions()
                .withSqlSupportedPositionedCommands()
                .withSqlSubQueriesSupported(SqlSupportedSubqueries.SQL_SUBQUERIES_IN_COMPARISONS,
                        SqlSupportedSubqueries.SQL_SUBQUERIES_IN_EXISTS, SqlSupportedSubqueries.SQL_SUBQUERIES_IN_INS,
                        SqlSupportedSubqueries.SQL_SUBQUERIES_IN_QUANTIFIEDS)
                .withSqlSupportedUnions(SqlSupportedUnions.SQL_UNION, SqlSupportedUnions.SQL_UNION_ALL)
                .withSqlOuterJoinSupportLevel(SqlOuterJoinsSupportLevel.SQL_FULL_OUTER_JOINS)
                .withSqlSupportedTransactionsIsolationLevels()
                .withSqlSupportedResultSetTypes(SqlSupportedResultSetType.SQL_RESULT_SET_TYPE_FORWARD_ONLY);
    }

    /**
     * The keys {@code builder} answers, read back by asking it for everything: its {@code send} fails on a key it was
     * not given, so a client's list is filtered first.
     */
    private static Set<Integer> registeredKeys(SqlInfoBuilder builder) {
        Set<Integer> keys = new HashSet<>();
        builder.send(List.of(), new ServerStreamListener() {
            private VectorSchemaRoot root;

            @Override
            public boolean isCancelled() {
                return false;
            }

            @Override
            public void setOnCancelHandler(Runnable handler) {
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void start(VectorSchemaRoot r, org.apache.arrow.vector.dictionary.DictionaryProvider d,
                    org.apache.arrow.vector.ipc.message.IpcOption o) {
                root = r;
            }

            @Override
            public void putNext() {
                org.apache.arrow.vector.UInt4Vector names =
                        (org.apache.arrow.vector.UInt4Vector) root.getVector("info_name");
                for (int i = 0; i < root.getRowCount(); i++) {
                    keys.add(names.get(i));
                }
            }

            @Override
            public void putNext(org.apache.arrow.memory.ArrowBuf metadata) {
                putNext();
            }

            @Override
            public void putMetadata(org.apache.arrow.memory.ArrowBuf metadata) {
            }

            @Override
            public void error(Throwable e) {
                throw new IllegalStateException("SqlInfo did not list its keys", e);
            }

            @Override
            public void completed() {
            }
        });
        return keys;
    }

    private static String[] trimmed(List<String> names) {
        return names.stream().map(String::trim).filter(s -> !s.isEmpty()).toArray(String[]::new);
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    /** A row reader that may throw what JDBC throws. */
    private interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    /** Runs {@code sql} with {@code parameters} as {@code who}, handing each row to {@code reader}. */
    private void query(Principal who, String sql, List<String> parameters, RowReader reader) {
        try (Connection c = engine.connect(who); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                ps.setString(i + 1, parameters.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reader.read(rs);
                }
            }
        } catch (SQLException | RuntimeException e) {
            throw FerryFlightProducer.failure(e);
        }
    }

    /** Sends one batch of {@code schema} that {@code fill} makes. */
    private void send(Schema schema, Consumer<VectorSchemaRoot> fill, ServerStreamListener listener) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            fill.accept(root);
            listener.start(root);
            listener.putNext();
            listener.completed();
        } catch (RuntimeException e) {
            listener.error(FerryFlightProducer.failure(e));
        }
    }

    private static void text(VectorSchemaRoot root, String column, int row, String value) {
        VarCharVector v = (VarCharVector) root.getVector(column);
        if (value == null) {
            v.setNull(row);
        } else {
            v.setSafe(row, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void integer(VectorSchemaRoot root, String column, int row, Integer value) {
        IntVector v = (IntVector) root.getVector(column);
        if (value == null) {
            v.setNull(row);
        } else {
            v.setSafe(row, value);
        }
    }

    /** A schema as Flight SQL carries it in its messages: an Arrow IPC schema message. */
    static ByteString ipc(Schema schema) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
            return ByteString.copyFrom(out.toByteArray());
        } catch (IOException e) {
            throw new IllegalStateException("an Arrow schema did not serialize", e);
        }
    }

    @Override
    public void close() {
        // nothing held: each call opens and closes its own connection and vectors
    }
}
