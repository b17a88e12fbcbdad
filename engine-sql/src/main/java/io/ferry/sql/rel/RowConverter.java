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

/** Reads values out of result vectors as the Java objects Calcite's Enumerable convention expects. */
final class RowConverter {
    private final SqlTypeName[] types;
    private final int[] scales;

    RowConverter(RelDataType rowType) {
        List<RelDataTypeField> fields = rowType.getFieldList();
        types = new SqlTypeName[fields.size()];
        scales = new int[fields.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = fields.get(i).getType().getSqlTypeName();
            scales[i] = Math.max(0, fields.get(i).getType().getScale());
        }
    }

    int width() {
        return types.length;
    }

    Object value(Vector v, int row, int column) {
        if (v.isNull(row)) {
            return null;
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
        long x = ((LongVector) v).get(row);
        return switch (types[column]) {
            case BOOLEAN -> x != 0;
            case TINYINT -> (byte) x;
            case SMALLINT -> (short) x;
            case INTEGER, DATE -> (int) x;
            case DECIMAL -> BigDecimal.valueOf(x, scales[column]);
            default -> x;
        };
    }
}
