package io.ferry.server.runtime;

import java.util.ArrayList;
import java.util.List;

import io.ferry.server.cluster.Member;
import io.ferry.sql.distributed.ShippingModel;

/**
 * A unit of work at a gather: blocks of the divided table, the node that holds them and the node that runs the
 * fragment over them (none: only the coordinator can), and how it is shipped and why ({@link UnitPlanner}).
 */
final class Unit {
    final Member holder;
    final Member runner; // null: only the coordinator can run it
    final List<BlockLocation> blocks = new ArrayList<>();
    long rows;
    long bytes;
    boolean function;
    boolean compress; // the node's result, if it runs the fragment
    String reason;
    ShippingModel.Inputs inputs;
    ShippingModel.Costs costs;
    /** How the partitions were assigned to compute servers, when they were ({@link UnitPlanner}); else null. */
    String assignment;

    Unit(Member holder, Member runner) {
        this.holder = holder;
        this.runner = runner;
    }

    String node() {
        return runner == null ? holder.name() : runner.name();
    }

    /** The same work for another compute server, after {@link #runner} was lost. */
    Unit movedTo(Member other, boolean compressed) {
        Unit u = new Unit(holder, other);
        u.blocks.addAll(blocks);
        u.rows = rows;
        u.bytes = bytes;
        u.function = true;
        u.compress = compressed;
        u.inputs = inputs;
        u.costs = costs;
        u.assignment = assignment;
        u.reason = "run again: " + runner.name() + " was lost while running it";
        return u;
    }
}
