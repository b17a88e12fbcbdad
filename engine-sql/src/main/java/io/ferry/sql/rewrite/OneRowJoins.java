package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;

import io.ferry.sql.rel.BottomUp;

/**
 * A join without an equality whose right input has at most one row (an uncorrelated scalar subquery, {@code (SELECT
 * MAX(ts) FROM t)}, in the select list or compared in WHERE) becomes an equi-join on a constant key both inputs get,
 * its condition kept beside the key, so that Ferry's hash join runs it: a join
 * without an equality ran in Calcite's row engine as a nested loop, and everything above it with it (its CASTs
 * Calcite's, which cut 2.259 to 2.25 where Ferry and DuckDB round to 2.26). A LEFT join keeps its NULLs for an empty
 * right input. A semi- or anti-join on TRUE (an uncorrelated EXISTS, or a literal IN an uncorrelated subquery) asks
 * only whether its right input has a row: it joins on the key with that input's distinct key, at most one row (it
 * ran in the row engine as a nested loop, with everything above it; fuzzer seed 44 query 2194, whose projection
 * above then failed Calcite's code generation). Runs after the simplifications, which would fold the key's equality
 * back to TRUE.
 */
public final class OneRowJoins {
    public static final Program PROGRAM = BottomUp.program(OneRowJoins::rewrite);

    private OneRowJoins() {
    }

    static RelNode rewrite(RelNode rel) {
        if (!(rel instanceof LogicalJoin join) || !join.analyzeCondition().leftKeys.isEmpty()) {
            return rel;
        }
        boolean existence = (join.getJoinType() == JoinRelType.SEMI || join.getJoinType() == JoinRelType.ANTI)
                && join.getCondition().isAlwaysTrue();
        // an inner join keeps any condition beside the key; a LEFT join only TRUE (a residual would need a
        // non-equi outer join)
        if (!existence && !(join.getJoinType() == JoinRelType.INNER
                || join.getJoinType() == JoinRelType.LEFT && join.getCondition().isAlwaysTrue())) {
            return rel;
        }
        if (!existence) {
            Double max = join.getCluster().getMetadataQuery().getMaxRowCount(join.getRight());
            if (max == null || max > 1) {
                return rel;
            }
        }
        RelBuilder b = RelFactories.LOGICAL_BUILDER.create(join.getCluster(), null);
        int left = join.getLeft().getRowType().getFieldCount();
        int right = existence ? 0 : join.getRight().getRowType().getFieldCount();
        b.push(join.getLeft()).projectPlus(b.literal(0));
        if (existence) {
            b.push(join.getRight()).project(b.literal(0)).distinct();
        } else {
            b.push(join.getRight()).projectPlus(b.literal(0));
        }
        RexNode condition = RexUtil.shift(join.getCondition(), left, 1);
        b.join(join.getJoinType(), b.and(b.equals(b.field(2, 0, left), b.field(2, 1, right)), condition));
        List<RexNode> kept = new ArrayList<>(left + right);
        for (int i = 0; i < left; i++) {
            kept.add(b.field(i));
        }
        for (int i = 0; i < right; i++) {
            kept.add(b.field(left + 1 + i));
        }
        return b.project(kept, join.getRowType().getFieldNames(), true).convert(join.getRowType(), false).build();
    }
}
