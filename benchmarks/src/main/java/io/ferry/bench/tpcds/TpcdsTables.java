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

    /**
     * Ferry's DDL for {@code table} partitioned for TPC-DS's star joins into {@code parts} parts per key (I-Store DPE
     * section 3): the sales and returns tables by their item and customer keys, inventory by item, ITEM and CUSTOMER
     * by their own keys, so that the joins on those keys are co-partitioned; the other tables whole. {@code parts}
     * 0: the plain DDL.
     */
    public static String createTable(Table table, int parts) {
        String scheme = parts <= 0 ? null : switch (table.getName()) {
            case "store_sales" -> "ss_item_sk=item:%1$d, ss_customer_sk=customer:%1$d";
            case "store_returns" -> "sr_item_sk=item:%1$d, sr_customer_sk=customer:%1$d";
            case "catalog_sales" -> "cs_item_sk=item:%1$d, cs_bill_customer_sk=customer:%1$d";
            case "catalog_returns" -> "cr_item_sk=item:%1$d, cr_refunded_customer_sk=customer:%1$d";
            case "web_sales" -> "ws_item_sk=item:%1$d, ws_bill_customer_sk=customer:%1$d";
            case "web_returns" -> "wr_item_sk=item:%1$d, wr_refunded_customer_sk=customer:%1$d";
            case "inventory" -> "inv_item_sk=item:%1$d";
            case "item" -> "i_item_sk=item:%1$d";
            case "customer" -> "c_customer_sk=customer:%1$d";
            default -> null;
        };
        return createTable(table) + (scheme == null ? "" : " WITH (partition_by = '"
                + String.format(java.util.Locale.ROOT, scheme, parts) + "')");
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
