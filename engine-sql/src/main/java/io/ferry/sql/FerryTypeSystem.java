package io.ferry.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ferry.core.types.FerryType;

/**
 * Ferry's type rules where they differ from Calcite's defaults, chosen to match what users of PostgreSQL and
 * DuckDB expect: SUM of an integer is a BIGINT (not an INTEGER that overflows), AVG of an exact number is a
 * DOUBLE (not a truncated integer), DECIMAL holds at most 18 digits (an unscaled long), and CASE branches of
 * different string lengths give VARCHAR rather than blank-padded CHAR.
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
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}
