package io.ferry.sql.rewrite;

import java.util.HashSet;
import java.util.Set;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexNode;

/**
 * Calcite's AggregateProjectMergeRule (an aggregate reads its input's columns directly, not through a projection
 * that only picks them), except where two group keys of an aggregate with grouping sets are one input column. Two
 * keys that compute the same value are still two keys: in {@code GROUP BY GROUPING SETS ((i, dt), (i * 1))} the
 * second set's rows have {@code i} NULL and {@code i * 1} set. Simplification makes {@code i * 1} the column
 * {@code i}, and Calcite's rule then merged the keys, so the second set's rows showed {@code i} (fuzzer, seed 432
 * query 2127), or planning failed on the changed nullability. With plain GROUP BY the merge is right and runs.
 */
public final class GroupingSetsProjectMergeRule extends RelOptRule {
    public static final GroupingSetsProjectMergeRule INSTANCE = new GroupingSetsProjectMergeRule();

    private GroupingSetsProjectMergeRule() {
        super(operand(Aggregate.class, operand(Project.class, any())), "GroupingSetsProjectMergeRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        Project project = call.rel(1);
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE && mergesKeys(aggregate, project)) {
            return;
        }
        CoreRules.AGGREGATE_PROJECT_MERGE.onMatch(call);
    }

    private static boolean mergesKeys(Aggregate aggregate, Project project) {
        Set<RexNode> keys = new HashSet<>();
        for (int key : aggregate.getGroupSet()) {
            if (!keys.add(project.getProjects().get(key))) {
                return true;
            }
        }
        return false;
    }
}
