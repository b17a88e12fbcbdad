package io.ferry.bench.tpcds;

import java.util.List;
import java.util.StringJoiner;

import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;

/**
 * The 24 TPC-DS tables and the one DDL both engines get for each. TPC-DS types map onto Ferry's: identifier to
 * BIGINT (a surrogate key must hold any key a larger scale generates), integer to INTEGER, decimal(p,s) to
 * DECIMAL(p,s), char(n) and varchar(n) to VARCHAR (values are generated unpadded, and neither engine pads CHAR), date
 * to DATE.
 */
public final class TpcdsTables {
    /** dbgen_version only records how the data was made; no query reads it. */
    public static final List<Table> ALL = Table.getBaseTables().stream()
            .filter(t -> t != Table.DBGEN_VERSION)
            .toList();

    private TpcdsTables() {
    }

    public static String createTable(Table table) {
        StringJoiner columns = new StringJoiner(", ", "CREATE TABLE " + table.getName() + " (", ")");
        for (Column c : table.getColumns()) {
            columns.add(c.getName() + " " + sqlType(c.getType()));
        }
        return columns.toString();
    }

    static String sqlType(ColumnType type) {
        return switch (type.getBase()) {
            case IDENTIFIER -> "BIGINT";
            case INTEGER -> "INTEGER";
            case DECIMAL -> "DECIMAL(" + type.getPrecision().orElseThrow() + "," + type.getScale().orElseThrow() + ")";
            case CHAR, VARCHAR -> "VARCHAR";
            case DATE -> "DATE";
            case TIME -> throw new IllegalArgumentException("TIME is only in dbgen_version, which is not loaded");
        };
    }
}
