package io.ferry.sql.rewrite;

import java.util.Set;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.tools.Program;

import io.ferry.sql.rel.BottomUp;

/**
 * A correlation whose right side no longer uses its variable becomes a join on TRUE of the same type. Subquery
 * removal correlates every subquery of a row expression; when folding then empties a subquery
 * ({@code … WHERE CAST(NULL AS BOOLEAN)}), its correlation remains with nothing to decorrelate, and Calcite's
 * decorrelator, unable to rewrite it, left every correlation of the query in place, which field trimming then
 * failed on ("source #n has no target in mapping", a scalar subquery beside {@code NOT IN}).
 *
 * <p>A program rather than a planner rule: a heuristic planner hides a rule's inputs behind vertices, through
 * which the variables a subtree uses cannot be collected.
 */
public final class UncorrelatedCorrelates {
    public static final Program PROGRAM = BottomUp.program(visited -> {
        if (visited instanceof LogicalCorrelate c
                && !RelOptUtil.getVariablesUsed(c.getRight()).contains(c.getCorrelationId())) {
            return LogicalJoin.create(c.getLeft(), c.getRight(), c.getHints(),
                    c.getCluster().getRexBuilder().makeLiteral(true), Set.of(), c.getJoinType());
        }
        return visited;
    });

    private UncorrelatedCorrelates() {
    }
}
