package io.ferry.sql.rel;

import org.apache.calcite.adapter.enumerable.EnumerableProject;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.tools.Program;

/**
 * Moves a row-engine projection that sits directly on Ferry's rows into Ferry, where its kernels can compute it:
 * {@code EnumerableProject(FerryToEnumerable(x))} becomes {@code FerryToEnumerable(FerryProject(x))}. The cost-based
 * phase would choose this itself, but the two plans differ by a few hundred cost units on top of a join estimated at
 * 10^20 rows, below a double's precision there, so which one it kept was the order rules happened to fire in; the
 * row-engine one also costs a Janino compilation per statement.
 */
public final class ProjectionsIntoFerry {
    private ProjectionsIntoFerry() {
    }

    /** Runs after the cost-based phase, before Calcite's calc rules merge projections into calcs. */
    public static final Program PROGRAM = BottomUp.program(visited -> {
        if (visited instanceof EnumerableProject p
                && p.getInput() instanceof FerryToEnumerableConverter converter
                && FerryRules.ProjectRule.runs(p)) {
            RelNode ferryInput = converter.getInput();
            FerryProject projected = new FerryProject(p.getCluster(),
                    p.getTraitSet().replace(FerryRel.CONVENTION), ferryInput, p.getProjects(),
                    p.getRowType());
            return new FerryToEnumerableConverter(p.getCluster(), p.getTraitSet(), projected);
        }
        return visited;
    });
}
