package io.ferry.server.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.WideDecimal;

/**
 * One column of a Parquet file as Ferry reads it: how its values are stored ({@link Source}, with a DECIMAL's
 * precision and scale) and the Ferry type a new table gives it. Only flat columns are read: a nested or repeated
 * field (LIST, MAP, a group) has no place in Ferry's tables and is refused by name.
 *
 * @param name       the field's name in the file
 * @param descriptor parquet-java's handle on the column's pages
 * @param source     how the values are stored
 * @param scale      a DECIMAL's scale (0 otherwise)
 * @param natural    the Ferry type of the column in a table made from the file
 * @param fileType   the type as the file declares it, for messages
 */
record ParquetColumn(String name, ColumnDescriptor descriptor, Source source, int scale, FerryType natural,
        String fileType) {

    /** How a column's values are stored in the file, as far as reading them goes. */
    enum Source {
        BOOLEAN, INT32, UINT32, INT64, UINT64, FLOAT, DOUBLE, DATE, TIMESTAMP_MILLIS, TIMESTAMP_MICROS,
        TIMESTAMP_NANOS, INT96, DECIMAL_INT32, DECIMAL_INT64, DECIMAL_BYTES, TEXT;

        boolean isInteger() {
            return this == INT32 || this == UINT32 || this == INT64 || this == UINT64;
        }

        boolean isDecimal() {
            return this == DECIMAL_INT32 || this == DECIMAL_INT64 || this == DECIMAL_BYTES;
        }

        boolean isTimestamp() {
            return this == TIMESTAMP_MILLIS || this == TIMESTAMP_MICROS || this == TIMESTAMP_NANOS || this == INT96;
        }
    }

    /**
     * Describes top-level field {@code field} of {@code file}. {@code binaryAsString}: read BINARY columns without a
     * STRING annotation (what old Hive and Impala writers make of strings) as VARCHAR, as DuckDB's option of the
     * same name does.
     */
    static ParquetColumn of(String file, Type field, ColumnDescriptor descriptor, boolean binaryAsString) {
        String name = field.getName();
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, file + ": column '" + name + "' is nested ("
                    + field.toString().trim().replaceAll("\\s+", " ") + "); Ferry's tables are flat: write its "
                    + "fields as columns of their own (DuckDB: COPY (SELECT s.a AS s_a, ...) TO ...)");
        }
        PrimitiveType p = field.asPrimitiveType();
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        String fileType = p.getPrimitiveTypeName() + (a == null ? "" : " (" + a + ")");
        if (a instanceof DecimalLogicalTypeAnnotation d) {
            if (d.getScale() > FerryType.MAX_DECIMAL_SCALE || d.getPrecision() > WideDecimal.MAX_PRECISION
                    || d.getScale() > d.getPrecision()) {
                throw unsupported(file, name, fileType, "Ferry's DECIMAL holds up to " + WideDecimal.MAX_PRECISION
                        + " digits with a scale up to " + FerryType.MAX_DECIMAL_SCALE);
            }
            Source s = switch (p.getPrimitiveTypeName()) {
                case INT32 -> Source.DECIMAL_INT32;
                case INT64 -> Source.DECIMAL_INT64;
                default -> Source.DECIMAL_BYTES;
            };
            return new ParquetColumn(name, descriptor, s, d.getScale(), FerryType.decimal(d.getPrecision(),
                    d.getScale()), fileType);
        }
        return switch (p.getPrimitiveTypeName()) {
            case BOOLEAN -> plain(name, descriptor, Source.BOOLEAN, FerryType.BOOLEAN, fileType);
            case INT32 -> {
                if (a == null) {
                    yield plain(name, descriptor, Source.INT32, FerryType.INTEGER, fileType);
                }
                if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    yield plain(name, descriptor, Source.DATE, FerryType.DATE, fileType);
                }
                if (a instanceof IntLogicalTypeAnnotation i) {
                    yield i.isSigned() || i.getBitWidth() < 32
                            ? plain(name, descriptor, Source.INT32, FerryType.INTEGER, fileType)
                            : plain(name, descriptor, Source.UINT32, FerryType.BIGINT, fileType);
                }
                throw unsupported(file, name, fileType, null);
            }
            case INT64 -> {
                if (a == null) {
                    yield plain(name, descriptor, Source.INT64, FerryType.BIGINT, fileType);
                }
                if (a instanceof IntLogicalTypeAnnotation i) {
                    yield i.isSigned()
                            ? plain(name, descriptor, Source.INT64, FerryType.BIGINT, fileType)
                            : plain(name, descriptor, Source.UINT64, FerryType.decimal(20, 0), fileType);
                }
                if (a instanceof TimestampLogicalTypeAnnotation t) {
                    Source s = switch (t.getUnit()) {
                        case MILLIS -> Source.TIMESTAMP_MILLIS;
                        case MICROS -> Source.TIMESTAMP_MICROS;
                        case NANOS -> Source.TIMESTAMP_NANOS;
                    };
                    yield plain(name, descriptor, s, FerryType.TIMESTAMP, fileType);
                }
                throw unsupported(file, name, fileType, null);
            }
            case INT96 -> plain(name, descriptor, Source.INT96, FerryType.TIMESTAMP, fileType);
            case FLOAT -> plain(name, descriptor, Source.FLOAT, FerryType.DOUBLE, fileType);
            case DOUBLE -> plain(name, descriptor, Source.DOUBLE, FerryType.DOUBLE, fileType);
            case BINARY -> {
                if (a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || a instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                        || a instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation
                        || (a == null && binaryAsString)) {
                    yield plain(name, descriptor, Source.TEXT, FerryType.VARCHAR, fileType);
                }
                throw unsupported(file, name, fileType, a == null ? "Ferry has no binary type; if the column holds "
                        + "text, add BINARY_AS_STRING true to the COPY options (bin/ferry load --binary-as-string)"
                        : null);
            }
            case FIXED_LEN_BYTE_ARRAY -> throw unsupported(file, name, fileType, null);
        };
    }

    private static ParquetColumn plain(String name, ColumnDescriptor d, Source source, FerryType natural,
            String fileType) {
        return new ParquetColumn(name, d, source, 0, natural, fileType);
    }

    /**
     * Whether values of this column can be loaded into a column of type {@code target}: exactly, or widened, or with
     * a range check per value (an integer into INTEGER, a DECIMAL into a smaller DECIMAL).
     */
    boolean loadsInto(FerryType target) {
        TypeKind k = target.kind();
        return switch (source) {
            case BOOLEAN -> k == TypeKind.BOOLEAN;
            case INT32, UINT32, INT64, UINT64 -> k == TypeKind.INTEGER || k == TypeKind.BIGINT
                    || k == TypeKind.DOUBLE || k == TypeKind.DECIMAL;
            case DECIMAL_INT32, DECIMAL_INT64, DECIMAL_BYTES -> k == TypeKind.DECIMAL || k == TypeKind.DOUBLE
                    || ((k == TypeKind.INTEGER || k == TypeKind.BIGINT) && scale == 0);
            case FLOAT, DOUBLE -> k == TypeKind.DOUBLE;
            case DATE -> k == TypeKind.DATE || k == TypeKind.TIMESTAMP;
            case TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS, INT96 -> k == TypeKind.TIMESTAMP;
            case TEXT -> k == TypeKind.VARCHAR;
        };
    }

    private static FerryException unsupported(String file, String name, String fileType, String why) {
        return new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, file + ": column '" + name + "' is " + fileType
                + ", which Ferry does not load" + (why == null ? "; cast it where the file was written (to VARCHAR, "
                + "BIGINT or TIMESTAMP)" : ": " + why));
    }
}
