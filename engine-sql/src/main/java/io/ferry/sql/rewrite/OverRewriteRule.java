package io.ferry.sql.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexOver;

/** A rule that rewrites the window calls ({@link RexOver}) of a logical projection with a {@link ChangeShuttle}. */
abstract class OverRewriteRule extends RelOptRule {
    OverRewriteRule(String description) {
        super(operand(LogicalProject.class, any()), description);
    }

    /** The shuttle that rewrites one projection's calls. */
    abstract ChangeShuttle shuttle(RexBuilder rex);

    @Override
    public boolean matches(RelOptRuleCall call) {
        return RexOver.containsOver(((LogicalProject) call.rel(0)).getProjects(), null);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        ChangeShuttle.rewrite(call, this::shuttle);
    }
}
