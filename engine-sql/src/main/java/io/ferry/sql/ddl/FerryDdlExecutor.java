package io.ferry.sql.ddl;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.server.DdlExecutorImpl;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlDropView;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.ddl.SqlTruncateTable;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.exec.BatchStream;
import io.ferry.core.expr.CastKernels;
import io.ferry.core.storage.Catalog;
import io.ferry.core.storage.PartitionScheme;
import io.ferry.core.storage.Placement;
import io.ferry.core.storage.Table;
import io.ferry.core.storage.TableAppender;
import io.ferry.core.storage.UniqueConstraint;
import io.ferry.core.storage.ViewDefinition;
import io.ferry.core.storage.ZoneMapIndex;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TableSchema;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.Batch;
import io.ferry.core.vector.Vector;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.FileCopies;
import io.ferry.sql.QueryWarnings;
import io.ferry.sql.ResultBatches;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.access.AccessControl;
import io.ferry.sql.access.Principal;
import io.ferry.sql.access.Privilege;
import io.ferry.sql.access.TableAccess;
import io.ferry.sql.schema.FerrySchema;
import io.ferry.sql.schema.InformationSchema;
import io.ferry.sql.schema.SystemSchema;
import io.ferry.sql.schema.TableWriter;

/**
 * Runs CREATE TABLE [AS], DROP TABLE, TRUNCATE, CREATE [OR REPLACE] VIEW, DROP VIEW, ALTER TABLE, CREATE INDEX,
 * DROP INDEX and SET/RESET against the engine's catalog. Calcite dispatches here by method signature.
 */
public final class FerryDdlExecutor extends DdlExecutorImpl {
    public static final FerryDdlExecutor INSTANCE = new FerryDdlExecutor();

    private FerryDdlExecutor() {
    }

    private static FerrySchema schema(CalcitePrepare.Context context) {
        return (FerrySchema) context.getRootSchema().getSubSchema(FerrySchema.NAME, false).schema;
    }

    private static FerryEngine engine(CalcitePrepare.Context context) {
        return schema(context).engine();
    }

    /** The connection's engine, once its user is known to be an admin: DDL is an admin's ({@link AccessControl}). */
    private static FerryEngine admin(CalcitePrepare.Context context, String what) {
        FerrySchema schema = schema(context);
        schema.engine().access().requireAdmin(schema.principal(), what);
        return schema.engine();
    }

    /**
     * CREATE/ALTER/DROP USER, GRANT and REVOKE. GRANT checks that its tables exist, as a grant on a misspelt name
     * would silently allow nothing.
     */
    public void execute(SqlAccessStatement statement, CalcitePrepare.Context context) {
        FerrySchema schema = schema(context);
        AccessControl access = schema.engine().access();
        Principal by = schema.principal();
        switch (statement.action) {
            case CREATE_USER -> {
                if (statement.passwordText() == null) {
                    throw new FerryException(SqlStates.SYNTAX_ERROR, "CREATE USER needs a password: CREATE USER "
                            + statement.user.getSimple() + " WITH PASSWORD '...'");
                }
                access.createUser(by, statement.user.getSimple(), statement.passwordText().toCharArray(),
                        statement.admin, statement.ifExists);
            }
            case ALTER_USER -> access.alterPassword(by, statement.user.getSimple(),
                    statement.passwordText().toCharArray());
            case DROP_USER -> access.dropUser(by, statement.user.getSimple(), statement.ifExists);
            case GRANT_ADMIN, REVOKE_ADMIN -> names(statement.grantees).forEach(u -> access.setAdmin(by, u,
                    statement.action == SqlAccessStatement.Action.GRANT_ADMIN));
            case GRANT, REVOKE -> {
                Catalog catalog = schema.engine().catalog();
                List<String> tables = new ArrayList<>();
                for (SqlNode n : statement.tables) {
                    String table = Catalog.normalize(tableName((SqlIdentifier) n));
                    boolean view = catalog.views().stream().anyMatch(v -> v.name().equals(table));
                    if (statement.action == SqlAccessStatement.Action.GRANT && !view) {
                        catalog.require(table);
                    }
                    tables.add(table);
                }
                if (statement.action == SqlAccessStatement.Action.GRANT) {
                    access.grant(by, statement.privileges, tables, names(statement.grantees));
                } else {
                    access.revoke(by, statement.privileges, tables, names(statement.grantees));
                }
            }
        }
    }

    private static List<String> names(SqlNodeList identifiers) {
        return identifiers.stream().map(n -> ((SqlIdentifier) n).getSimple()).toList();
    }

    /** {@code SET name = value} and {@code RESET name | ALL}: the connection's settings. */
    public void execute(SqlSetOption set, CalcitePrepare.Context context) {
        String name = set.getName() == null ? null : set.getName().toString();
        if ("ALL".equalsIgnoreCase(name)) {
            name = null;
        }
        SqlNode value = set.getValue();
        if (value == null) {
            schema(context).session().reset(name);
            return;
        }
        String text = value instanceof SqlLiteral literal && literal.getValue() instanceof NlsString nls
                ? nls.getValue() : value instanceof SqlIdentifier id ? id.toString()
                : value instanceof SqlLiteral literal ? literal.toValue() : value.toString();
        schema(context).session().set(name, text);
    }

    public void execute(SqlDropTable drop, CalcitePrepare.Context context) {
        FerryEngine engine = admin(context, "drop tables");
        String name = tableName(drop.name);
        if (engine.catalog().drop(name, drop.ifExists)) {
            engine.access().forgetTable(Catalog.normalize(name));
        }
    }

    /** TRUNCATE: a DELETE of every row, so the DELETE privilege allows it. */
    public void execute(SqlTruncateTable truncate, CalcitePrepare.Context context) {
        FerrySchema schema = schema(context);
        Table table = schema.engine().catalog().require(tableName(truncate.name));
        schema.engine().access().check(schema.principal(), new TableAccess(Set.of(new TableAccess.Need(table.name(),
                Privilege.DELETE))));
        table.truncate();
    }

    /**
     * CREATE INDEX: a zone-map index on one column. Every block already keeps the zone maps of all its columns, so
     * this reads and writes no rows; scans of the table use the column's zone maps from the next statement on.
     */
    public void execute(SqlCreateIndex create, CalcitePrepare.Context context) {
        String table = tableName(create.table);
        String name = create.name.getSimple();
        if (create.getReplace()) {
            throw new FerryException(SqlStates.SYNTAX_ERROR, "CREATE OR REPLACE INDEX is not supported; DROP INDEX "
                    + Catalog.normalize(name) + " and create it again");
        }
        if (create.columns.size() != 1) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "index " + Catalog.normalize(name) + " names "
                    + create.columns.size() + " columns; a zone-map index covers one column: create one index per "
                    + "column (a scan uses every index of its table at once)");
        }
        Catalog catalog = admin(context, "create indexes").catalog();
        String column = ((SqlIdentifier) create.columns.get(0)).getSimple();
        Table t = catalog.require(table);
        int position = t.schema().indexOf(Catalog.normalize(column));
        if (position >= 0 && t.schema().type(position).kind() == io.ferry.core.types.TypeKind.VARCHAR) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "column '" + Catalog.normalize(column)
                    + "' of table " + t.name() + " is a VARCHAR: zone-map indexes cover numeric, BOOLEAN, DATE and "
                    + "TIMESTAMP columns only");
        }
        catalog.createIndex(name, table, column, create.ifNotExists);
    }

    public void execute(SqlDropIndex drop, CalcitePrepare.Context context) {
        admin(context, "drop indexes").catalog().dropIndex(tableName(drop.name), drop.ifExists);
    }

    public void execute(SqlDropView drop, CalcitePrepare.Context context) {
        FerryEngine engine = admin(context, "drop views");
        String name = tableName(drop.name);
        if (engine.catalog().dropView(name, drop.ifExists)) {
            engine.access().forgetTable(Catalog.normalize(name));
        }
    }

    /**
     * CREATE [OR REPLACE] VIEW: the query is planned once here, so that a view that cannot run is refused when it is
     * created, and its columns are known to metadata calls before anyone queries it.
     */
    public void execute(SqlCreateView create, CalcitePrepare.Context context) {
        FerryEngine engine = admin(context, "create views");
        String name = tableName(create.name);
        String sql = create.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
        List<Column> columns;
        try (Connection conn = engine.connect(); java.sql.PreparedStatement p = conn.prepareStatement(sql)) {
            ResultSetMetaData md = p.getMetaData();
            if (create.columnList != null && create.columnList.size() != md.getColumnCount()) {
                throw new FerryException(SqlStates.SYNTAX_ERROR, "view " + name + " names " + create.columnList.size()
                        + " columns but its query gives " + md.getColumnCount());
            }
            columns = resultColumns(md, create.columnList == null ? null : create.columnList.stream()
                    .map(n -> ((SqlIdentifier) n).getSimple()).toList());
        } catch (SQLException e) {
            SqlErrors.Translated t = SqlErrors.translate(e);
            throw new FerryException(t.sqlState(), "view " + name + " cannot be created: " + t.message(), e);
        }
        if (columns.stream().map(Column::name).distinct().count() < columns.size()) {
            throw new FerryException(SqlStates.DUPLICATE_COLUMN, "view " + name + " would have two columns of one "
                    + "name; give them distinct aliases in its query or name them in CREATE VIEW " + name + " (...)");
        }
        String expanded = create.columnList == null ? sql : "SELECT * FROM (" + sql + ") AS v ("
                + String.join(", ", columns.stream().map(c -> '"' + c.name() + '"').toList()) + ")";
        engine.catalog().createView(new ViewDefinition(name, expanded, new TableSchema(columns)), create.getReplace());
    }

    /**
     * ALTER TABLE: the altered table is built aside (its rows copied, or shared when only a name changes), then
     * swapped in for the old one in one step; the old table's write lock is held throughout, so no write is lost
     * between. A view the change would break makes it fail (2BP01), unless DROP COLUMN ... CASCADE drops the view.
     */
    public void execute(SqlAlterTable alter, CalcitePrepare.Context context) {
        FerryEngine engine = admin(context, "alter tables");
        Catalog catalog = engine.catalog();
        String name = tableName(alter.name);
        Table table = catalog.get(name);
        if (table == null) {
            if (alter.ifExists) {
                return;
            }
            catalog.require(name);
        }
        try (Table.WriteLock held = table.lockWrites()) {
            Table next = altered(engine, table, alter);
            if (next == null) {
                return;
            }
            List<String> brokenBefore = brokenViews(engine);
            try {
                catalog.swap(table, next);
            } catch (RuntimeException e) {
                catalog.discard(next); // its rows (shared or copied) would leak otherwise
                throw e;
            }
            try {
                List<String> broken = new ArrayList<>(brokenViews(engine));
                broken.removeAll(brokenBefore);
                if (!broken.isEmpty() && !(alter.cascade && alter.action == SqlAlterTable.Action.DROP_COLUMN)) {
                    throw new FerryException(SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "view" + (broken.size() > 1
                            ? "s " : " ") + String.join(", ", broken) + " would no longer work after this ALTER "
                            + "TABLE; DROP VIEW " + (broken.size() > 1 ? "them" : "it") + " first (and create "
                            + (broken.size() > 1 ? "them" : "it") + " again after)" + (alter.action
                            == SqlAlterTable.Action.DROP_COLUMN ? ", or add CASCADE to drop " + (broken.size() > 1
                            ? "them" : "it") + " with the column" : ""));
                }
                for (String view : broken) {
                    catalog.dropView(view, true);
                    engine.access().forgetTable(view);
                }
            } catch (RuntimeException e) {
                catalog.swap(next, table);
                catalog.discard(next);
                throw e;
            }
            catalog.discard(table);
            if (alter.action == SqlAlterTable.Action.RENAME_TABLE) {
                engine.access().renameTable(table.name(), next.name());
            }
        }
    }

    /** The table as {@code alter} leaves it, not yet in the catalog; null if IF [NOT] EXISTS makes it a no-op. */
    private static Table altered(FerryEngine engine, Table table, SqlAlterTable alter) {
        Catalog catalog = engine.catalog();
        TableSchema schema = table.schema();
        List<Column> columns = new ArrayList<>(schema.columns());
        String column = alter.column == null ? null : Catalog.normalize(alter.column.getSimple());
        int position = column == null ? -1 : schema.indexOf(column);
        if (alter.action == SqlAlterTable.Action.ADD_COLUMN) {
            if (position >= 0) {
                if (alter.ifColumn) {
                    return null;
                }
                throw new FerryException(SqlStates.DUPLICATE_COLUMN, "table " + table.name() + " already has a "
                        + "column '" + column + "'; choose another name or use ADD COLUMN IF NOT EXISTS");
            }
            boolean nullable = !Boolean.FALSE.equals(alter.type.getNullable());
            if (!nullable && table.rowCount() > 0) {
                throw new FerryException(SqlStates.NOT_NULL_VIOLATION, "column '" + column + "' cannot be NOT NULL: "
                        + "table " + table.name() + " has rows, which would have no value in it; add it without NOT "
                        + "NULL and UPDATE the rows");
            }
            columns.add(new Column(column, type(alter.type, column), nullable));
            Table next = catalog.detached(table.name(), new TableSchema(columns), table.constraints(),
                    table.indexes());
            catalog.partition(next, table.partitioning(), table.placement()); // the new column is last
            // The rows as they are: the new last column stays NULL
            copyRows(engine, table, next, schema.columns());
            return next;
        }
        if (alter.action == SqlAlterTable.Action.RENAME_TABLE) {
            Table next = catalog.detached(Catalog.normalize(alter.newName.getSimple()), schema, table.constraints(),
                    table.indexes());
            catalog.partition(next, table.partitioning(), table.placement());
            next.shareRows(table);
            return next;
        }
        if (position < 0) {
            if (alter.ifColumn) {
                return null;
            }
            throw new FerryException(SqlStates.UNDEFINED_COLUMN, "table " + table.name() + " has no column '"
                    + column + "'" + (alter.action == SqlAlterTable.Action.DROP_COLUMN ? "; use DROP COLUMN IF EXISTS"
                    + " to ignore that" : ""));
        }
        if (alter.action == SqlAlterTable.Action.RENAME_COLUMN) {
            String newName = Catalog.normalize(alter.newName.getSimple());
            if (schema.indexOf(newName) >= 0) {
                throw new FerryException(SqlStates.DUPLICATE_COLUMN, "table " + table.name() + " already has a "
                        + "column '" + newName + "'; choose another name");
            }
            Column old = columns.get(position);
            columns.set(position, new Column(newName, old.type(), old.nullable()));
            Table next = catalog.detached(table.name(), new TableSchema(columns), table.constraints(),
                    table.indexes());
            catalog.partition(next, table.partitioning(), table.placement());
            next.shareRows(table);
            return next;
        }
        if (columns.size() == 1) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "column '" + column + "' is the only column of"
                    + " table " + table.name() + "; a table keeps at least one (DROP TABLE drops it whole)");
        }
        List<PartitionScheme.Key> partitionKeys = new ArrayList<>();
        for (PartitionScheme.Key k : table.partitioning().keys()) {
            if (k.column() == position) {
                throw new FerryException(SqlStates.DEPENDENT_OBJECTS_STILL_EXIST, "column '" + column + "' "
                        + "partitions table " + table.name() + " (domain " + k.domain() + "); a table keeps its "
                        + "partitioning: copy it into a new table partitioned otherwise");
            }
            partitionKeys.add(new PartitionScheme.Key(k.column() > position ? k.column() - 1 : k.column(),
                    k.domain(), k.parts()));
        }
        columns.remove(position);
        // As in PostgreSQL, the keys that include the column go with it
        List<UniqueConstraint> constraints = new ArrayList<>();
        for (UniqueConstraint c : table.constraints()) {
            if (!c.columns().contains(position)) {
                constraints.add(new UniqueConstraint(c.name(), c.primaryKey(), c.columns().stream()
                        .map(p -> p > position ? p - 1 : p).toList()));
            }
        }
        // So do the indexes on it
        List<ZoneMapIndex> indexes = new ArrayList<>();
        for (ZoneMapIndex i : table.indexes()) {
            if (i.column() != position) {
                indexes.add(new ZoneMapIndex(i.name(), i.column() > position ? i.column() - 1 : i.column()));
            }
        }
        Table next = catalog.detached(table.name(), new TableSchema(columns), constraints, indexes);
        catalog.partition(next, new PartitionScheme(partitionKeys), table.placement());
        copyRows(engine, table, next, columns);
        return next;
    }

    /**
     * Appends {@code columns} of every row of {@code from} to {@code to}, read by a query, so that it works wherever
     * the blocks are (on this node, or on a cluster's memory servers).
     */
    private static void copyRows(FerryEngine engine, Table from, Table to, List<Column> columns) {
        String sql = "SELECT " + String.join(", ", columns.stream().map(c -> '"' + c.name() + '"').toList())
                + " FROM \"" + from.name() + '"';
        try (Connection conn = engine.connect(); Statement st = conn.createStatement();
                ResultBatches capture = ResultBatches.capture(); ResultSet rs = st.executeQuery(sql);
                TableAppender appender = to.appender()) {
            appendRows(rs, capture, to.schema(), columns.size(), appender);
            appender.commit();
        } catch (SQLException | RuntimeException e) {
            engine.catalog().discard(to);
            throw e instanceof RuntimeException r ? r : translated((SQLException) e);
        }
    }

    /**
     * Stages the rows of a query's result, whose first {@code width} columns fill the schema's first ones: the
     * engine's batches as they come where {@code capture} caught the whole result (no JDBC row is made: CREATE TABLE
     * AS of 5 M rows took most of a minute row by row), the rows of {@code rs} otherwise.
     */
    private static void appendRows(ResultSet rs, ResultBatches capture, TableSchema schema, int width,
            TableAppender appender) throws SQLException {
        BatchStream batches = capture.take();
        if (batches == null) {
            appendRows(rs, schema, width, appender);
            return;
        }
        try (batches) {
            for (int c = 0; c < width; c++) {
                if (!storable(capture.types().get(c), schema.type(c))) {
                    throw new FerryException(SqlStates.INTERNAL_ERROR, "internal error: the result's column " + (c + 1)
                            + " is a " + capture.types().get(c) + ", which column '" + schema.columns().get(c).name()
                            + "' (" + schema.type(c) + ") does not store as it is");
                }
            }
            for (Batch b = batches.next(); b != null; b = batches.next()) {
                appender.append(filled(b, schema, width));
            }
        }
    }

    /**
     * The batch's columns, then NULL for the schema's columns it does not give (a column ALTER TABLE adds), refused
     * as the row path refuses them where the column is NOT NULL.
     */
    private static Batch filled(Batch b, TableSchema schema, int width) {
        Vector[] columns = new Vector[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            Column col = schema.column(c);
            columns[c] = c < width ? b.column(c) : Vector.allNull(col.type().physical(), b.rowCount());
            if (!col.nullable() && columns[c].nulls() != null) {
                for (int i = 0; i < b.rowCount(); i++) {
                    if (columns[c].isNull(i)) {
                        throw new FerryException(SqlStates.NOT_NULL_VIOLATION, "column '" + col.name()
                                + "' is NOT NULL, but a row gives it no value; supply one");
                    }
                }
            }
        }
        return new Batch(b.rowCount(), columns);
    }

    /** Whether values of type {@code from} are values of {@code to} as they are: same kind, same representation. */
    private static boolean storable(FerryType from, FerryType to) {
        if (from.kind() != to.kind()) {
            return false;
        }
        return from.kind() != TypeKind.DECIMAL || (from.scale() == to.scale()
                && from.isWideDecimal() == to.isWideDecimal() && from.precision() <= to.precision());
    }

    /** Stages the rows of {@code rs}, whose first {@code width} columns fill the schema's first ones. */
    private static void appendRows(ResultSet rs, TableSchema schema, int width, TableAppender appender)
            throws SQLException {
        TableWriter.Rows builder = new TableWriter.Rows(schema);
        Object[] row = new Object[width];
        while (rs.next()) {
            for (int c = 0; c < width; c++) {
                row[c] = read(rs, c + 1, schema.type(c));
            }
            builder.add(row);
            if (builder.isFull()) {
                appender.append(builder.build());
            }
        }
        if (builder.size() > 0) {
            appender.append(builder.build());
        }
    }

    private static FerryException translated(SQLException e) {
        SqlErrors.Translated t = SqlErrors.translate(e);
        return new FerryException(t.sqlState(), t.message(), e);
    }

    /** The views that cannot be planned now. */
    private static List<String> brokenViews(FerryEngine engine) {
        List<String> broken = new ArrayList<>();
        for (ViewDefinition view : engine.catalog().views()) {
            try (Connection conn = engine.connect(); java.sql.PreparedStatement p = conn.prepareStatement(
                    view.sql())) {
                p.getMetaData();
            } catch (SQLException | RuntimeException e) {
                broken.add(view.name());
            }
        }
        return broken;
    }

    public void execute(SqlCreateTable create, CalcitePrepare.Context context) {
        FerryEngine engine = admin(context, "create tables");
        Catalog catalog = engine.catalog();
        String name = tableName(create.name);
        if (create.ifNotExists && catalog.get(name) != null) {
            return;
        }
        if (create.query == null) {
            if (create.columnList == null) {
                throw new FerryException(SqlStates.SYNTAX_ERROR, "CREATE TABLE needs a column list or AS SELECT");
            }
            List<Column> columns = columns(create);
            List<UniqueConstraint> constraints = constraints(create, name, columns);
            TableSchema schema = new TableSchema(columns);
            Partitioning partitioning = Partitioning.of(create, schema);
            Table table = catalog.create(name, schema, constraints, create.ifNotExists);
            catalog.partition(table, partitioning.scheme(), partitioning.placement());
            return;
        }
        createAs(engine, name, create);
    }

    /** How CREATE TABLE ... WITH (partition_by = '...', placement = '...') splits and places the table. */
    private record Partitioning(PartitionScheme scheme, Placement placement) {
        static Partitioning of(SqlCreateTable create, TableSchema schema) {
            if (!(create instanceof SqlCreateTableWith with)) {
                return new Partitioning(PartitionScheme.NONE, Placement.NAM);
            }
            PartitionScheme scheme = PartitionScheme.NONE;
            Placement placement = Placement.NAM;
            for (Map.Entry<String, String> o : with.options.entrySet()) {
                switch (o.getKey()) {
                    case "partition_by" -> scheme = PartitionScheme.parse(o.getValue(), schema);
                    case "placement" -> placement = Placement.named(o.getValue());
                    default -> throw new FerryException(SqlStates.SYNTAX_ERROR, "CREATE TABLE has no option '"
                            + o.getKey() + "'; it takes partition_by = 'domain:parts, ...' and placement = 'nam' | "
                            + "'partition'");
                }
            }
            return new Partitioning(scheme, placement);
        }
    }

    /**
     * The table a DDL statement names: user tables live in schema {@value FerrySchema#NAME}, which is also the
     * default; {@code sys} and {@code information_schema} hold Ferry's own read-only tables, and there are no other
     * schemas.
     */
    private static String tableName(SqlIdentifier id) {
        if (id.names.size() > 1) {
            String schema = id.names.get(id.names.size() - 2);
            if (SystemSchema.NAME.equalsIgnoreCase(schema) || InformationSchema.NAME.equalsIgnoreCase(schema)) {
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "schema " + schema.toLowerCase(
                        java.util.Locale.ROOT) + " holds Ferry's system tables, which cannot be created, emptied or "
                        + "dropped; create tables in schema " + FerrySchema.NAME + " (the default)");
            }
            if (!FerrySchema.NAME.equalsIgnoreCase(schema) || id.names.size() > 2) {
                throw new FerryException(SqlStates.INVALID_SCHEMA_NAME, "schema '" + String.join(".",
                        id.names.subList(0, id.names.size() - 1)) + "' does not exist; tables live in schema "
                        + FerrySchema.NAME + " (the default)");
            }
        }
        return id.names.get(id.names.size() - 1);
    }

    private static List<Column> columns(SqlCreateTable create) {
        List<Column> columns = new ArrayList<>();
        for (SqlNode n : create.columnList) {
            if (!(n instanceof SqlColumnDeclaration d)) {
                continue;
            }
            if (d.expression != null) {
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "column defaults and generated columns are "
                        + "not supported (column '" + d.name.getSimple() + "')");
            }
            boolean nullable = d.strategy != ColumnStrategy.NOT_NULLABLE
                    && !Boolean.FALSE.equals(d.dataType.getNullable());
            String name = Catalog.normalize(d.name.getSimple());
            if (columns.stream().anyMatch(c -> c.name().equals(name))) {
                throw new FerryException(SqlStates.DUPLICATE_COLUMN, "column '" + name + "' is declared twice in "
                        + "CREATE TABLE " + tableName(create.name) + "; give each column its own name");
            }
            columns.add(new Column(name, type(d), nullable));
        }
        return columns;
    }

    /**
     * The PRIMARY KEY and UNIQUE constraints of a CREATE TABLE's list (a column's own PRIMARY KEY or UNIQUE is a
     * one-column constraint); a primary key's columns become NOT NULL in {@code columns}, as in SQL.
     */
    private static List<UniqueConstraint> constraints(SqlCreateTable create, String table, List<Column> columns) {
        List<UniqueConstraint> constraints = new ArrayList<>();
        TableSchema schema = new TableSchema(columns);
        for (SqlNode n : create.columnList) {
            if (!(n instanceof SqlKeyConstraint key)) {
                continue;
            }
            boolean primary = key.getOperator().getKind() == SqlKind.PRIMARY_KEY;
            if (primary && constraints.stream().anyMatch(UniqueConstraint::primaryKey)) {
                throw new FerryException(SqlStates.INVALID_TABLE_DEFINITION, "table " + table + " declares two "
                        + "primary keys; a table has at most one (declare other keys UNIQUE)");
            }
            SqlIdentifier name = (SqlIdentifier) key.getOperandList().get(0);
            List<Integer> positions = new ArrayList<>();
            for (SqlNode c : (SqlNodeList) key.getOperandList().get(1)) {
                String column = Catalog.normalize(((SqlIdentifier) c).getSimple());
                int position = schema.indexOf(column);
                if (position < 0) {
                    throw new FerryException(SqlStates.UNDEFINED_COLUMN, "column '" + column + "' named in a key of "
                            + "table " + table + " is not one of its columns");
                }
                if (positions.contains(position)) {
                    throw new FerryException(SqlStates.DUPLICATE_COLUMN, "column '" + column + "' appears twice in "
                            + "a key of table " + table);
                }
                positions.add(position);
            }
            String constraintName = name != null ? Catalog.normalize(name.getSimple())
                    : table + (primary ? "_pkey" : "_" + String.join("_", positions.stream()
                            .map(p -> columns.get(p).name()).toList()) + "_key");
            constraints.add(new UniqueConstraint(constraintName, primary, positions));
            if (primary) {
                for (int p : positions) {
                    Column c = columns.get(p);
                    columns.set(p, new Column(c.name(), c.type(), false));
                }
            }
        }
        return constraints;
    }

    private static FerryType type(SqlColumnDeclaration d) {
        return type(d.dataType, d.name.getSimple());
    }

    private static FerryType type(SqlDataTypeSpec dataType, String column) {
        SqlTypeNameSpec spec = dataType.getTypeNameSpec();
        String typeName = spec.getTypeName().getSimple();
        SqlTypeName name = TypeMapping.ALIASES.getOrDefault(typeName.toLowerCase(java.util.Locale.ROOT),
                SqlTypeName.get(typeName.toUpperCase(java.util.Locale.ROOT)));
        int precision = spec instanceof SqlBasicTypeNameSpec b ? b.getPrecision() : -1;
        int scale = spec instanceof SqlBasicTypeNameSpec b ? b.getScale() : -1;
        if (name == null) {
            throw unsupportedType(spec.getTypeName().getSimple(), column);
        }
        return switch (name) {
            case BOOLEAN -> FerryType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> FerryType.INTEGER;
            case BIGINT -> FerryType.BIGINT;
            case FLOAT, REAL, DOUBLE -> FerryType.DOUBLE;
            case DECIMAL -> {
                int p = precision < 0 ? FerryType.MAX_DECIMAL_DIGITS : precision;
                if (p > FerryType.MAX_DECIMAL_PRECISION || scale > FerryType.MAX_DECIMAL_SCALE) {
                    throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "DECIMAL(" + p + ", " + scale
                            + ") for column '" + column + "' is too wide: a DECIMAL has at most "
                            + FerryType.MAX_DECIMAL_PRECISION + " digits, " + FerryType.MAX_DECIMAL_SCALE
                            + " of them after the point; use a smaller scale or DOUBLE");
                }
                yield FerryType.decimal(p, Math.max(0, scale));
            }
            case DATE -> FerryType.DATE;
            case TIMESTAMP -> FerryType.TIMESTAMP;
            case CHAR, VARCHAR -> precision > 0 ? FerryType.varchar(precision) : FerryType.VARCHAR;
            default -> throw unsupportedType(name.getName(), column);
        };
    }

    private static FerryException unsupportedType(String type, String column) {
        return new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "type " + type + " of column '" + column
                + "' is not supported; use BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP or VARCHAR");
    }

    /** CREATE TABLE ... AS SELECT: runs the query through the engine, then publishes the new table whole. */
    private static void createAs(FerryEngine engine, String name, SqlCreateTable create) {
        String sql = create.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
        Catalog catalog = engine.catalog();
        Table table = null;
        try (Connection conn = engine.connect(); Statement st = conn.createStatement();
                ResultBatches capture = ResultBatches.capture(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            List<Column> columns = resultColumns(md, create.columnList == null ? null : simpleNames(create));
            TableSchema schema = new TableSchema(columns);
            Partitioning partitioning = Partitioning.of(create, schema);
            table = catalog.createToFill(name, schema);
            catalog.partition(table, partitioning.scheme(), partitioning.placement());
            try (TableAppender appender = table.appender()) {
                appendRows(rs, capture, schema, columns.size(), appender);
                appender.commit();
            }
        } catch (SQLException | RuntimeException e) {
            if (table != null) {
                catalog.drop(name, true);
            }
            throw e instanceof RuntimeException r ? r : translated((SQLException) e);
        }
    }

    /**
     * The result of {@code sql}, run on {@code conn}, as a table outside the catalog (named {@code name}), for COPY
     * to write out with Ferry's batch writers; the caller discards it ({@link Catalog#discard}).
     */
    public static Table detachedResult(FerryEngine engine, Connection conn, String sql, String name)
            throws SQLException {
        try (Statement st = conn.createStatement(); ResultBatches capture = ResultBatches.capture();
                ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            List<Column> columns = resultColumns(md, null);
            TableSchema schema = new TableSchema(columns);
            Table table = engine.catalog().detached(name, schema, List.of(), List.of());
            try (TableAppender appender = table.appender()) {
                appendRows(rs, capture, schema, columns.size(), appender);
                appender.commit();
            } catch (SQLException | RuntimeException e) {
                engine.catalog().discard(table);
                throw e;
            }
            return table;
        }
    }

    /**
     * COPY ... FROM | TO 'file': the engine's {@link io.ferry.sql.FileCopies} reads or writes the file; reading into
     * a table needs its INSERT privilege, writing runs the query with the user's own rights.
     */
    public void execute(SqlCopy copy, CalcitePrepare.Context context) {
        FerrySchema schema = schema(context);
        FerryEngine engine = schema.engine();
        FileCopies.Format format = format(copy.options, copy.from, copy.file);
        long rows;
        if (copy.from) {
            Table table = engine.catalog().require(tableName(copy.table));
            engine.access().check(schema.principal(), new TableAccess(Set.of(new TableAccess.Need(table.name(),
                    Privilege.INSERT))));
            rows = engine.copies().copyFrom(schema.principal(), table.name(), copy.file, format);
        } else {
            // writing a file on the server's machine is an admin's: the server's user owns what gets written
            engine.access().requireAdmin(schema.principal(), "write files on the server (COPY ... TO)");
            String query = copy.query != null ? copy.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql()
                    : "SELECT * FROM \"" + engine.catalog().require(tableName(copy.table)).name().replace("\"", "\"\"")
                    + "\"";
            rows = engine.copies().copyTo(schema.principal(), query, copy.file, format);
        }
        String done = String.format(java.util.Locale.ROOT, "COPY %d: %,d rows %s %s", rows, rows,
                copy.from ? "read from" : "written to", copy.file);
        QueryWarnings.report(() -> List.of(done));
    }

    /**
     * COPY's options as a format, each option checked: FORMAT csv or parquet (by default parquet for a file named
     * {@code *.parquet}, as DuckDB guesses, else csv); CSV's HEADER, DELIMITER, QUOTE and NULL; Parquet's COMPRESSION
     * (writing) and BINARY_AS_STRING (reading).
     */
    private static FileCopies.Format format(Map<String, String> options, boolean from, String file) {
        FileCopies.Format f = FileCopies.Format.DEFAULT;
        FileCopies.Kind kind = file.toLowerCase(java.util.Locale.ROOT).endsWith(".parquet")
                ? FileCopies.Kind.PARQUET : FileCopies.Kind.CSV;
        boolean header = f.header();
        char delimiter = f.delimiter();
        char quote = f.quote();
        String nullString = f.nullString();
        String compression = null;
        boolean binaryAsString = false;
        List<String> csvOptions = new ArrayList<>();
        List<String> parquetOptions = new ArrayList<>();
        for (Map.Entry<String, String> o : options.entrySet()) {
            String value = o.getValue();
            String key = o.getKey();
            switch (key) {
                case "format" -> kind = switch (value == null ? "" : value.toLowerCase(java.util.Locale.ROOT)) {
                    case "csv" -> FileCopies.Kind.CSV;
                    case "parquet" -> FileCopies.Kind.PARQUET;
                    default -> throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "COPY format '" + value
                            + "' is not one Ferry knows; use FORMAT csv or FORMAT parquet");
                };
                case "header" -> header = value == null || flag(value, "HEADER");
                case "delimiter", "delim", "sep" -> delimiter = character(value, "DELIMITER");
                case "quote" -> quote = character(value, "QUOTE");
                case "null", "nullstr" -> nullString = value == null ? "" : value;
                case "compression", "codec" -> compression = value;
                case "binary_as_string" -> binaryAsString = value == null || flag(value, "BINARY_AS_STRING");
                default -> throw new FerryException(SqlStates.SYNTAX_ERROR, "COPY has no option '" + key + "'; it "
                        + "takes FORMAT csv | parquet; for CSV HEADER [true | false], DELIMITER 'c', QUOTE 'c' and "
                        + "NULL 'text'; for Parquet COMPRESSION 'codec' and BINARY_AS_STRING [true | false]");
            }
            switch (key) {
                case "header", "delimiter", "delim", "sep", "quote", "null", "nullstr" -> csvOptions.add(key);
                case "compression", "codec", "binary_as_string" -> parquetOptions.add(key);
                default -> {
                }
            }
        }
        if (kind == FileCopies.Kind.PARQUET && !csvOptions.isEmpty()) {
            throw new FerryException(SqlStates.SYNTAX_ERROR, "COPY option " + String.join(", ", csvOptions).toUpperCase(
                    java.util.Locale.ROOT) + " is for CSV, and this COPY is FORMAT parquet; leave it out");
        }
        if (kind == FileCopies.Kind.CSV && !parquetOptions.isEmpty()) {
            throw new FerryException(SqlStates.SYNTAX_ERROR, "COPY option " + String.join(", ", parquetOptions)
                    .toUpperCase(java.util.Locale.ROOT) + " is for Parquet, and this COPY is FORMAT csv; add FORMAT "
                    + "parquet or leave it out");
        }
        if (from && compression != null) {
            throw new FerryException(SqlStates.SYNTAX_ERROR, "COPY ... FROM reads the compression from the file; "
                    + "leave out COMPRESSION");
        }
        if (!from && binaryAsString) {
            throw new FerryException(SqlStates.SYNTAX_ERROR, "BINARY_AS_STRING is for reading; COPY ... TO writes "
                    + "VARCHAR as Parquet strings");
        }
        if (!from && (quote != '"' || !nullString.isEmpty())) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "COPY ... TO writes NULL as an empty field and "
                    + "quotes with '\"'; leave out QUOTE and NULL");
        }
        return new FileCopies.Format(kind, header, delimiter, quote, nullString, compression, binaryAsString);
    }

    private static boolean flag(String value, String option) {
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "COPY option " + option
                    + " takes true or false, not '" + value + "'");
        };
    }

    private static char character(String value, String option) {
        String v = "\\t".equals(value) ? "\t" : value;
        if (v == null || v.length() != 1) {
            throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "COPY option " + option + " takes one "
                    + "character, e.g. " + option + " ','");
        }
        return v.charAt(0);
    }

    /** The columns a query's result gives, named as {@code declared} says where it names them (null: as the query). */
    private static List<Column> resultColumns(ResultSetMetaData md, List<String> declared) throws SQLException {
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            String name = declared != null && i <= declared.size() ? declared.get(i - 1) : md.getColumnLabel(i);
            columns.add(new Column(Catalog.normalize(name), fromJdbc(md, i),
                    md.isNullable(i) != ResultSetMetaData.columnNoNulls));
        }
        return columns;
    }

    private static List<String> simpleNames(SqlCreateTable create) {
        List<String> names = new ArrayList<>();
        for (SqlNode n : create.columnList) {
            names.add(n instanceof SqlColumnDeclaration d ? d.name.getSimple() : n.toString());
        }
        return names;
    }

    private static Object read(ResultSet rs, int i, FerryType type) throws SQLException {
        return switch (type.kind()) {
            case DATE, TIMESTAMP -> {
                String s = rs.getString(i);
                yield s == null ? null : CastKernels.parseLong(s, type);
            }
            case DECIMAL -> rs.getBigDecimal(i);
            case VARCHAR -> rs.getString(i);
            default -> rs.getObject(i);
        };
    }

    private static FerryType fromJdbc(ResultSetMetaData md, int i) throws SQLException {
        return switch (md.getColumnType(i)) {
            case Types.BOOLEAN, Types.BIT -> FerryType.BOOLEAN;
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> FerryType.INTEGER;
            case Types.BIGINT -> FerryType.BIGINT;
            case Types.FLOAT, Types.REAL, Types.DOUBLE -> FerryType.DOUBLE;
            case Types.DECIMAL, Types.NUMERIC -> FerryType.decimal(
                    Math.min(FerryType.MAX_DECIMAL_PRECISION, Math.max(1, md.getPrecision(i))),
                    Math.max(0, Math.min(md.getScale(i), Math.min(FerryType.MAX_DECIMAL_SCALE,
                            Math.min(FerryType.MAX_DECIMAL_PRECISION, Math.max(1, md.getPrecision(i)))))));
            case Types.DATE -> FerryType.DATE;
            case Types.TIMESTAMP -> FerryType.TIMESTAMP;
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> FerryType.VARCHAR;
            default -> throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "column '" + md.getColumnLabel(i)
                    + "' has type " + md.getColumnTypeName(i) + ", which a Ferry table cannot store; CAST it");
        };
    }
}
