package io.ferry.sql.rewrite;

import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.ImmutableBitSet;

import io.ferry.sql.rel.BottomUp;

/**
 * Calls that are NULL whatever their other operands hold ({@code CAST(NULL AS BOOLEAN) > f}, {@code CAST(NULL AS
 * DOUBLE) / x}) become NULL literals, everywhere and in subqueries, before anything else plans them. Ferry does
 * not fold projections' constants (its kernels compute them), and Calcite's collation metadata takes
 * {@code CAST(NULL AS DOUBLE) / x}, which it finds constant, for a literal and fails reading its value
 * ({@code (CAST(NULL AS DOUBLE) / x) * d}: fuzzer, seed 41, query 9425).
 */
public final class NullCalls {
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) -> rewrite(rel);

    private NullCalls() {
    }

    /** {@code e} with its calls that are NULL whatever their other operands hold folded to NULL literals. */
    public static RexNode folded(RexNode e, RexBuilder rex) {
        return e.accept(new Folding(rex));
    }

    static RelNode rewrite(RelNode plan) {
        return BottomUp.rewrite(plan, rel -> rel.accept(new Folding(rel.getCluster().getRexBuilder())));
    }

    private static final class Folding extends RexShuttle {
        private final RexBuilder rex;

        Folding(RexBuilder rex) {
            this.rex = rex;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexNode visited = super.visitCall(call);
            return visited.getType().isNullable() && Strong.isNull(visited, ImmutableBitSet.of())
                    ? rex.makeNullLiteral(visited.getType()) : visited;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            RelNode plan = rewrite(visited.rel);
            return plan == visited.rel ? visited : visited.clone(plan);
        }
    }
}
