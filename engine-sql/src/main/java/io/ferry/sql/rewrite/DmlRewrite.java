package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.RelBuilder;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.schema.FerryTable;

/**
 * DELETE and UPDATE as Ferry runs them: as a query for the table's contents after the statement, whose rows then
 * replace the table's at once (a column store rewrites rather than patches; {@code TableWriter} holds the table's
 * write lock from before the query reads it until the new version is published, so the statement is atomic).
 *
 * <p>Calcite plans {@code DELETE FROM t WHERE p} as a TableModify over the rows to delete, and
 * {@code UPDATE t SET c = e WHERE p} over those rows with the new values appended. This rewrite, run before
 * anything else, turns the input into:
 * <ul>
 * <li>DELETE: the rows where {@code p} is not true, which the table keeps;</li>
 * <li>UPDATE: the rows where {@code p} is true with each set column replaced by its new value (cast to the
 * column's type), then the rows where it is not, each row followed by a BOOLEAN that says whether it changed.</li>
 * </ul>
 * New values are computed only for the rows the condition selects, so {@code SET r = 1 / d WHERE d <> 0} cannot fail
 * on another row.
 */
public final class DmlRewrite implements Program {
    public static final DmlRewrite INSTANCE = new DmlRewrite();

    private DmlRewrite() {
    }

    @Override
    public RelNode run(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
            List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
        if (!(rel instanceof LogicalTableModify modify) || !(modify.isDelete() || modify.isUpdate())
                || modify.getTable().unwrap(FerryTable.class) == null) {
            return rel;
        }
        Source source = Source.of(modify);
        RelBuilder b = RelBuilder.proto(Contexts.empty()).create(rel.getCluster(), null);
        RexBuilder rex = rel.getCluster().getRexBuilder();
        RexNode notSelected = rex.makeCall(SqlStdOperatorTable.IS_NOT_TRUE, source.condition);
        RelNode input;
        if (modify.isDelete()) {
            input = b.push(source.scan).filter(source.variables, notSelected).build();
        } else {
            input = b.push(updated(b, modify, source)).push(source.scan).filter(source.variables, notSelected)
                    .project(withFlag(b, identity(b), false)).union(true).build();
        }
        return modify.copy(modify.getTraitSet(), List.of(input));
    }

    /** The selected rows with their new values, and a TRUE flag. */
    private static RelNode updated(RelBuilder b, TableModify modify, Source source) {
        b.push(source.scan).filter(source.variables, source.condition);
        RelDataType rowType = modify.getTable().getRowType();
        RelDataTypeFactory types = modify.getCluster().getTypeFactory();
        RexBuilder rex = modify.getCluster().getRexBuilder();
        List<RexNode> row = identity(b);
        List<String> columns = modify.getUpdateColumnList();
        for (int i = 0; i < columns.size(); i++) {
            int target = rowType.getFieldNames().indexOf(columns.get(i));
            // The new value, as the source project computed it over the table's row
            int produced = ((RexInputRef) modify.getSourceExpressionList().get(i)).getIndex();
            RexNode value = source.projects.get(produced);
            RelDataType columnType = types.createTypeWithNullability(rowType.getFieldList().get(target).getType(),
                    true);
            row.set(target, rex.makeCast(columnType, value, true, false));
        }
        return b.project(withFlag(b, row, true), List.of(), false, source.variables).build();
    }

    private static List<RexNode> identity(RelBuilder b) {
        return new ArrayList<>(b.fields());
    }

    private static List<RexNode> withFlag(RelBuilder b, List<RexNode> row, boolean changed) {
        List<RexNode> out = new ArrayList<>(row);
        out.add(b.literal(changed));
        return out;
    }

    /**
     * What Calcite made of the statement's source: {@code [Project(projects)] [Filter(condition)] Scan(table)}, the
     * project absent when it would only repeat the table's columns.
     */
    private record Source(TableScan scan, RexNode condition, List<RexNode> projects, Set<CorrelationId> variables) {
        static Source of(TableModify modify) {
            RelNode node = modify.getInput();
            List<RexNode> projects = null;
            // Correlated subqueries in the condition or the new values refer to the row by these
            Set<CorrelationId> variables = new HashSet<>();
            if (node instanceof LogicalProject p) {
                projects = p.getProjects();
                variables.addAll(p.getVariablesSet());
                node = p.getInput();
            }
            RexNode condition = modify.getCluster().getRexBuilder().makeLiteral(true);
            if (node instanceof LogicalFilter f) {
                condition = f.getCondition();
                variables.addAll(f.getVariablesSet());
                node = f.getInput();
            }
            if (!(node instanceof TableScan scan) || !sameTable(scan.getTable(), modify.getTable())) {
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "this form of " + modify.getOperation()
                        + " is not supported; write it as " + modify.getOperation() + " on one table with a WHERE "
                        + "clause (subqueries in it may read any table)");
            }
            if (projects == null) {
                projects = new ArrayList<>(modify.getCluster().getRexBuilder().identityProjects(scan.getRowType()));
            }
            return new Source(scan, condition, projects, variables);
        }

        private static boolean sameTable(RelOptTable a, RelOptTable b) {
            return a.getQualifiedName().equals(b.getQualifiedName());
        }
    }
}
