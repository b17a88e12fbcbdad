package io.ferry.sql;

import org.apache.calcite.rel.type.DelegatingTypeSystem;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import io.ferry.core.types.FerryType;

/**
 * Ferry's type rules where they differ from Calcite's defaults, chosen to match what users of PostgreSQL and
 * DuckDB expect: SUM of an INTEGER is a BIGINT (not an INTEGER that overflows), SUM of a BIGINT a DECIMAL(38, 0)
 * (PostgreSQL's numeric, DuckDB's HUGEINT), AVG of an exact number is a
 * DOUBLE (not a truncated integer), DECIMAL types reach 38 digits of precision (as DuckDB's, so that the types of
 * mixed DECIMAL expressions keep every fraction digit; a value of more than 18 digits is 128-bit), and CASE
 * branches of different string lengths give VARCHAR rather than blank-padded CHAR.
 *
 * <p>DECIMAL arithmetic (docs/sql.md): {@code +}, {@code -} and {@code *} are exact, with the SQL standard's scales
 * (the larger scale, and the sum of the scales, at most 18); SUM is a DECIMAL(38) with the argument's scale, as in
 * DuckDB. A quotient with a DECIMAL operand
 * is a DOUBLE, as in DuckDB: an exact quotient rarely has a finite scale, and a DECIMAL result whose precision is
 * bounded by its operands' (a ratio of two sums has 18 integral digits to spare for) keeps too few fraction
 * digits, where a DOUBLE keeps 15-16 significant digits whatever the magnitude. Moments (VAR_*, STDDEV_*, COVAR_*,
 * REGR_*) are computed in DOUBLE, as the standard says: their sums of squares overflow any integer type.
 */
public final class FerryTypeSystem extends DelegatingTypeSystem {
    public static final FerryTypeSystem INSTANCE = new FerryTypeSystem();

    private FerryTypeSystem() {
        super(RelDataTypeSystem.DEFAULT);
    }

    /**
     * The precision Calcite's rule for the common type of DECIMALs (comparisons, CASE, COALESCE, IN lists, set
     * operations) starts from: 38 integral digits beside 18 fraction digits, cut to 38 by the type factory, which keeps
     * the scale. With 38 here, Calcite's rule gives up fraction digits to keep integral ones, so {@code SUM(x) =
     * -0.001} with a DECIMAL(38, 1) sum compared the sum with 0.0. A common type so keeps at least 20 integral digits
     * (38 less the largest scale, 18); a value with more fails the cast to it with 22003 rather than lose fraction
     * digits silently. Sums, products and remainders (the interface's rules) are cut to 38 the same way.
     */
    @Override
    public int getMaxNumericPrecision() {
        return FerryType.MAX_DECIMAL_PRECISION + FerryType.MAX_DECIMAL_SCALE;
    }

    @Override
    public int getMaxNumericScale() {
        return FerryType.MAX_DECIMAL_SCALE;
    }

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
            return FerryType.MAX_DECIMAL_SCALE;
        }
        return super.getMaxScale(typeName);
    }

    /** {@code DECIMAL} without a precision is DECIMAL(18, 0): every value of it fits Ferry's unscaled long. */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) {
            return FerryType.MAX_DECIMAL_DIGITS;
        }
        return super.getDefaultPrecision(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
        switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> {
                return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.BIGINT),
                        argumentType.isNullable());
            }
            case BIGINT -> {
                // PostgreSQL's numeric, DuckDB's HUGEINT: a sum of BIGINTs passes 64 bits long before 2^63 rows
                return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DECIMAL,
                        FerryType.MAX_DECIMAL_PRECISION, 0), argumentType.isNullable());
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
