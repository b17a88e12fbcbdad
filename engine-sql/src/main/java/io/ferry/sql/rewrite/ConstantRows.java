package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import com.google.common.collect.ImmutableList;

import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.Program;

import io.ferry.sql.rel.BottomUp;

/**
 * A VALUES list with an expression in some row ({@code (1, DATE '2020-01-01' + INTERVAL '1' DAY), ...}) reaches the
 * planner as a UNION ALL of one-row projects, one per row: 1000 rows took 17 s to plan and 3000 overflowed the code
 * generator. Here all rows' expressions are folded at once, by one call to the executor, into one VALUES of
 * literals. A list whose expressions are not all constant (a subquery, RAND()) stays as it is.
 */
public final class ConstantRows implements Program {
    public static final ConstantRows INSTANCE = new ConstantRows();

    private ConstantRows() {
    }

    @Override
    public RelNode run(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
            List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
        RexExecutor executor = planner.getExecutor();
        if (executor == null) {
            return rel;
        }
        return BottomUp.rewrite(rel, visited -> {
            return visited instanceof LogicalUnion union && union.all ? fold(union, executor) : visited;
        });
    }

    private static RelNode fold(LogicalUnion union, RexExecutor executor) {
        RexBuilder rex = union.getCluster().getRexBuilder();
        List<RelDataTypeField> fields = union.getRowType().getFieldList();
        List<RexNode> expressions = new ArrayList<>();
        for (RelNode input : union.getInputs()) {
            if (!(input instanceof LogicalProject project) || !(project.getInput() instanceof LogicalValues values)
                    || values.getTuples().size() != 1) {
                return union;
            }
            for (int i = 0; i < fields.size(); i++) {
                RexNode e = project.getProjects().get(i);
                if (!RexUtil.isConstant(e) || !RexUtil.isDeterministic(e)) {
                    return union;
                }
                expressions.add(rex.makeCast(fields.get(i).getType(), e, true, false));
            }
        }
        ImmutableList<ImmutableList<RexLiteral>> tuples = folded(executor, rex, expressions, fields.size(),
                (column, literal) -> true);
        return tuples == null ? union : LogicalValues.create(union.getCluster(), union.getRowType(), tuples);
    }

    /**
     * {@code cells}, rows of {@code width} constant expressions one after another, folded at once by {@code
     * executor} into rows of literals; null where a cell does not fold into a literal that {@code accept} takes
     * (given its column).
     */
    public static ImmutableList<ImmutableList<RexLiteral>> folded(RexExecutor executor, RexBuilder rex,
            List<RexNode> cells, int width, BiPredicate<Integer, RexLiteral> accept) {
        List<RexNode> reduced = new ArrayList<>(cells.size());
        executor.reduce(rex, cells, reduced);
        ImmutableList.Builder<ImmutableList<RexLiteral>> tuples = ImmutableList.builder();
        for (int r = 0; r < cells.size() / width; r++) {
            ImmutableList.Builder<RexLiteral> row = ImmutableList.builder();
            for (int i = 0; i < width; i++) {
                // A literal of a nullable type comes back as a cast that only adds nullability
                RexNode value = RexUtil.removeNullabilityCast(rex.getTypeFactory(), reduced.get(r * width + i));
                if (!(value instanceof RexLiteral literal) || !accept.test(i, literal)) {
                    return null;
                }
                row.add(literal);
            }
            tuples.add(row.build());
        }
        return tuples.build();
    }
}
