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

    /**
     * How a cluster runs joins (I-Store): GATHER sends each node its probe blocks and every build table whole;
     * PIPELINED runs joins of co-partitioned tables on the partitions each node is given, reading only the build
     * parts they meet (and fails, 0A000, where no join is co-partitioned); AUTO pipelines where it can, which never
     * reads more than gathering. SHUFFLE is not built yet.
     */
    public enum Execution {
        AUTO, GATHER, PIPELINED, SHUFFLE
    }

    private volatile Shipping shipping = Shipping.AUTO;
    private volatile Compression compression = Compression.AUTO;
    private volatile Execution execution = Execution.AUTO;

    public Shipping shipping() {
        return shipping;
    }

    public Compression compression() {
        return compression;
    }

    public Execution execution() {
        return execution;
    }

    public void set(String name, String value) {
        switch (key(name)) {
            case "shipping" -> shipping = parse(Shipping.class, name, value);
            case "compression" -> compression = parse(Compression.class, name, value);
            case "execution" -> {
                Execution e = parse(Execution.class, name, value);
                if (e == Execution.SHUFFLE) {
                    throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "execution = 'shuffle' (a shuffle "
                            + "hash join) is not built yet; use 'auto', 'gather' or 'pipelined'");
                }
                execution = e;
            }
            default -> throw unknown(name);
        }
    }

    /** {@code RESET name}; a null name resets all. */
    public void reset(String name) {
        if (name == null) {
            shipping = Shipping.AUTO;
            compression = Compression.AUTO;
            execution = Execution.AUTO;
            return;
        }
        switch (key(name)) {
            case "shipping" -> shipping = Shipping.AUTO;
            case "compression" -> compression = Compression.AUTO;
            case "execution" -> execution = Execution.AUTO;
            default -> throw unknown(name);
        }
    }

    /** Every setting and its value, for SHOW-like listings. */
    public Map<String, String> values() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("shipping", shipping.name().toLowerCase(Locale.ROOT));
        out.put("compression", compression.name().toLowerCase(Locale.ROOT));
        out.put("execution", execution.name().toLowerCase(Locale.ROOT));
        return out;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static FerryException unknown(String name) {
        return new FerryException(SqlStates.UNDEFINED_OBJECT, "unknown setting '" + name
                + "'; Ferry has: shipping ('auto' | 'function' | 'data'), compression ('auto' | 'on' | 'off'), "
                + "execution ('auto' | 'gather' | 'pipelined')");
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
