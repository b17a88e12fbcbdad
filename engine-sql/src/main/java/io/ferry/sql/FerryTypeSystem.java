package io.ferry.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import io.ferry.core.types.FerryType;

/**
 * Ferry's type rules where they differ from Calcite's defaults, chosen to match what users of PostgreSQL and
 * DuckDB expect: SUM of an integer is a BIGINT (not an INTEGER that overflows), AVG of an exact number is a
 * DOUBLE (not a truncated integer), DECIMAL holds at most 18 digits (an unscaled long), and CASE branches of
 * different string lengths give VARCHAR rather than blank-padded CHAR.
 *
 * <p>DECIMAL arithmetic (docs/sql.md): {@code +}, {@code -} and {@code *} are exact, with the SQL standard's scales
 * (the larger scale, and the sum of the scales); SUM keeps the argument's scale. A quotient with a DECIMAL operand
 * is a DOUBLE, as in DuckDB: an exact quotient rarely has a finite scale, and a DECIMAL result whose precision is
 * bounded by its operands' (a ratio of two sums has 18 integral digits to spare for) keeps too few fraction
 * digits, where a DOUBLE keeps 15-16 significant digits whatever the magnitude. Moments (VAR_*, STDDEV_*, COVAR_*,
 * REGR_*) are computed in DOUBLE, as the standard says: their sums of squares overflow any integer type.
 */
public final class FerryTypeSystem extends RelDataTypeSystemImpl {
    public static final FerryTypeSystem INSTANCE = new FerryTypeSystem();

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) {
            return FerryType.MAX_DECIMAL_PRECISION;
        }
        return super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) {
            return FerryType.MAX_DECIMAL_PRECISION;
        }
        return super.getMaxScale(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
        switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.BIGINT),
                        argumentType.isNullable());
            }
            case DECIMAL -> {
                return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DECIMAL,
                        FerryType.MAX_DECIMAL_PRECISION, argumentType.getScale()), argumentType.isNullable());
            }
            default -> {
                return super.deriveSumType(factory, argumentType);
            }
        }
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
        if (SqlTypeName.EXACT_TYPES.contains(argumentType.getSqlTypeName())
                || SqlTypeName.APPROX_TYPES.contains(argumentType.getSqlTypeName())) {
            return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE),
                    argumentType.isNullable());
        }
        return super.deriveAvgAggType(factory, argumentType);
    }

    @Override
    public RelDataType deriveCovarType(RelDataTypeFactory factory, RelDataType arg0Type, RelDataType arg1Type) {
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE),
                arg0Type.isNullable() || arg1Type.isNullable());
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory factory, RelDataType dividend,
            RelDataType divisor) {
        if (SqlTypeUtil.isExactNumeric(dividend) && SqlTypeUtil.isExactNumeric(divisor)
                && (SqlTypeUtil.isDecimal(dividend) || SqlTypeUtil.isDecimal(divisor))) {
            return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE),
                    dividend.isNullable() || divisor.isNullable());
        }
        return null;
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}
