package io.ferry.core.expr;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

import io.ferry.core.types.FerryType;
import io.ferry.core.types.Physical;
import io.ferry.core.vector.WideDecimal;

/**
 * A constant in its physical form: {@code null}, a {@link Long} (integral types, DATE days, TIMESTAMP millis,
 * BOOLEAN 0/1, DECIMAL unscaled at this type's scale), a {@link BigInteger} (a wide DECIMAL, unscaled), a
 * {@link Double} or a {@link String}.
 */
public record Literal(Object value, FerryType type) implements Expr {
    public Literal {
        if (value != null) {
            Physical p = type.physical();
            boolean ok = switch (p) {
                case LONG -> value instanceof Long;
                case DOUBLE -> value instanceof Double;
                case BYTES -> type.isWideDecimal() ? value instanceof BigInteger b && b.bitLength() <= 127
                        : value instanceof String;
            };
            if (!ok) {
                throw new IllegalArgumentException("literal " + value + " (" + value.getClass().getSimpleName()
                        + ") does not fit type " + type);
            }
        }
    }

    /** The bytes a BYTES vector holds for this (non-NULL) value: UTF-8 text, or a wide DECIMAL's 16 bytes. */
    public byte[] bytes() {
        return value instanceof BigInteger b ? WideDecimal.encode(b)
                : ((String) value).getBytes(StandardCharsets.UTF_8);
    }

    public static Literal nullOf(FerryType type) {
        return new Literal(null, type);
    }
}
