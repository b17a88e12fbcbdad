package io.ferry.sql.rewrite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

import io.ferry.sql.rel.BottomUp;

/**
 * A plan whose {@code SEARCH} calls (Calcite's form of {@code IN} lists and ranges, {@code d IN (1e3, -2.25, 0.5)})
 * are expanded into the comparisons they stand for, for Calcite's decorrelator: its rule for a correlated scalar
 * aggregate rewrites the input references of every call, and in a SEARCH it rewrote the search argument itself, which
 * must stay a literal, into a CASE, and failed with "not a literal" (fuzzer, seed 21, query 59). The simplifier folds
 * the comparisons back into SEARCH calls after decorrelation.
 */
public final class ExpandedSearches {
    private ExpandedSearches() {
    }

    public static RelNode expand(RelNode rel) {
        return BottomUp.rewrite(rel, node -> node.accept(new RexShuttle() {
            private final RexBuilder rex = node.getCluster().getRexBuilder();

            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                return visited.getKind() == SqlKind.SEARCH ? RexUtil.expandSearch(rex, null, visited) : visited;
            }
        }));
    }
}
