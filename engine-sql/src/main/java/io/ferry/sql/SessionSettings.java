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
     * parts they meet (and fails, 0A000, where no join is co-partitioned); SHUFFLE splits both inputs of every join
     * by its key over the nodes and joins each part where it lands (the shuffle hash join DPE Fig. 7a compares
     * against); AUTO takes whichever of the three moves the fewest bytes ({@code distributed.ExecutionChoice}).
     */
    public enum Execution {
        AUTO, GATHER, PIPELINED, SHUFFLE
    }

    /**
     * Whether a fragment lost with its compute server runs again, once, on another (I-Store: a compute server holds
     * nothing, so its work can move); OFF fails the query with 08006 instead.
     */
    public enum Retry {
        ON, OFF
    }

    /**
     * Whether compute servers or workers sharing a gathered scan steal work from each other (I-Store skew paper
     * section 4): ON (the default: it costs little on even work, measured, and saves a straggler's time under skew)
     * puts each unit's blocks in a work queue on a memory server or the worker, and a node whose queue is empty
     * claims blocks from the tail of the fullest other queue with remote compare-and-swap; OFF runs each unit on its
     * own blocks.
     */
    public enum Steal {
        ON, OFF
    }

    /**
     * Which compute server runs which work: AUTO deals a gather's blocks out round-robin and gives a pipelined
     * join's partition combinations by whichever of GRID and LDM replicates the fewest build bytes
     * ({@code distributed.WorkAssignment}); LDM and GRID force that method; PARTITION gives each compute server the
     * blocks of one memory server (memory server i's to compute server i mod C), as co-located nodes of a
     * shared-nothing cluster would run them.
     */
    public enum Assignment {
        AUTO, LDM, GRID, PARTITION
    }

    /** Reads a block stream keeps in flight unless {@code SET prefetch} says otherwise (I-Store DPE Fig. 7b). */
    public static final int DEFAULT_PREFETCH = 8;
    /** The most reads in flight a stream may keep: each holds a block-sized staging buffer. */
    public static final int MAX_PREFETCH = 64;

    private volatile Shipping shipping = Shipping.AUTO;
    private volatile Compression compression = Compression.AUTO;
    private volatile Execution execution = Execution.AUTO;
    private volatile Retry retry = Retry.ON;
    private volatile int prefetch = DEFAULT_PREFETCH;
    private volatile Steal steal = Steal.ON;
    private volatile Assignment assignment = Assignment.AUTO;

    public Shipping shipping() {
        return shipping;
    }

    public Compression compression() {
        return compression;
    }

    public Execution execution() {
        return execution;
    }

    public Retry retry() {
        return retry;
    }

    public Steal steal() {
        return steal;
    }

    public Assignment assignment() {
        return assignment;
    }

    /** Reads in flight per block stream, on the coordinator and on the nodes running this session's fragments. */
    public int prefetch() {
        return prefetch;
    }

    public void set(String name, String value) {
        switch (key(name)) {
            case "shipping" -> shipping = parse(Shipping.class, name, value);
            case "compression" -> compression = parse(Compression.class, name, value);
            case "execution" -> execution = parse(Execution.class, name, value);
            case "retry" -> retry = parse(Retry.class, name, value);
            case "prefetch" -> prefetch = parsePrefetch(value);
            case "steal" -> steal = parse(Steal.class, name, value);
            case "assignment" -> assignment = parse(Assignment.class, name, value);
            default -> throw unknown(name);
        }
    }

    /** {@code RESET name}; a null name resets all. */
    public void reset(String name) {
        if (name == null) {
            shipping = Shipping.AUTO;
            compression = Compression.AUTO;
            execution = Execution.AUTO;
            retry = Retry.ON;
            prefetch = DEFAULT_PREFETCH;
            steal = Steal.ON;
            assignment = Assignment.AUTO;
            return;
        }
        switch (key(name)) {
            case "shipping" -> shipping = Shipping.AUTO;
            case "compression" -> compression = Compression.AUTO;
            case "execution" -> execution = Execution.AUTO;
            case "retry" -> retry = Retry.ON;
            case "prefetch" -> prefetch = DEFAULT_PREFETCH;
            case "steal" -> steal = Steal.ON;
            case "assignment" -> assignment = Assignment.AUTO;
            default -> throw unknown(name);
        }
    }

    /** Every setting and its value, for SHOW-like listings. */
    public Map<String, String> values() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("shipping", shipping.name().toLowerCase(Locale.ROOT));
        out.put("compression", compression.name().toLowerCase(Locale.ROOT));
        out.put("execution", execution.name().toLowerCase(Locale.ROOT));
        out.put("retry", retry.name().toLowerCase(Locale.ROOT));
        out.put("prefetch", Integer.toString(prefetch));
        out.put("steal", steal.name().toLowerCase(Locale.ROOT));
        out.put("assignment", assignment.name().toLowerCase(Locale.ROOT));
        return out;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static FerryException unknown(String name) {
        return new FerryException(SqlStates.UNDEFINED_OBJECT, "unknown setting '" + name
                + "'; Ferry has: shipping ('auto' | 'function' | 'data'), compression ('auto' | 'on' | 'off'), "
                + "execution ('auto' | 'gather' | 'pipelined' | 'shuffle'), retry ('on' | 'off'), prefetch (1 to "
                + MAX_PREFETCH + "), steal ('on' | 'off'), assignment ('auto' | 'ldm' | 'grid' | 'partition')");
    }

    private static int parsePrefetch(String value) {
        String v = value.trim();
        if (v.matches("[0-9]{1,9}")) {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= MAX_PREFETCH) {
                return n;
            }
        }
        throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "'" + value + "' is not a value of prefetch; "
                + "use a number of reads in flight from 1 to " + MAX_PREFETCH + " (default " + DEFAULT_PREFETCH + ")");
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
