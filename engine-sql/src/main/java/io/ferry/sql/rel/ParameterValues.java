package io.ferry.sql.rel;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.apache.calcite.DataContext;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.core.expr.Literal;
import io.ferry.core.expr.StatementValues;
import io.ferry.core.types.FerryType;
import io.ferry.core.types.TypeKind;
import io.ferry.sql.translate.RexTranslator;

/**
 * The values a client set for a statement's parameters, as Ferry literals of the types the validator gave the
 * parameters. Calcite's statement hands them over in its DataContext under {@code ?0}, {@code ?1}…, in its row
 * engine's form (a DATE as its day number, a TIMESTAMP as its milliseconds, a DECIMAL as a BigDecimal); a value the
 * type cannot hold fails as a CAST of it would.
 */
final class ParameterValues implements StatementValues.Parameters {
    private final DataContext root;

    ParameterValues(DataContext root) {
        this.root = root;
    }

    @Override
    public Literal value(int index, FerryType type) {
        Object v = root.get("?" + index);
        if (v == null) {
            return Literal.nullOf(type);
        }
        try {
            return new Literal(physical(v, type), type);
        } catch (NumberFormatException | ClassCastException | ArithmeticException e) {
            throw new FerryException(SqlStates.INVALID_CHARACTER_VALUE_FOR_CAST, "parameter " + (index + 1)
                    + " is " + v.getClass().getSimpleName() + " '" + v + "', which is no " + type.sqlName()
                    + "; set it with a value of that type");
        }
    }

    private static Object physical(Object v, FerryType type) {
        return switch (type.kind()) {
            case BOOLEAN -> (v instanceof Boolean b ? b : Boolean.parseBoolean(v.toString().trim())) ? 1L : 0L;
            case INTEGER, BIGINT -> {
                long l = v instanceof BigDecimal d ? d.setScale(0, RoundingMode.HALF_UP).longValueExact()
                        : v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim());
                if (type.kind() == TypeKind.INTEGER && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
                    throw FerryException.overflow(type.sqlName());
                }
                yield l;
            }
            case DECIMAL -> RexTranslator.unscaled(v instanceof BigDecimal d ? d : new BigDecimal(v.toString().trim()),
                    type);
            case DOUBLE -> v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString().trim());
            case DATE -> v instanceof Number n ? n.longValue()
                    : v instanceof java.sql.Date d ? d.toLocalDate().toEpochDay()
                    : LocalDate.parse(v.toString().trim()).toEpochDay();
            case TIMESTAMP -> v instanceof Number n ? n.longValue()
                    : v instanceof java.sql.Timestamp t ? millis(t.toLocalDateTime())
                    : millis(LocalDateTime.parse(v.toString().trim().replace(' ', 'T')));
            case VARCHAR -> v.toString();
        };
    }

    private static long millis(LocalDateTime t) {
        return t.toInstant(ZoneOffset.UTC).toEpochMilli();
    }
}
