package io.ferry.sql.rel;

import java.util.Set;
import java.util.TreeSet;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.rel.RelNode;

/**
 * The operators of Calcite's row engine in a physical plan: the slow path a statement takes where Ferry's operators
 * do not cover it (one row at a time, boxed values, generated code). sys.queries shows them per statement, the
 * metrics count such statements and the benchmarks report them, so that a construct that silently falls back is seen.
 * The row-engine nodes that only hand Ferry's rows to the client or to a table ({@link FerryToEnumerableConverter},
 * {@link FerryTableModify}, {@link RowsWrapper}'s cancel checks) are not counted.
 */
public final class RowEngineOperators {
    private RowEngineOperators() {
    }

    /** The names of the row-engine operators in {@code plan}, sorted and comma-separated; null if there are none. */
    public static String in(RelNode plan) {
        Set<String> names = new TreeSet<>();
        collect(plan, names);
        return names.isEmpty() ? null : String.join(", ", names);
    }

    private static void collect(RelNode rel, Set<String> names) {
        if (rel instanceof FerryRel) {
            return; // Ferry's operators read no row-engine input
        }
        if (rel.getConvention() == EnumerableConvention.INSTANCE && !(rel instanceof FerryToEnumerableConverter)
                && !(rel instanceof FerryTableModify) && !(rel instanceof RowsWrapper)) {
            names.add(rel.getRelTypeName());
        }
        for (RelNode input : rel.getInputs()) {
            collect(input, names);
        }
    }
}
