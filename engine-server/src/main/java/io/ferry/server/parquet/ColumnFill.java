package io.ferry.server.parquet;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;
import io.ferry.server.data.Utf8Text;
import io.ferry.server.parquet.ParquetColumn.Source;

/**
 * Reads one Parquet column, a batch at a time, straight into the primitive arrays of a Ferry vector of the target
 * column's type: column by column rather than row by row, with no object per value on the common paths (same type,
 * or an integer widened). A DECIMAL whose scale changes, or a wide one that is not copied as bytes, goes through
 * {@link BigDecimal}; values that do not fit the target (an INTEGER overflowing, too many digits, NULL in a NOT NULL
 * column, bytes that are not UTF-8) fail the load with the row and the value.
 */
final class ColumnFill {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** Julian day number of 1970-01-01, the epoch of INT96 timestamps' day part. */
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private final ParquetColumn column;
    private final Source source;
    private final FerryType target;
    private final TypeKind kind;
    private final boolean nullable;
    private final String targetName;
    private final int maxDefinition;
    /** Whether a DECIMAL target keeps the source's unscaled values as they are. */
    private final boolean sameScale;
    private final byte[] wide = new byte[WideDecimal.BYTES];

    /** Where errors say the value was: the file, and the row group's first row. */
    private String file;
    private long firstRow;

    ColumnFill(ParquetColumn column, FerryType target, boolean nullable, String targetName) {
        this.column = column;
        this.source = column.source();
        this.target = target;
        this.kind = target.kind();
        this.nullable = nullable;
        this.targetName = targetName;
        this.maxDefinition = column.descriptor().getMaxDefinitionLevel();
        this.sameScale = kind == TypeKind.DECIMAL && (source.isDecimal() ? column.scale() : 0) == target.scale();
    }

    /** Says where the next values come from, for error messages. */
    void at(String file, long firstRow) {
        this.file = file;
        this.firstRow = firstRow;
    }

    /** Reads the next {@code n} values of the column (rows {@code row .. row + n} of the row group). */
    Vector read(ColumnReader r, int row, int n) {
        return switch (target.physical()) {
            case LONG -> readLongs(r, row, n);
            case DOUBLE -> readDoubles(r, row, n);
            case BYTES -> readBytes(r, row, n);
        };
    }

    private LongVector readLongs(ColumnReader r, int row, int n) {
        long[] values = new long[n];
        boolean[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() < maxDefinition) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
                checkNullable(row + i);
            } else {
                values[i] = longValue(r, row + i);
            }
            r.consume();
        }
        return new LongVector(values, nulls, n);
    }

    /** The current value as the target's long: a BOOLEAN's 0/1, an integer, a DECIMAL's unscaled value, days, ms. */
    private long longValue(ColumnReader r, int row) {
        switch (source) {
            case BOOLEAN:
                return r.getBoolean() ? 1 : 0;
            case DATE:
                return kind == TypeKind.TIMESTAMP ? r.getInteger() * MILLIS_PER_DAY : r.getInteger();
            case TIMESTAMP_MILLIS:
                return r.getLong();
            case TIMESTAMP_MICROS:
                return Math.floorDiv(r.getLong(), 1_000L);
            case TIMESTAMP_NANOS:
                return Math.floorDiv(r.getLong(), 1_000_000L);
            case INT96:
                return int96Millis(r.getBinary());
            default:
                break;
        }
        // Numbers: an integer or a DECIMAL's unscaled value, into INTEGER, BIGINT or a DECIMAL of up to 18 digits.
        long v;
        switch (source) {
            case INT32, DECIMAL_INT32 -> v = r.getInteger();
            case UINT32 -> v = r.getInteger() & 0xFFFF_FFFFL;
            case INT64, DECIMAL_INT64 -> v = r.getLong();
            case UINT64 -> {
                v = r.getLong();
                if (v < 0) {
                    return viaBigDecimal(new BigDecimal(new BigInteger(Long.toUnsignedString(v))), row)
                            .unscaledValue().longValue();
                }
            }
            case DECIMAL_BYTES -> {
                Binary b = r.getBinary();
                if (b.length() > 8) {
                    return viaBigDecimal(new BigDecimal(new BigInteger(b.getBytes()), column.scale()), row)
                            .unscaledValue().longValue();
                }
                v = bytesToLong(b);
            }
            default -> throw new IllegalStateException("no long reading of " + source);
        }
        if (kind == TypeKind.DECIMAL) {
            if (!sameScale) {
                return viaBigDecimal(BigDecimal.valueOf(v, source.isDecimal() ? column.scale() : 0), row)
                        .unscaledValue().longValue();
            }
            if (v >= POW10[target.precision()] || v <= -POW10[target.precision()]) {
                throw outOfRange(row, BigDecimal.valueOf(v, target.scale()).toPlainString());
            }
        } else if (kind == TypeKind.INTEGER && v != (int) v) {
            throw outOfRange(row, Long.toString(v));
        }
        return v;
    }

    private DoubleVector readDoubles(ColumnReader r, int row, int n) {
        double[] values = new double[n];
        boolean[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() < maxDefinition) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
                checkNullable(row + i);
            } else {
                values[i] = switch (source) {
                    case DOUBLE -> r.getDouble();
                    case FLOAT -> r.getFloat();
                    case INT32 -> r.getInteger();
                    case UINT32 -> r.getInteger() & 0xFFFF_FFFFL;
                    case INT64 -> r.getLong();
                    case UINT64 -> unsignedToDouble(r.getLong());
                    case DECIMAL_INT32 -> (double) r.getInteger() / POW10[column.scale()];
                    case DECIMAL_INT64 -> (double) r.getLong() / POW10[column.scale()];
                    case DECIMAL_BYTES -> new BigDecimal(new BigInteger(r.getBinary().getBytes()), column.scale())
                            .doubleValue();
                    default -> throw new IllegalStateException("no double reading of " + source);
                };
            }
            r.consume();
        }
        return new DoubleVector(values, nulls, n);
    }

    private BytesVector readBytes(ColumnReader r, int row, int n) {
        BytesVector.Builder out = new BytesVector.Builder(n);
        for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() < maxDefinition) {
                checkNullable(row + i);
                out.appendNull();
            } else if (kind == TypeKind.VARCHAR) {
                appendText(r.getBinary(), out, row + i);
            } else {
                appendWide(r, out, row + i);
            }
            r.consume();
        }
        return out.build();
    }

    private void appendText(Binary value, BytesVector.Builder out, int row) {
        ByteBuffer buf = value.toByteBuffer();
        byte[] b;
        int from;
        int len = buf.remaining();
        if (buf.hasArray()) {
            b = buf.array();
            from = buf.arrayOffset() + buf.position();
        } else {
            b = new byte[len];
            buf.get(b);
            from = 0;
        }
        long chars = Utf8Text.characters(b, from, from + len);
        if (chars < 0) {
            throw error("22021", row, "is not valid UTF-8 (byte " + (-1 - chars) + " of the value); the file's "
                    + "strings must be UTF-8, as the Parquet format says");
        }
        if (target.precision() > 0 && chars > target.precision()) {
            throw error(SqlStates.STRING_DATA_RIGHT_TRUNCATION, row, "has " + chars + " characters, more than "
                    + target.sqlName() + " allows; widen the column");
        }
        out.append(b, from, len);
    }

    /** A DECIMAL of 19 to 38 digits: 16 bytes, big-endian two's complement with the sign bit flipped. */
    private void appendWide(ColumnReader r, BytesVector.Builder out, int row) {
        long hi;
        long lo;
        if (sameScale && source == Source.DECIMAL_BYTES) {
            Binary b = r.getBinary();
            ByteBuffer buf = b.toByteBuffer();
            int len = buf.remaining();
            if (len > WideDecimal.BYTES) {
                throw outOfRange(row, new BigDecimal(new BigInteger(b.getBytes()), column.scale()).toPlainString());
            }
            // Sign-extend to 16 bytes, then read the two halves.
            byte fill = len > 0 && buf.get(buf.position()) < 0 ? (byte) -1 : 0;
            java.util.Arrays.fill(wide, 0, WideDecimal.BYTES - len, fill);
            buf.get(wide, WideDecimal.BYTES - len, len);
            ByteBuffer w = ByteBuffer.wrap(wide).order(ByteOrder.BIG_ENDIAN);
            hi = w.getLong(0);
            lo = w.getLong(8);
        } else if (sameScale && source != Source.UINT64) {
            lo = switch (source) {
                case INT32, DECIMAL_INT32 -> r.getInteger();
                case UINT32 -> r.getInteger() & 0xFFFF_FFFFL;
                default -> r.getLong();
            };
            hi = lo >> 63;
        } else {
            BigDecimal v = switch (source) {
                case INT32, DECIMAL_INT32 -> BigDecimal.valueOf(r.getInteger(), column.scale());
                case UINT32 -> BigDecimal.valueOf(r.getInteger() & 0xFFFF_FFFFL);
                case INT64, DECIMAL_INT64 -> BigDecimal.valueOf(r.getLong(), column.scale());
                case UINT64 -> new BigDecimal(new BigInteger(Long.toUnsignedString(r.getLong())));
                default -> new BigDecimal(new BigInteger(r.getBinary().getBytes()), column.scale());
            };
            BigInteger unscaled = viaBigDecimal(v, row).unscaledValue();
            hi = unscaled.shiftRight(64).longValue();
            lo = unscaled.longValue();
        }
        if (!WideDecimal.fits(hi, lo, target.precision())) {
            throw outOfRange(row, new BigDecimal(WideDecimal.toBigInteger(hi, lo), target.scale()).toPlainString());
        }
        WideDecimal.put(wide, 0, hi, lo);
        out.append(wide, 0, WideDecimal.BYTES);
    }

    /** {@code v} at the target DECIMAL's scale (rounded half away from zero, as a cast rounds), range-checked. */
    private BigDecimal viaBigDecimal(BigDecimal v, int row) {
        int scale = kind == TypeKind.DECIMAL ? target.scale() : 0;
        BigDecimal scaled = v.setScale(scale, RoundingMode.HALF_UP);
        int digits = switch (kind) {
            case DECIMAL -> target.precision();
            case INTEGER -> 10;
            default -> 19;
        };
        boolean fits = scaled.precision() - scaled.scale() <= digits - scale || scaled.signum() == 0;
        if (kind == TypeKind.INTEGER) {
            fits = scaled.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                    && scaled.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0;
        } else if (kind == TypeKind.BIGINT) {
            fits = scaled.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                    && scaled.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
        }
        if (!fits) {
            throw outOfRange(row, v.toPlainString());
        }
        return scaled;
    }

    private static long bytesToLong(Binary b) {
        ByteBuffer buf = b.toByteBuffer();
        int len = buf.remaining();
        if (len == 0) {
            return 0;
        }
        long v = buf.get(buf.position()); // sign-extended
        for (int i = 1; i < len; i++) {
            v = (v << 8) | (buf.get(buf.position() + i) & 0xFF);
        }
        return v;
    }

    /** INT96: nanoseconds of the day (8 bytes) then the Julian day (4 bytes), both little-endian. */
    private static long int96Millis(Binary b) {
        ByteBuffer buf = b.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanos = buf.getLong(buf.position());
        long julianDay = buf.getInt(buf.position() + 8);
        return (julianDay - JULIAN_EPOCH_DAY) * MILLIS_PER_DAY + Math.floorDiv(nanos, 1_000_000L);
    }

    private static double unsignedToDouble(long v) {
        return v >= 0 ? v : ((v >>> 1) | (v & 1)) * 2.0;
    }

    private void checkNullable(int row) {
        if (!nullable) {
            throw error(SqlStates.NOT_NULL_VIOLATION, row, "is NULL, but the column is NOT NULL; give it a value or "
                    + "load into a table where the column allows NULL");
        }
    }

    private FerryException outOfRange(int row, String value) {
        return error(SqlStates.NUMERIC_OUT_OF_RANGE, row, value + " is out of range for " + target.sqlName()
                + "; widen the column");
    }

    private FerryException error(String sqlState, int row, String what) {
        return new FerryException(sqlState, file + ", row " + (firstRow + row + 1) + ", column '" + column.name()
                + "' (" + column.fileType() + ") into " + targetName + ": the value " + what
                + ". No rows were loaded.");
    }
}
