package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

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
        List<RexNode> reduced = new ArrayList<>();
        executor.reduce(rex, expressions, reduced);
        List<List<RexLiteral>> tuples = new ArrayList<>();
        for (int r = 0; r < union.getInputs().size(); r++) {
            List<RexLiteral> row = new ArrayList<>(fields.size());
            for (int i = 0; i < fields.size(); i++) {
                // A literal of a nullable type comes back as a cast that only adds nullability
                RexNode value = RexUtil.removeNullabilityCast(rex.getTypeFactory(), reduced.get(r * fields.size() + i));
                if (!(value instanceof RexLiteral literal)) {
                    return union;
                }
                row.add(literal);
            }
            tuples.add(row);
        }
        return LogicalValues.create(union.getCluster(), union.getRowType(),
                ImmutableList.copyOf(tuples.stream().map(ImmutableList::copyOf).toList()));
    }
}
