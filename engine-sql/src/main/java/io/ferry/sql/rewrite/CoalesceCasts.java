package io.ferry.sql.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.Program;

import io.ferry.sql.rel.BottomUp;

/**
 * Filter and join conditions lose the {@code NOT NULL} CASTs that SQL-to-rel puts into COALESCE, before anything
 * simplifies them, in subqueries too. {@code COALESCE(a, b)} becomes {@code CASE WHEN a IS NOT NULL THEN CAST(a AS …
 * NOT NULL) ELSE b END}; where UNKNOWN counts as FALSE, Calcite's simplifier drops the guard, and then reads the CAST
 * as never NULL: {@code COALESCE(d, d) NOT BETWEEN 1.0E300 AND -0.0E0} holds every value, so it became TRUE, and a
 * scalar subquery's COUNT counted the rows where d is NULL (fuzzer, seed 41, query 14891: 244 for 236). Without the
 * CAST the CASE is {@code CASE WHEN a IS NOT NULL THEN a ELSE b END}, which the simplifier reads right. Projections
 * keep their CASTs (their row type must not change); {@link io.ferry.sql.rel.NullableCasts} handles what the
 * simplifier makes of them in the row engine's conditions later.
 *
 * <p>A program rather than a planner rule: it must reach the plans inside subqueries before subquery removal
 * simplifies them.
 */
public final class CoalesceCasts {
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) -> rewrite(rel);

    private CoalesceCasts() {
    }

    static RelNode rewrite(RelNode plan) {
        return BottomUp.rewrite(plan, rel -> {
            RexBuilder rex = rel.getCluster().getRexBuilder();
            if (rel instanceof LogicalFilter filter) {
                RexNode condition = filter.getCondition().accept(new Uncast(rex));
                return condition.equals(filter.getCondition()) ? rel
                        : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
            }
            if (rel instanceof LogicalJoin join) {
                RexNode condition = join.getCondition().accept(new Uncast(rex));
                return condition.equals(join.getCondition()) ? rel : join.copy(join.getTraitSet(), condition,
                        join.getLeft(), join.getRight(), join.getJoinType(), join.isSemiJoinDone());
            }
            // a projection's own expressions stay as they are; the subqueries among them are rewritten
            return rel.accept(new Subqueries());
        });
    }

    /** Rewrites the plans of subqueries only. */
    private static class Subqueries extends RexShuttle {
        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            RelNode plan = rewrite(visited.rel);
            return plan == visited.rel ? visited : visited.clone(plan);
        }
    }

    /** Drops a CAST that only makes a nullable value NOT NULL, and types the calls above it anew. */
    private static final class Uncast extends Subqueries {
        private final RexBuilder rex;

        Uncast(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            // an IN's operands keep their types: the IN was typed by them
            return new Subqueries().visitSubQuery(subQuery);
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            if (visited.getKind() == SqlKind.CAST && visited.getOperands().size() == 1) {
                RexNode operand = visited.getOperands().get(0);
                // not of BOOLEANs: SQL-to-rel also writes x IS NOT TRUE as CAST(NOT x AS BOOLEAN NOT NULL) where it
                // takes x for never NULL, and a condition without that CAST would drop the rows where x is NULL
                if (!visited.getType().isNullable() && operand.getType().isNullable()
                        && visited.getType().getSqlTypeName() != SqlTypeName.BOOLEAN && SqlTypeUtil
                        .equalSansNullability(rex.getTypeFactory(), visited.getType(), operand.getType())) {
                    return operand;
                }
                if (visited != call && operand.getType().isNullable() && !visited.getType().isNullable()) {
                    return rex.makeCast(rex.getTypeFactory().createTypeWithNullability(visited.getType(), true),
                            operand);
                }
                return visited;
            }
            return visited == call ? visited : rex.makeCall(visited.getOperator(), visited.getOperands());
        }
    }
}
