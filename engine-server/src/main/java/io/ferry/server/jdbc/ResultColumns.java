package io.ferry.server.jdbc;

import java.sql.Types;
import java.util.List;

import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta.Signature;

/**
 * A statement's result columns as {@code ResultSetMetaData} reports them, made to agree with {@code getColumns}
 * ({@link MetadataRows}): a VARCHAR or CHAR without a length has the precision JDBC gives an unbounded string,
 * {@link Integer#MAX_VALUE}. Calcite's signature said 0, so a tool sized a column from one call and found another
 * size from the other.
 */
final class ResultColumns {
    private ResultColumns() {
    }

    static Signature withJdbcSizes(Signature signature) {
        if (signature == null || signature.columns.stream().noneMatch(ResultColumns::unboundedString)) {
            return signature;
        }
        List<ColumnMetaData> columns = signature.columns.stream()
                .map(c -> unboundedString(c) ? withPrecision(c, Integer.MAX_VALUE) : c).toList();
        return Signature.create(columns, signature.sql, signature.parameters, signature.cursorFactory,
                signature.statementType);
    }

    private static boolean unboundedString(ColumnMetaData c) {
        return (c.type.id == Types.VARCHAR || c.type.id == Types.CHAR) && c.precision <= 0;
    }

    private static ColumnMetaData withPrecision(ColumnMetaData c, int precision) {
        return new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive, c.searchable, c.currency, c.nullable,
                c.signed, c.displaySize, c.label, c.columnName, c.schemaName, precision, c.scale, c.tableName,
                c.catalogName, c.type, c.readOnly, c.writable, c.definitelyWritable, c.columnClassName);
    }
}
