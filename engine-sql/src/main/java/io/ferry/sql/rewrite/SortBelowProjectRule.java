package io.ferry.sql.rewrite;

import java.util.List;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.rules.SortProjectTransposeRule;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's sort pushed below a projection, except where a sort key before the last is a CAST to another type.
 * Calcite pushes a sort through any CAST it finds monotonic, and sorts by the CAST's operand instead; but a CAST
 * such as TIMESTAMP to DATE is monotonic without being one-to-one: timestamps of one day are ties of the DATE and
 * not of the TIMESTAMP, so the keys after it stopped ordering them ({@code ORDER BY CAST(ts AS DATE) DESC, dt NULLS
 * FIRST} sorted by ts, and a NULL dt came after other dates of its day: fuzzer, seed 41, query 4347). The last key's
 * ties decide nothing, so a CAST there may still be pushed through.
 */
public final class SortBelowProjectRule extends SortProjectTransposeRule {
    public static final SortBelowProjectRule INSTANCE = new SortBelowProjectRule();

    private SortBelowProjectRule() {
        super(Config.DEFAULT.withDescription("FerrySortProjectTransposeRule").as(Config.class));
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Sort sort = call.rel(0);
        Project project = call.rel(1);
        List<RelFieldCollation> keys = sort.getCollation().getFieldCollations();
        for (RelFieldCollation key : keys.subList(0, Math.max(0, keys.size() - 1))) {
            RexNode e = project.getProjects().get(key.getFieldIndex());
            if (e.getKind() == SqlKind.CAST && !SqlTypeUtil.equalSansNullability(project.getCluster()
                    .getTypeFactory(), e.getType(), ((RexCall) e).getOperands().get(0).getType())) {
                return;
            }
        }
        super.onMatch(call);
    }
}
