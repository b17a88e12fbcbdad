package io.ferry.sql.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.schema.impl.AbstractSchema;

import io.ferry.core.storage.Table;
import io.ferry.core.storage.UniqueConstraint;
import io.ferry.core.storage.ViewDefinition;
import io.ferry.core.types.Column;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.Principal;

/**
 * The SQL standard's {@code information_schema}: the schemata, tables, columns and views of every schema Ferry has
 * ({@value FerrySchema#NAME}, {@value SystemSchema#NAME} and this one, as PostgreSQL lists its own catalogs too).
 * Rows are made from the engine's catalog when a table is scanned, so DDL shows at once; a user sees the tables and
 * views they hold a privilege on (an admin all of them), as in PostgreSQL.
 *
 * <p>Column names and values follow the standard as PostgreSQL and DuckDB spell them ({@code table_type} is
 * {@code 'BASE TABLE'} or {@code 'VIEW'}, {@code is_nullable} is {@code 'YES'} or {@code 'NO'}); data types are
 * written as DuckDB writes them ({@code DECIMAL(12,2)}, {@code VARCHAR}). Ferry's own read-only tables have table type
 * {@code 'SYSTEM TABLE'}, the name JDBC's getTables gives them. Ferry has no catalogs (JDBC's TABLE_CAT is NULL), so
 * {@code table_catalog} is NULL.
 */
public final class InformationSchema extends AbstractSchema {
    public static final String NAME = "information_schema";

    /** {@code table_type} of a user's table. */
    public static final String BASE_TABLE = "BASE TABLE";
    /** {@code table_type} of a view. */
    public static final String VIEW = "VIEW";
    /** {@code table_type} of a table in {@code sys} or {@code information_schema}. */
    public static final String SYSTEM_TABLE = "SYSTEM TABLE";

    private final FerryEngine engine;
    private final Map<String, SystemTable> tables = new LinkedHashMap<>();

    public InformationSchema(FerryEngine engine) {
        this.engine = engine;
        tables.put("schemata", new SystemTable(List.of(text("catalog_name"), text("schema_name"),
                text("schema_owner")), this::schemataRows));
        tables.put("tables", SystemTable.perUser(List.of(text("table_catalog"), text("table_schema"), text("table_name"),
                text("table_type"), text("is_insertable_into")), this::tablesRows));
        tables.put("columns", SystemTable.perUser(List.of(text("table_catalog"), text("table_schema"),
                text("table_name"), text("column_name"), number("ordinal_position"), text("column_default"),
                text("is_nullable"), text("data_type"), number("character_maximum_length"),
                number("numeric_precision"), number("numeric_precision_radix"), number("numeric_scale"),
                number("datetime_precision")), this::columnsRows));
        tables.put("views", SystemTable.perUser(List.of(text("table_catalog"), text("table_schema"), text("table_name"),
                text("view_definition"), text("check_option"), text("is_updatable"), text("is_insertable_into")),
                this::viewsRows));
        tables.put("table_constraints", SystemTable.perUser(List.of(text("constraint_catalog"), text("constraint_schema"),
                text("constraint_name"), text("table_catalog"), text("table_schema"), text("table_name"),
                text("constraint_type"), text("is_deferrable"), text("initially_deferred"), text("enforced")),
                this::tableConstraintsRows));
        tables.put("key_column_usage", SystemTable.perUser(List.of(text("constraint_catalog"), text("constraint_schema"),
                text("constraint_name"), text("table_catalog"), text("table_schema"), text("table_name"),
                text("column_name"), number("ordinal_position"), number("position_in_unique_constraint")),
                this::keyColumnUsageRows));
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        return Map.copyOf(tables);
    }

    /** A table or view of some schema, with what information_schema says of it. */
    private record Relation(String schema, String name, String type, List<Column> columns, String viewSql) {
    }

    /**
     * Every relation {@code reader} sees, user tables and views first, each schema's in name order: of Ferry's
     * tables and views, those the reader holds a privilege on ({@link io.ferry.sql.access.AccessControl#maySee}).
     */
    private List<Relation> relations(Principal reader) {
        List<Relation> out = new ArrayList<>();
        for (Table t : visibleTables(reader)) {
            out.add(new Relation(FerrySchema.NAME, t.name(), BASE_TABLE, t.schema().columns(), null));
        }
        for (ViewDefinition v : engine.catalog().views()) {
            if (engine.access().maySee(reader, v.name())) {
                out.add(new Relation(FerrySchema.NAME, v.name(), VIEW, v.schema().columns(), v.sql()));
            }
        }
        tables.forEach((name, t) -> out.add(new Relation(NAME, name, SYSTEM_TABLE, t.columns(), null)));
        engine.systemTables().forEach((name, t) -> out.add(new Relation(SystemSchema.NAME, name, SYSTEM_TABLE,
                t.columns(), null)));
        return out;
    }

    private List<Table> visibleTables(Principal reader) {
        return engine.catalog().tables().stream().filter(t -> engine.access().maySee(reader, t.name())).toList();
    }

    private List<Object[]> schemataRows() {
        List<Object[]> rows = new ArrayList<>();
        for (String schema : List.of(FerrySchema.NAME, NAME, SystemSchema.NAME)) {
            rows.add(new Object[] {null, schema, null});
        }
        return rows;
    }

    private List<Object[]> tablesRows(Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Relation r : relations(reader)) {
            rows.add(new Object[] {null, r.schema(), r.name(), r.type(), yesNo(BASE_TABLE.equals(r.type()))});
        }
        return rows;
    }

    private List<Object[]> columnsRows(Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Relation r : relations(reader)) {
            int position = 0;
            for (Column c : r.columns()) {
                FerryType t = c.type();
                rows.add(new Object[] {null, r.schema(), r.name(), c.name(), ++position, null, yesNo(c.nullable()),
                        dataType(t), t.kind() == TypeKind.VARCHAR && t.precision() > 0
                                ? t.precision() : null,
                        numericPrecision(t), numericRadix(t), numericScale(t), null});
            }
        }
        return rows;
    }

    /** PRIMARY KEY and UNIQUE constraints, every one enforced by every write. */
    private List<Object[]> tableConstraintsRows(Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : visibleTables(reader)) {
            for (UniqueConstraint c : t.constraints()) {
                rows.add(new Object[] {null, FerrySchema.NAME, c.name(), null, FerrySchema.NAME, t.name(),
                        c.primaryKey() ? "PRIMARY KEY" : "UNIQUE", "NO", "NO", "YES"});
            }
        }
        return rows;
    }

    /** The columns of each key, in key order. */
    private List<Object[]> keyColumnUsageRows(Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Table t : visibleTables(reader)) {
            for (UniqueConstraint c : t.constraints()) {
                for (int k = 0; k < c.columns().size(); k++) {
                    rows.add(new Object[] {null, FerrySchema.NAME, c.name(), null, FerrySchema.NAME, t.name(),
                            t.schema().column(c.columns().get(k)).name(), k + 1, null});
                }
            }
        }
        return rows;
    }

    private List<Object[]> viewsRows(Principal reader) {
        List<Object[]> rows = new ArrayList<>();
        for (Relation r : relations(reader)) {
            if (r.viewSql() != null) {
                rows.add(new Object[] {null, r.schema(), r.name(), r.viewSql(), "NONE", "NO", "NO"});
            }
        }
        return rows;
    }

    /** A type as DESCRIBE and {@code information_schema.columns.data_type} write it: {@code DECIMAL(12,2)}. */
    public static String dataType(FerryType t) {
        return switch (t.kind()) {
            case DECIMAL -> "DECIMAL(" + t.precision() + "," + t.scale() + ")";
            case VARCHAR -> t.precision() > 0 ? "VARCHAR(" + t.precision() + ")" : "VARCHAR";
            default -> t.kind().name();
        };
    }

    /** Digits of a number in its radix (binary digits of the binary types, as PostgreSQL and DuckDB give them). */
    private static Integer numericPrecision(FerryType t) {
        return switch (t.kind()) {
            case INTEGER -> 32;
            case BIGINT -> 64;
            case DOUBLE -> 53;
            case DECIMAL -> t.precision();
            default -> null;
        };
    }

    private static Integer numericRadix(FerryType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DOUBLE -> 2;
            case DECIMAL -> 10;
            default -> null;
        };
    }

    private static Integer numericScale(FerryType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DOUBLE -> 0;
            case DECIMAL -> t.scale();
            default -> null;
        };
    }

    private static String yesNo(boolean yes) {
        return yes ? "YES" : "NO";
    }

    private static Column text(String name) {
        return new Column(name, FerryType.VARCHAR, true);
    }

    private static Column number(String name) {
        return new Column(name, FerryType.INTEGER, true);
    }
}
