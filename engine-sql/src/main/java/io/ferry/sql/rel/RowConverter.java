package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ferry.core.vector.BytesVector;
import io.ferry.core.vector.DoubleVector;
import io.ferry.core.vector.LongVector;
import io.ferry.core.vector.Vector;
import io.ferry.core.vector.WideDecimal;

/** Reads values out of result vectors as the Java objects Calcite's Enumerable convention expects. */
final class RowConverter {
    private final SqlTypeName[] types;
    private final int[] scales;
    private final boolean[] notNull;

    RowConverter(RelDataType rowType) {
        List<RelDataTypeField> fields = rowType.getFieldList();
        types = new SqlTypeName[fields.size()];
        scales = new int[fields.size()];
        notNull = new boolean[fields.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = fields.get(i).getType().getSqlTypeName();
            scales[i] = Math.max(0, fields.get(i).getType().getScale());
            notNull[i] = !fields.get(i).getType().isNullable();
        }
    }

    int width() {
        return types.length;
    }

    Object value(Vector v, int row, int column) {
        if (v.isNull(row)) {
            return notNull[column] ? zero(column) : null;
        }
        switch (types[column]) {
            case CHAR, VARCHAR -> {
                return ((BytesVector) v).getString(row);
            }
            case FLOAT, REAL -> {
                return (float) ((DoubleVector) v).get(row);
            }
            case DOUBLE -> {
                // -0.0 as 0.0: Calcite's operators compare boxed Doubles with equals(), which tells them apart, so a
                // window partition or sort above this point would split values SQL calls equal
                double d = ((DoubleVector) v).get(row);
                return d == 0.0 ? 0.0 : d;
            }
            default -> {
            }
        }
        if (v instanceof BytesVector wide) {
            return WideDecimal.get(wide, row, scales[column]);
        }
        return fromLong(((LongVector) v).get(row), column);
    }

    /**
     * What a NULL becomes in a column typed NOT NULL. Calcite writes {@code CAST(x AS INTEGER NOT NULL)} beside an
     * {@code x IS NULL} flag when it splits COALESCE or NOT IN apart, counting on the cast never being looked at
     * where x is NULL; Ferry computes every row, and Calcite's row engine cannot hold a NULL in a primitive column
     * ("Cannot convert null to int"). The flag carries the NULL; the value is a placeholder.
     */
    private Object zero(int column) {
        return switch (types[column]) {
            case CHAR, VARCHAR -> "";
            case FLOAT, REAL -> 0f;
            case DOUBLE -> 0.0;
            default -> fromLong(0, column);
        };
    }

    private Object fromLong(long x, int column) {
        return switch (types[column]) {
            case BOOLEAN -> x != 0;
            case TINYINT -> (byte) x;
            case SMALLINT -> (short) x;
            // a year-month interval is its months, an int in Calcite's runtime (a day-time one its milliseconds)
            case INTEGER, DATE, INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> (int) x;
            case DECIMAL -> BigDecimal.valueOf(x, scales[column]);
            default -> x;
        };
    }
}
