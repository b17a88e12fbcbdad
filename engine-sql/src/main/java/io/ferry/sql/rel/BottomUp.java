package io.ferry.sql.rel;

import java.util.function.UnaryOperator;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.tools.Program;

/** A plan rewritten node by node, each node after its inputs: the shape of most of Ferry's planning steps. */
public final class BottomUp {
    private BottomUp() {
    }

    /** {@code rel} with {@code step} applied to every node, whose inputs have had it applied already. */
    public static RelNode rewrite(RelNode rel, UnaryOperator<RelNode> step) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return step.apply(super.visit(other));
            }
        });
    }

    /**
     * {@code rel} with {@code step} applied to every node, and to every node of the plans of subqueries in their
     * expressions, each node after its inputs and after the subqueries in its own expressions.
     */
    public static RelNode rewriteNested(RelNode rel, UnaryOperator<RelNode> step) {
        RexShuttle subqueries = new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                RelNode plan = rewriteNested(visited.rel, step);
                return plan == visited.rel ? visited : visited.clone(plan);
            }
        };
        return rewrite(rel, node -> step.apply(node.accept(subqueries)));
    }

    /** A planning step that applies {@code step} to every node, inputs first. */
    public static Program program(UnaryOperator<RelNode> step) {
        return (planner, rel, traits, materializations, lattices) -> rewrite(rel, step);
    }
}
