package io.ferry.sql.rewrite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Calcite's ProjectAggregateMergeRule (unused aggregate calls dropped, {@code COALESCE(SUM(x), 0)} as
 * {@code SUM0(x)}), except over a grouped aggregate whose projection holds a CASE. There Calcite's rule refers to the
 * new SUM0 by its place among the aggregate calls instead of among the aggregate's columns, so with group keys the
 * COALESCE read a group key: {@code COALESCE(SUM(d), 0.0E0) … GROUP BY g, b} answered b's value, or failed to convert
 * g's text (fuzzer, seed 49 query 5138, and seed 47 query 1601's "Cannot add expression of different type to set"
 * where the types differ). Those projections keep their CASE, which Ferry's kernels evaluate; unused aggregate calls
 * are trimmed anyway.
 */
public final class GroupedSumZeroGuardRule extends RelOptRule {
    public static final GroupedSumZeroGuardRule INSTANCE = new GroupedSumZeroGuardRule();

    private GroupedSumZeroGuardRule() {
        super(operand(Project.class, operand(Aggregate.class, any())), "GroupedSumZeroGuardRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project project = call.rel(0);
        Aggregate aggregate = call.rel(1);
        if (aggregate.getGroupCount() > 0 && RexUtil.find(SqlKind.CASE).anyContain(project.getProjects())) {
            return;
        }
        CoreRules.PROJECT_AGGREGATE_MERGE.onMatch(call);
    }
}
