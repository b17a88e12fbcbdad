package io.ferry.server.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reshapes the rows of Calcite's metadata results into what SQL clients expect of a database. Calcite answers
 * for its own root schema, so as it stands:
 *
 * <ul>
 *   <li>{@code getCatalogs} has one row whose name is NULL — a client lists a catalog called "null". Ferry has no
 *       catalogs (TABLE_CAT is NULL everywhere), so the result is empty.</li>
 *   <li>a schema {@code metadata} holds Calcite's own {@code TABLES} and {@code COLUMNS} system tables. They describe
 *       Calcite's view of the schema, not Ferry's, and are left out.</li>
 *   <li>{@code getColumns} gives TYPE_NAME as Calcite's full type ({@code BIGINT NOT NULL},
 *       {@code DECIMAL(15, 2)}), COLUMN_SIZE -1, no DECIMAL_DIGITS, and radix 10 for strings. Here TYPE_NAME is the
 *       bare name, and sizes, digits and radix follow the JDBC definitions, derived from that full type.</li>
 *   <li>{@code getTypeInfo} lists every type Calcite knows (intervals, arrays, geometry, unsigned integers); only
 *       those a Ferry table can hold are kept, since tools offer these for new columns.</li>
 * </ul>
 */
final class MetadataRows {
    /** Calcite's schema of system tables. */
    static final String CALCITE_METADATA_SCHEMA = "metadata";

    /** The types {@code CREATE TABLE} accepts: those engine-sql's {@code TypeMapping.toFerry} maps. */
    private static final Set<String> STORABLE_TYPES = Set.of("BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT",
            "FLOAT", "REAL", "DOUBLE", "DECIMAL", "DATE", "TIMESTAMP", "CHAR", "VARCHAR");

    /** Calcite's full type string: a name, optionally {@code (precision[, scale])}, then e.g. NOT NULL. */
    private static final Pattern FULL_TYPE = Pattern.compile(
            "^([A-Za-z_][A-Za-z_ ]*?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(-?\\d+)\\s*)?\\))?(?:\\s.*)?$");

    /** Digits after the point Calcite gives a TIMESTAMP without an explicit precision (Ferry stores millis). */
    private static final int DEFAULT_TIMESTAMP_PRECISION = 3;

    /** UTF-8 takes at most four bytes per character. */
    private static final int MAX_BYTES_PER_CHAR = 4;

    private MetadataRows() {
    }

    /** Reshapes one row in place; false drops it. */
    @FunctionalInterface
    interface Shaper {
        boolean shape(Object[] row, Columns columns);
    }

    /** Where each column of a metadata result is, by its JDBC name. */
    record Columns(Map<String, Integer> index) {
        static Columns of(ResultSetMetaData md) throws SQLException {
            Map<String, Integer> index = new HashMap<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                index.put(md.getColumnLabel(i).toUpperCase(Locale.ROOT), i - 1);
            }
            return new Columns(Map.copyOf(index));
        }

        Object get(Object[] row, String name) {
            Integer i = index.get(name);
            return i == null ? null : row[i];
        }

        /** Rows in order of the named columns, NULL first (rows are {@code Object[]}, as Avatica frames hold). */
        @SuppressWarnings({"unchecked", "rawtypes"})
        Comparator<Object> order(String... names) {
            Comparator<Object> order = (a, b) -> 0;
            for (String name : names) {
                Integer i = index.get(name);
                if (i != null) {
                    Comparator<Object> byColumn = Comparator.comparing(row -> (Comparable) ((Object[]) row)[i],
                            Comparator.nullsFirst(Comparator.naturalOrder()));
                    order = order.thenComparing(byColumn);
                }
            }
            return order;
        }

        void set(Object[] row, String name, Object value) {
            Integer i = index.get(name);
            if (i != null) {
                row[i] = value;
            }
        }
    }

    static boolean catalog(Object[] row, Columns c) {
        return c.get(row, "TABLE_CAT") != null;
    }

    static boolean schema(Object[] row, Columns c) {
        return !CALCITE_METADATA_SCHEMA.equals(c.get(row, "TABLE_SCHEM"));
    }

    static boolean table(Object[] row, Columns c) {
        return schema(row, c);
    }

    static boolean tableType(Object[] row, Columns c) {
        return c.get(row, "TABLE_TYPE") != null;
    }

    static boolean typeInfo(Object[] row, Columns c) {
        Object name = c.get(row, "TYPE_NAME");
        return name != null && STORABLE_TYPES.contains(name.toString().toUpperCase(Locale.ROOT));
    }

    static boolean column(Object[] row, Columns c) {
        if (!schema(row, c)) {
            return false;
        }
        Object fullType = c.get(row, "TYPE_NAME");
        Object dataType = c.get(row, "DATA_TYPE");
        if (fullType == null || !(dataType instanceof Integer jdbcType)) {
            return true;
        }
        Matcher m = FULL_TYPE.matcher(fullType.toString());
        if (!m.matches()) {
            return true;
        }
        String name = m.group(1).toUpperCase(Locale.ROOT);
        Integer precision = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        Integer scale = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        Integer size = columnSize(jdbcType, precision);
        c.set(row, "TYPE_NAME", name);
        c.set(row, "COLUMN_SIZE", size);
        c.set(row, "DECIMAL_DIGITS", decimalDigits(jdbcType, scale, precision));
        c.set(row, "NUM_PREC_RADIX", isNumeric(jdbcType) ? 10 : null);
        c.set(row, "CHAR_OCTET_LENGTH", isCharacter(jdbcType) && size != null
                ? (int) Math.min(Integer.MAX_VALUE, (long) size * MAX_BYTES_PER_CHAR) : null);
        // Ferry has neither identity nor generated columns: a definite "NO", not Calcite's "" (unknown).
        c.set(row, "IS_AUTOINCREMENT", "NO");
        c.set(row, "IS_GENERATEDCOLUMN", "NO");
        return true;
    }

    /**
     * JDBC's COLUMN_SIZE: the precision of a number, the length in characters of a string (unbounded: the largest
     * int, as PostgreSQL reports), the length of a date or timestamp written out.
     */
    private static Integer columnSize(int jdbcType, Integer precision) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> 1;
            case Types.TINYINT -> 3;
            case Types.SMALLINT -> 5;
            case Types.INTEGER -> 10;
            case Types.BIGINT -> 19;
            case Types.REAL -> 7;
            case Types.FLOAT, Types.DOUBLE -> 15;
            case Types.DECIMAL, Types.NUMERIC -> precision;
            case Types.DATE -> 10;
            case Types.TIMESTAMP -> {
                int digits = precision == null ? DEFAULT_TIMESTAMP_PRECISION : precision;
                yield 19 + (digits > 0 ? digits + 1 : 0);
            }
            case Types.CHAR, Types.VARCHAR -> precision == null ? Integer.MAX_VALUE : precision;
            default -> null;
        };
    }

    private static Integer decimalDigits(int jdbcType, Integer scale, Integer precision) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> 0;
            case Types.DECIMAL, Types.NUMERIC -> scale == null ? 0 : scale;
            case Types.TIMESTAMP -> precision == null ? DEFAULT_TIMESTAMP_PRECISION : precision;
            default -> null;
        };
    }

    private static boolean isNumeric(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL, Types.FLOAT, Types.DOUBLE,
                    Types.DECIMAL, Types.NUMERIC -> true;
            default -> false;
        };
    }

    private static boolean isCharacter(int jdbcType) {
        return jdbcType == Types.CHAR || jdbcType == Types.VARCHAR;
    }
}
