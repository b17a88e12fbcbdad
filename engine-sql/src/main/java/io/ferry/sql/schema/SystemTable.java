package io.ferry.sql.schema;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;

import io.ferry.core.types.Column;
import io.ferry.sql.TypeMapping;
import io.ferry.sql.access.Principal;

/**
 * A read-only table of the {@code sys} or {@code information_schema} schema whose rows are made when it is scanned
 * (nodes, tables, blocks, columns).
 * Values are Java objects as Calcite represents them: Long for BIGINT, Integer for INTEGER, Double, String, Boolean,
 * and Long milliseconds for TIMESTAMP.
 */
public final class SystemTable extends AbstractTable implements ScannableTable {
    private final List<Column> columns;
    private final Function<Principal, List<Object[]>> rows;

    public SystemTable(List<Column> columns, Supplier<List<Object[]>> rows) {
        this(List.copyOf(columns), everyone(requireNonNull(rows, "rows is null")));
    }

    private SystemTable(List<Column> columns, Function<Principal, List<Object[]>> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    private static Function<Principal, List<Object[]>> everyone(Supplier<List<Object[]>> rows) {
        return reader -> rows.get();
    }

    /** A table whose rows depend on who reads it (the connection's user): sys.queries, sys.users, sys.grants. */
    public static SystemTable perUser(List<Column> columns, Function<Principal, List<Object[]>> rows) {
        return new SystemTable(List.copyOf(columns), requireNonNull(rows, "rows is null"));
    }

    /** The rows {@code reader} sees, read without a statement (the web console's view: it adds no sys.queries entry). */
    public List<Object[]> rows(Principal reader) {
        return rows.apply(reader);
    }

    /** The table's columns, as {@code information_schema.columns} and DESCRIBE show them. */
    public List<Column> columns() {
        return columns;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (Column c : columns) {
            b.add(c.name(), TypeMapping.toCalcite(typeFactory, c.type(), c.nullable()));
        }
        return b.build();
    }

    /** JDBC's getTables reports these as SYSTEM TABLE, as {@code information_schema.tables} does. */
    @Override
    public Schema.TableType getJdbcTableType() {
        return Schema.TableType.SYSTEM_TABLE;
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows.apply(FerrySchema.of(root.getRootSchema()).principal()));
    }
}
