package io.ferry.server.flight;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.IntervalYearVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ferry.core.vector.Batch;
import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/**
 * A result's columns as Arrow: the schema a client is told (from the statement's JDBC metadata, with Flight SQL's
 * column metadata), and the copying of values into it — from Ferry's batches column by column ({@link #fill(Batch,
 * VectorSchemaRoot)}, no object per value), or from JDBC rows for the results Ferry's engine does not make whole
 * ({@link #fill(ResultSet, VectorSchemaRoot, int)}).
 *
 * <p>Types: BOOLEAN as Bool, TINYINT to INTEGER as Int32, BIGINT as Int64, REAL/DOUBLE as Float64, DECIMAL(p, s) as
 * Decimal128(p, s), DATE as Date32 (days), TIMESTAMP as Timestamp(ms, no zone), TIME as Time32(ms), a day-time
 * interval as Duration(ms), a year-month one as Interval(YEAR_MONTH), anything else as Utf8.
 */
final class ArrowColumns {
    private ArrowColumns() {
    }

    /** The Arrow schema of a statement's result. */
    static Schema schema(ResultSetMetaData md) throws SQLException {
        List<Field> fields = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            ArrowType type = interval(md.getColumnTypeName(i));
            if (type == null) {
                type = arrowType(md.getColumnType(i), md.getPrecision(i), md.getScale(i));
            }
            FlightSqlColumnMetadata.Builder meta = new FlightSqlColumnMetadata.Builder()
                    .typeName(md.getColumnTypeName(i))
                    .precision(md.getPrecision(i))
                    .scale(md.getScale(i))
                    .isReadOnly(true)
                    .isAutoIncrement(false)
                    .isCaseSensitive(md.isCaseSensitive(i))
                    .isSearchable(true);
            String schemaName = emptyToNull(md.getSchemaName(i));
            String tableName = emptyToNull(md.getTableName(i));
            if (schemaName != null) {
                meta.schemaName(schemaName);
            }
            if (tableName != null) {
                meta.tableName(tableName);
            }
            boolean nullable = md.isNullable(i) != ResultSetMetaData.columnNoNulls;
            fields.add(new Field(md.getColumnLabel(i), new FieldType(nullable, type, null,
                    meta.build().getMetadataMap()),
                    null));
        }
        return new Schema(fields);
    }

    /** The Arrow type of a column of JDBC type {@code jdbcType}. */
    static ArrowType arrowType(int jdbcType, int precision, int scale) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> ArrowType.Bool.INSTANCE;
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER -> new ArrowType.Int(32, true);
            case Types.BIGINT -> new ArrowType.Int(64, true);
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case Types.DECIMAL, Types.NUMERIC -> new ArrowType.Decimal(Math.max(1, Math.min(38, precision)),
                    Math.max(0, scale), 128);
            case Types.DATE -> new ArrowType.Date(DateUnit.DAY);
            case Types.TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
            case Types.TIME -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            default -> ArrowType.Utf8.INSTANCE;
        };
    }

    /**
     * The Arrow type of an interval column, by its type's name (JDBC has no type code for one): a day-time interval
     * as Duration(ms), a year-month one as Interval(YEAR_MONTH), the milliseconds and months Ferry holds; null for
     * any other type.
     */
    static ArrowType interval(String typeName) {
        if (typeName == null || !typeName.startsWith("INTERVAL")) {
            return null;
        }
        return typeName.contains("YEAR") || typeName.contains("MONTH") ? new ArrowType.Interval(IntervalUnit.YEAR_MONTH)
                : new ArrowType.Duration(TimeUnit.MILLISECOND);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    // ---- Ferry's batches ----------------------------------------------------------------------------------------

    /** Copies {@code batch} into {@code root}, whose vectors are those {@link #schema} made for the same result. */
    static void fill(Batch batch, VectorSchemaRoot root) {
        Batch b = batch.materialize();
        int n = b.rowCount();
        for (int c = 0; c < b.columnCount(); c++) {
            FieldVector out = root.getVector(c);
            out.reset();
            Vector in = b.column(c);
            if (in instanceof LongVector l) {
                fillLongs(l, out, n);
            } else if (in instanceof DoubleVector d) {
                fillDoubles(d, (Float8Vector) out, n);
            } else {
                fillBytes((BytesVector) in, out, n);
            }
            out.setValueCount(n);
        }
        root.setRowCount(n);
    }

    private static void fillLongs(LongVector in, FieldVector out, int n) {
        long[] v = in.values();
        boolean[] nulls = in.nulls();
        ensure(out, n);
        if (out instanceof BigIntVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, v[i]);
            }
        } else if (out instanceof IntVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, (int) v[i]);
            }
        } else if (out instanceof DateDayVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, (int) v[i]);
            }
        } else if (out instanceof TimeStampMilliVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, v[i]);
            }
        } else if (out instanceof DurationVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, v[i]);
            }
        } else if (out instanceof IntervalYearVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, (int) v[i]);
            }
        } else if (out instanceof BitVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, v[i] != 0 ? 1 : 0);
            }
        } else if (out instanceof DecimalVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, v[i]); // the unscaled value, at the scale both sides share
            }
        } else if (out instanceof TimeMilliVector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, (int) v[i]);
            }
        } else if (out instanceof Float8Vector o) {
            for (int i = 0; i < n; i++) {
                o.set(i, v[i]);
            }
        } else {
            throw new IllegalStateException("no long column fills " + out.getField());
        }
        if (nulls != null) {
            for (int i = 0; i < n; i++) {
                if (nulls[i]) {
                    out.setNull(i);
                }
            }
        }
    }

    private static void fillDoubles(DoubleVector in, Float8Vector out, int n) {
        double[] v = in.values();
        boolean[] nulls = in.nulls();
        ensure(out, n);
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                out.setNull(i);
            } else {
                out.set(i, v[i]);
            }
        }
    }

    private static void fillBytes(BytesVector in, FieldVector out, int n) {
        byte[] data = in.data();
        if (out instanceof VarCharVector text) {
            int[] offsets = in.offsets();
            int bytes = offsets[n] - offsets[0];
            text.allocateNew(Math.max(bytes, 1), n);
            for (int i = 0; i < n; i++) {
                if (in.isNull(i)) {
                    text.setNull(i);
                } else {
                    text.setSafe(i, data, in.start(i), in.length(i));
                }
            }
            return;
        }
        // DECIMAL of 19 to 38 digits: Ferry's 16 bytes (big-endian, sign bit flipped) as Arrow's little-endian pair
        DecimalVector d = (DecimalVector) out;
        ensure(d, n);
        ArrowBuf values = d.getDataBuffer();
        ArrowBuf validity = d.getValidityBuffer();
        for (int i = 0; i < n; i++) {
            if (in.isNull(i)) {
                d.setNull(i);
                continue;
            }
            int at = in.start(i);
            values.setLong((long) i * DecimalVector.TYPE_WIDTH, WideDecimal.lo(data, at));
            values.setLong((long) i * DecimalVector.TYPE_WIDTH + 8, WideDecimal.hi(data, at));
            BitVectorHelper.setBit(validity, i);
        }
    }

    private static void ensure(FieldVector out, int n) {
        while (out.getValueCapacity() < n) {
            out.reAlloc();
        }
    }

    // ---- JDBC rows ----------------------------------------------------------------------------------------------

    /**
     * Copies up to {@code max} rows of {@code rs} from its current position into {@code root}; returns how many (0
     * at the end).
     */
    static int fill(ResultSet rs, VectorSchemaRoot root, int max) throws SQLException {
        List<FieldVector> vectors = root.getFieldVectors();
        for (FieldVector v : vectors) {
            v.reset();
        }
        int n = 0;
        while (n < max && rs.next()) {
            for (int c = 0; c < vectors.size(); c++) {
                set(vectors.get(c), n, rs, c + 1);
            }
            n++;
        }
        for (FieldVector v : vectors) {
            v.setValueCount(n);
        }
        root.setRowCount(n);
        return n;
    }

    private static void set(FieldVector out, int row, ResultSet rs, int column) throws SQLException {
        // the primitive getters read 0 for NULL; wasNull says which it was (no object per value)
        if (out instanceof BitVector o) {
            boolean v = rs.getBoolean(column);
            if (rs.wasNull()) {
                o.setNull(row);
            } else {
                o.setSafe(row, v ? 1 : 0);
            }
        } else if (out instanceof IntVector o) {
            int v = rs.getInt(column);
            if (rs.wasNull()) {
                o.setNull(row);
            } else {
                o.setSafe(row, v);
            }
        } else if (out instanceof BigIntVector o) {
            long v = rs.getLong(column);
            if (rs.wasNull()) {
                o.setNull(row);
            } else {
                o.setSafe(row, v);
            }
        } else if (out instanceof DurationVector o) {
            long v = rs.getLong(column);
            if (rs.wasNull()) {
                o.setNull(row);
            } else {
                o.setSafe(row, v);
            }
        } else if (out instanceof IntervalYearVector o) {
            int v = rs.getInt(column);
            if (rs.wasNull()) {
                o.setNull(row);
            } else {
                o.setSafe(row, v);
            }
        } else if (out instanceof Float8Vector o) {
            double v = rs.getDouble(column);
            if (rs.wasNull()) {
                o.setNull(row);
            } else {
                o.setSafe(row, v);
            }
        } else if (out instanceof DecimalVector o) {
            BigDecimal v = rs.getBigDecimal(column);
            if (v == null) {
                o.setNull(row);
            } else {
                o.setSafe(row, v.setScale(o.getScale(), java.math.RoundingMode.HALF_UP));
            }
        } else if (out instanceof DateDayVector o) {
            java.sql.Date v = rs.getDate(column);
            if (v == null) {
                o.setNull(row);
            } else {
                o.setSafe(row, (int) v.toLocalDate().toEpochDay());
            }
        } else if (out instanceof TimeStampMilliVector o) {
            java.sql.Timestamp v = rs.getTimestamp(column);
            if (v == null) {
                o.setNull(row);
            } else {
                o.setSafe(row, v.toLocalDateTime().toInstant(java.time.ZoneOffset.UTC).toEpochMilli());
            }
        } else if (out instanceof TimeMilliVector o) {
            java.sql.Time v = rs.getTime(column);
            if (v == null) {
                o.setNull(row);
            } else {
                o.setSafe(row, (int) (v.toLocalTime().toNanoOfDay() / 1_000_000));
            }
        } else if (out instanceof VarCharVector o) {
            String v = rs.getString(column);
            if (v == null) {
                o.setNull(row);
            } else {
                o.setSafe(row, v.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            throw new IllegalStateException("no JDBC reading fills " + out.getField());
        }
    }
}
