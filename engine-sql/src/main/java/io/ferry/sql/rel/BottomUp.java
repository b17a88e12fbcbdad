package io.ferry.sql.rel;

import java.util.function.UnaryOperator;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
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

    /** A planning step that applies {@code step} to every node, inputs first. */
    public static Program program(UnaryOperator<RelNode> step) {
        return (planner, rel, traits, materializations, lattices) -> rewrite(rel, step);
    }
}
