package io.ferry.sql;

import java.util.Map;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;

/** Between Calcite's SQL types and Ferry's. */
public final class TypeMapping {
    private TypeMapping() {
    }

    /**
     * Ferry's type for a Calcite type, or null when Ferry has no native representation of it. An interval is the
     * number Calcite's own runtime holds for it: a day-time interval its milliseconds (BIGINT), a year-month interval
     * its months (INTEGER); the Calcite type on the plan says which, and tells JDBC how to show it.
     */
    public static FerryType toFerry(RelDataType type) {
        if (SqlTypeName.INTERVAL_TYPES.contains(type.getSqlTypeName())) {
            return type.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH
                    ? FerryType.INTEGER : FerryType.BIGINT;
        }
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> FerryType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> FerryType.INTEGER;
            case BIGINT -> FerryType.BIGINT;
            case FLOAT, REAL, DOUBLE -> FerryType.DOUBLE;
            case DECIMAL -> type.getPrecision() <= FerryType.MAX_DECIMAL_PRECISION
                    && type.getScale() <= FerryType.MAX_DECIMAL_SCALE ? FerryType.decimal(type.getPrecision(), Math.max(0, type.getScale())) : null;
            case DATE -> FerryType.DATE;
            case TIMESTAMP -> FerryType.TIMESTAMP;
            case CHAR, VARCHAR -> FerryType.VARCHAR;
            default -> null;
        };
    }

    public static RelDataType toCalcite(RelDataTypeFactory factory, FerryType type, boolean nullable) {
        RelDataType t = switch (type.kind()) {
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, type.precision(), type.scale());
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case TIMESTAMP -> factory.createSqlType(SqlTypeName.TIMESTAMP, 3);
            case VARCHAR -> type.precision() > 0 ? factory.createSqlType(SqlTypeName.VARCHAR, type.precision())
                    : factory.createSqlType(SqlTypeName.VARCHAR);
        };
        return factory.createTypeWithNullability(t, nullable);
    }

    /**
     * Type names PostgreSQL and DuckDB accept that SQL's grammar lacks, and the standard type each stands for. They
     * reach Calcite as user-defined type names, which the root schema resolves ({@code FerryDriver}) and DDL maps.
     */
    public static final Map<String, SqlTypeName> ALIASES = Map.of(
            "text", SqlTypeName.VARCHAR,
            "string", SqlTypeName.VARCHAR,
            "int2", SqlTypeName.SMALLINT,
            "int4", SqlTypeName.INTEGER,
            "int8", SqlTypeName.BIGINT,
            "float4", SqlTypeName.REAL,
            "float8", SqlTypeName.DOUBLE,
            "bool", SqlTypeName.BOOLEAN);

    public static boolean isExactInteger(FerryType t) {
        return t.kind() == TypeKind.INTEGER || t.kind() == TypeKind.BIGINT;
    }
}
