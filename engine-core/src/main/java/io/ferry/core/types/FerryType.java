package io.ferry.core.types;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A SQL type. DECIMAL keeps its precision (at most 38, as DuckDB and SQL Server) and scale (at most 18). Its
 * unscaled value is a long up to {@link #MAX_DECIMAL_DIGITS} digits of precision, and 128 bits beyond
 * ({@link #isWideDecimal()}, {@link io.ferry.core.vector.WideDecimal}); a value wider than its type is an overflow
 * (22003), never a silently rounded one;
 * DATE is days since 1970-01-01; TIMESTAMP is milliseconds since the epoch, without time zone.
 */
public record FerryType(TypeKind kind, int precision, int scale) {
    public static final int MAX_DECIMAL_PRECISION = 38;
    public static final int MAX_DECIMAL_SCALE = 18;
    /** Digits every unscaled long holds (10^18 - 1 < 2^63): the widest DECIMAL kept in a long. */
    public static final int MAX_DECIMAL_DIGITS = 18;

    public static final FerryType BOOLEAN = new FerryType(TypeKind.BOOLEAN, 0, 0);
    public static final FerryType INTEGER = new FerryType(TypeKind.INTEGER, 0, 0);
    public static final FerryType BIGINT = new FerryType(TypeKind.BIGINT, 0, 0);
    public static final FerryType DOUBLE = new FerryType(TypeKind.DOUBLE, 0, 0);
    public static final FerryType DATE = new FerryType(TypeKind.DATE, 0, 0);
    public static final FerryType TIMESTAMP = new FerryType(TypeKind.TIMESTAMP, 0, 0);
    public static final FerryType VARCHAR = new FerryType(TypeKind.VARCHAR, 0, 0);

    public FerryType {
        if (kind == TypeKind.DECIMAL) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                throw new IllegalArgumentException("DECIMAL precision must be between 1 and "
                        + MAX_DECIMAL_PRECISION + ", got " + precision);
            }
            if (scale < 0 || scale > Math.min(precision, MAX_DECIMAL_SCALE)) {
                throw new IllegalArgumentException("DECIMAL scale must be between 0 and the precision ("
                        + precision + ") and at most " + MAX_DECIMAL_SCALE + ", got " + scale);
            }
        }
    }

    public static FerryType decimal(int precision, int scale) {
        return new FerryType(TypeKind.DECIMAL, precision, scale);
    }

    public static FerryType varchar(int maxLength) {
        return new FerryType(TypeKind.VARCHAR, maxLength, 0);
    }

    public Physical physical() {
        return switch (kind) {
            case DOUBLE -> Physical.DOUBLE;
            case VARCHAR -> Physical.BYTES;
            case DECIMAL -> precision > MAX_DECIMAL_DIGITS ? Physical.BYTES : Physical.LONG;
            default -> Physical.LONG;
        };
    }

    /** A DECIMAL of more than 18 digits: its values are 128-bit, encoded as {@link io.ferry.core.vector.WideDecimal}. */
    public boolean isWideDecimal() {
        return kind == TypeKind.DECIMAL && precision > MAX_DECIMAL_DIGITS;
    }

    /** Bytes one value takes in a block's data buffer (VARCHAR: per-row offset only). */
    public int fixedWidth() {
        return switch (kind) {
            case BOOLEAN -> 1;
            case INTEGER, DATE -> 4;
            case VARCHAR -> 4;
            case DECIMAL -> 16;
            default -> 8;
        };
    }

    public ArrowType arrowType() {
        return switch (kind) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case INTEGER -> new ArrowType.Int(32, true);
            case BIGINT -> new ArrowType.Int(64, true);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> new ArrowType.Decimal(precision, scale, 128);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
            case VARCHAR -> ArrowType.Utf8.INSTANCE;
        };
    }

    public String sqlName() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
            case VARCHAR -> precision > 0 ? "VARCHAR(" + precision + ")" : "VARCHAR";
            default -> kind.name();
        };
    }

    @Override
    public String toString() {
        return sqlName();
    }
}
