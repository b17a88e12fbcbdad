package io.ferry.sql.rewrite;

import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

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
        if (aggregate.getGroupCount() > 0 && RexUtil.find(SqlKind.CASE).anyContain(project.getProjects())
                || hasTextElse(project.getProjects())) {
            return;
        }
        CoreRules.PROJECT_AGGREGATE_MERGE.onMatch(call);
    }

    /**
     * Whether a CASE of the projection has three operands and a literal ELSE that is not a number: Calcite's rule
     * reads such a literal as a number to compare it with 0 and fails an assertion on text ({@code COALESCE(CAST(SUM(0)
     * AS VARCHAR), '')}, an XX000: fuzzer, seed 906 query 1407).
     */
    private static boolean hasTextElse(List<RexNode> projects) {
        boolean[] found = {false};
        RexVisitorImpl<Void> finder = new RexVisitorImpl<>(true) {
            @Override
            public Void visitCall(RexCall c) {
                if (c.getKind() == SqlKind.CASE && c.getOperands().size() == 3
                        && c.getOperands().get(2) instanceof RexLiteral literal
                        && !SqlTypeUtil.isNumeric(literal.getType())) {
                    found[0] = true;
                }
                return super.visitCall(c);
            }
        };
        projects.forEach(e -> e.accept(finder));
        return found[0];
    }
}
