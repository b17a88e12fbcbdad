package io.ferry.server.cluster;

import java.util.Locale;

/** What a node of a cluster does (DESIGN.md, "Processes and roles"). */
public enum Role {
    /** Catalog, JDBC, planning, shipping decisions, final aggregation, data-shipping execution. */
    COORDINATOR,
    /** Holds table blocks in registered memory; passive on the data path. */
    MEMORY,
    /** Holds nothing; runs fragments over blocks it streams from memory servers. */
    COMPUTE,
    /** Memory and compute in one process: the ship-or-not paper's worker. */
    WORKER;

    public boolean holdsBlocks() {
        return this == MEMORY || this == WORKER;
    }

    public boolean runsFragments() {
        return this == COMPUTE || this == WORKER;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Role decode(int code) {
        Role[] all = values();
        if (code < 0 || code >= all.length) {
            throw new io.ferry.fabric.frame.MalformedFrameException("unknown node role " + code);
        }
        return all[code];
    }
}
