package io.ferry.sql.rewrite;

import java.util.function.Function;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexShuttle;

/** A shuttle over a node's expressions that notes whether it replaced any, for rules that only swap expressions. */
abstract class ChangeShuttle extends RexShuttle {
    protected final RexBuilder rex;
    protected boolean changed;

    ChangeShuttle(RexBuilder rex) {
        this.rex = rex;
    }

    /** Runs a new shuttle over the rule's matched node, and offers the result when it changed anything. */
    static void rewrite(RelOptRuleCall call, Function<RexBuilder, ChangeShuttle> shuttle) {
        RelNode rel = call.rel(0);
        ChangeShuttle s = shuttle.apply(rel.getCluster().getRexBuilder());
        RelNode replaced = rel.accept(s);
        if (s.changed) {
            call.transformTo(replaced);
        }
    }
}
