package io.ferry.core.expr;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;

/**
 * A constant in its physical form: {@code null}, a {@link Long} (integral types, DATE days, TIMESTAMP millis,
 * BOOLEAN 0/1, DECIMAL unscaled at this type's scale), a {@link Double} or a {@link String}.
 */
public record Literal(Object value, FerryType type) implements Expr {
    public Literal {
        if (value != null) {
            Physical p = type.physical();
            boolean ok = switch (p) {
                case LONG -> value instanceof Long;
                case DOUBLE -> value instanceof Double;
                case BYTES -> value instanceof String;
            };
            if (!ok) {
                throw new IllegalArgumentException("literal " + value + " (" + value.getClass().getSimpleName()
                        + ") does not fit type " + type);
            }
        }
    }

    public static Literal nullOf(FerryType type) {
        return new Literal(null, type);
    }
}
