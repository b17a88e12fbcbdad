package io.ferry.core.storage;

import java.util.Locale;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;

/**
 * Where a partitioned table's blocks go among a cluster's memory servers (I-Store): {@link #NAM} spreads every
 * partition's blocks round-robin over all of them (the skew paper's NAM-partitioning, so reads spread over every
 * server); {@link #PARTITION} keeps partition p on server p mod M (the pipelined-execution paper's placement).
 * Irrelevant to a single node.
 */
public enum Placement {
    NAM, PARTITION;

    /** The placement a {@code placement = '...'} option names. */
    public static Placement named(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "nam", "round_robin", "round-robin" -> NAM;
            case "partition" -> PARTITION;
            default -> throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE, "placement '" + name + "' is not "
                    + "one Ferry knows; use 'nam' (every partition spread over all memory servers) or 'partition' "
                    + "(partition p on memory server p mod M)");
        };
    }

    public String sql() {
        return name().toLowerCase(Locale.ROOT);
    }
}
