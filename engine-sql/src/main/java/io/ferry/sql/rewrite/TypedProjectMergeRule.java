package io.ferry.sql.rewrite;

import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;

/**
 * Calcite's ProjectMergeRule, except where the upper projection's types are not those of what it reads: a column
 * declared other than its expression, or a column reference typed other than the column below. Calcite's conversion
 * makes such projections for the UNION ALL branches of a repeated grouping set (nullable as the union's, over what a
 * rewrite below later made NOT NULL), and a merge derives the types anew: NOT NULL, which Calcite's own check then
 * refused (XX000 "Cannot add expression of different type to
 * set", fuzzer seed 1008 query 1683, {@code SELECT MAX('') … GROUP BY ROLLUP(TRUE, dt, dt)}). Such projections stay.
 */
public final class TypedProjectMergeRule extends RelOptRule {
    public static final TypedProjectMergeRule INSTANCE = new TypedProjectMergeRule();

    private TypedProjectMergeRule() {
        super(operand(Project.class, operand(Project.class, any())), "TypedProjectMergeRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project top = call.rel(0);
        Project bottom = call.rel(1);
        List<RelDataTypeField> declared = top.getRowType().getFieldList();
        List<RelDataTypeField> below = bottom.getRowType().getFieldList();
        List<RexNode> projects = top.getProjects();
        boolean[] typed = {true};
        RexVisitorImpl<Void> refs = new RexVisitorImpl<>(true) {
            @Override
            public Void visitInputRef(RexInputRef ref) {
                typed[0] &= ref.getType().equals(below.get(ref.getIndex()).getType());
                return null;
            }
        };
        for (int i = 0; i < projects.size(); i++) {
            typed[0] &= declared.get(i).getType().equals(projects.get(i).getType());
            projects.get(i).accept(refs);
        }
        if (typed[0]) {
            CoreRules.PROJECT_MERGE.onMatch(call);
        }
    }
}
