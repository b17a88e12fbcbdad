package io.ferry.sql;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/** The settings of one connection, changed with {@code SET name = value} and {@code RESET name | ALL}. */
public final class SessionSettings {
    /** Who runs a distributed fragment (ship-or-not section II-A): the cost model decides, or the user forces it. */
    public enum Shipping {
        AUTO, FUNCTION, DATA
    }

    /** Whether results shipped between nodes are LZ4-compressed; auto follows the measured link. */
    public enum Compression {
        AUTO, ON, OFF
    }

    private volatile Shipping shipping = Shipping.AUTO;
    private volatile Compression compression = Compression.AUTO;

    public Shipping shipping() {
        return shipping;
    }

    public Compression compression() {
        return compression;
    }

    public void set(String name, String value) {
        switch (key(name)) {
            case "shipping" -> shipping = parse(Shipping.class, name, value);
            case "compression" -> compression = parse(Compression.class, name, value);
            default -> throw unknown(name);
        }
    }

    /** {@code RESET name}; a null name resets all. */
    public void reset(String name) {
        if (name == null) {
            shipping = Shipping.AUTO;
            compression = Compression.AUTO;
            return;
        }
        switch (key(name)) {
            case "shipping" -> shipping = Shipping.AUTO;
            case "compression" -> compression = Compression.AUTO;
            default -> throw unknown(name);
        }
    }

    /** Every setting and its value, for SHOW-like listings. */
    public Map<String, String> values() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("shipping", shipping.name().toLowerCase(Locale.ROOT));
        out.put("compression", compression.name().toLowerCase(Locale.ROOT));
        return out;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static FerryException unknown(String name) {
        return new FerryException(SqlStates.UNDEFINED_OBJECT, "unknown setting '" + name
                + "'; Ferry has: shipping ('auto' | 'function' | 'data'), compression ('auto' | 'on' | 'off')");
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String name, String value) {
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value.trim())) {
                return e;
            }
            allowed.append(allowed.length() == 0 ? "" : " | ").append('\'')
                    .append(e.name().toLowerCase(Locale.ROOT)).append('\'');
        }
        throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "'" + value + "' is not a value of " + name
                + "; use " + allowed);
    }
}
