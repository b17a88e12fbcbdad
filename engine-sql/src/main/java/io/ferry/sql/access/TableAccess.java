package io.ferry.sql.access;

import java.util.Set;

/**
 * The privileges a planned statement needs: for each table or view it names, what it does to it. Kept with the plan
 * and checked whenever the plan runs, so a cached or prepared plan cannot outlive a REVOKE.
 */
public record TableAccess(Set<Need> needs) {
    public static final TableAccess NONE = new TableAccess(Set.of());

    /** One table (or view) of the catalog and one thing done to it. */
    public record Need(String table, Privilege privilege) {
    }

    public TableAccess {
        needs = Set.copyOf(needs);
    }
}
