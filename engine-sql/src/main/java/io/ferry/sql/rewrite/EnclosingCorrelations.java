package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.common.collect.ImmutableSet;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.sql.rel.BottomUp;

/**
 * A LEFT correlation whose right side reads the variable of an enclosing correlation gets that value from its left
 * side instead: {@code (SELECT MAX(b.id) FROM b WHERE NOT EXISTS (SELECT 1 FROM c WHERE c.g = b.g AND c.k = a.k))}
 * correlates c to b ({@code $cor0}) and to a ({@code $cor1}). Calcite's decorrelator turns the reference to
 * {@code $cor1.k} into a column of the right side and groups the middle level by it; a row of b that no row of c
 * matches has NULL there, so it counted for no row of a, and the subquery answered NULL where it had rows. Projected
 * on the left side ({@code Project(b, $cor1.k)}) and read through {@code $cor0}, the value is joined to every row of b
 * by the decorrelator's value generator, matched or not. Inner and semi correlations drop unmatched rows, and are left
 * as they are.
 *
 * <p>A program rather than a planner rule, for the reason {@link UncorrelatedCorrelates} gives.
 */
public final class EnclosingCorrelations {
    public static final Program PROGRAM = BottomUp.program(visited -> visited instanceof LogicalCorrelate c
            && (c.getJoinType() == JoinRelType.LEFT || c.getJoinType() == JoinRelType.ANTI) ? rewrite(c)
            : visited instanceof LogicalJoin j && keepsEveryLeftRow(j)
            && !RelOptUtil.getVariablesUsed(j.getRight()).isEmpty() ? rewrite(correlated(j)) : visited);

    private EnclosingCorrelations() {
    }

    /**
     * A LEFT join, or an inner join without a condition of a right side that has a row whatever its input (an
     * aggregate without GROUP BY: what subquery removal joins for a scalar subquery it knows has one row).
     */
    private static boolean keepsEveryLeftRow(LogicalJoin join) {
        if (join.getJoinType() == JoinRelType.LEFT) {
            return true;
        }
        if (join.getJoinType() != JoinRelType.INNER || !join.getCondition().isAlwaysTrue()) {
            return false;
        }
        Double least = join.getCluster().getMetadataQuery().getMinRowCount(join.getRight());
        return least != null && least >= 1;
    }

    /**
     * A join that keeps every left row whose right side reads an enclosing correlation's variable, as a LEFT
     * correlation of its own (its condition a filter of the right side that reads the left row through the new
     * variable), which {@link #rewrite} then gives the enclosing values through its left side. Calcite's subquery
     * removal writes a scalar subquery that reads only the outer query's columns, nested in another subquery, as
     * such a join ({@code (SELECT MIN(b.ts) FROM b WHERE b.d IS NOT DISTINCT FROM (SELECT SUM(1.5) FROM c WHERE 0 =
     * a.k))}); the decorrelator
     * then grouped the inner aggregate by the outer value and lost the one row an aggregate without GROUP BY has for
     * the values no row of c matches (NULL there instead of the minimum: fuzzer, seeds 2613 and 2614).
     */
    private static LogicalCorrelate correlated(LogicalJoin join) {
        RexBuilder rex = join.getCluster().getRexBuilder();
        CorrelationId id = join.getCluster().createCorrel();
        int width = join.getLeft().getRowType().getFieldCount();
        RexNode row = rex.makeCorrel(join.getLeft().getRowType(), id);
        ImmutableBitSet.Builder read = ImmutableBitSet.builder();
        RexNode condition = join.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                if (ref.getIndex() < width) {
                    read.set(ref.getIndex());
                    return rex.makeFieldAccess(row, ref.getIndex());
                }
                return new RexInputRef(ref.getIndex() - width, ref.getType());
            }
        });
        RelNode right = condition.isAlwaysTrue() ? join.getRight()
                : LogicalFilter.create(join.getRight(), condition, ImmutableSet.of(id));
        return LogicalCorrelate.create(join.getLeft(), right, join.getHints(), id, read.build(), JoinRelType.LEFT);
    }

    private static RelNode rewrite(LogicalCorrelate correlate) {
        CorrelationId own = correlate.getCorrelationId();
        Set<CorrelationId> enclosing = new HashSet<>(RelOptUtil.getVariablesUsed(correlate.getRight()));
        enclosing.remove(own);
        if (enclosing.isEmpty()) {
            return correlate;
        }
        Map<String, RexFieldAccess> reads = new LinkedHashMap<>();
        everyNode(correlate.getRight(), new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && enclosing.contains(v.id)) {
                    reads.putIfAbsent(access.toString(), access);
                }
                return super.visitFieldAccess(access);
            }
        });
        if (reads.isEmpty()) {
            return correlate;
        }
        RexBuilder rex = correlate.getCluster().getRexBuilder();
        RelNode left = correlate.getLeft();
        int width = left.getRowType().getFieldCount();
        List<RexNode> projects = new ArrayList<>(rex.identityProjects(left.getRowType()));
        List<String> names = new ArrayList<>(left.getRowType().getFieldNames());
        for (RexFieldAccess read : reads.values()) {
            projects.add(read);
            names.add("$enclosing" + (names.size() - width));
        }
        RelNode widened = LogicalProject.create(left, List.of(), projects, names, Set.of());
        RexNode variable = rex.makeCorrel(widened.getRowType(), own);
        List<String> keys = new ArrayList<>(reads.keySet());
        RelNode right = everyNode(correlate.getRight(), new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v) {
                    if (v.id.equals(own)) {
                        return rex.makeFieldAccess(variable, access.getField().getIndex());
                    }
                    int read = keys.indexOf(access.toString());
                    if (read >= 0) {
                        return rex.makeFieldAccess(variable, width + read);
                    }
                }
                return super.visitFieldAccess(access);
            }
        });
        ImmutableBitSet required = correlate.getRequiredColumns().union(ImmutableBitSet.range(width,
                width + keys.size()));
        LogicalCorrelate widenedCorrelate = LogicalCorrelate.create(widened, right, correlate.getHints(), own,
                required, correlate.getJoinType());
        // the correlation's own row again: the left side's columns and the right side's, without the projected reads
        List<RexNode> original = new ArrayList<>();
        for (int i = 0; i < widenedCorrelate.getRowType().getFieldCount(); i++) {
            if (i < width || i >= width + keys.size()) {
                original.add(rex.makeInputRef(widenedCorrelate, i));
            }
        }
        return LogicalProject.create(widenedCorrelate, List.of(), original, correlate.getRowType().getFieldNames(),
                Set.of());
    }

    /** {@code rel} with {@code shuttle} applied to the expressions of every node in it. */
    private static RelNode everyNode(RelNode rel, RexShuttle shuttle) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(shuttle);
            }
        });
    }
}
