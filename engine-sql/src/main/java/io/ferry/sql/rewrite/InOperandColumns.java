package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;

import com.google.common.collect.ImmutableSet;

import io.ferry.sql.rel.BottomUp;

/**
 * The left side of a correlated {@code IN} that is an expression ({@code CASE WHEN f THEN 0 ELSE k END NOT IN
 * (SELECT i FROM t3 WHERE t3.k = a.k)}) becomes a column of the input first, so that the IN compares a column.
 * Subquery removal puts the IN's comparison into the subquery as a second correlated filter. Over a column it is an
 * equality the decorrelator reads the correlated value from; over an expression ({@code (f AND 0 = i) OR (k = i AND
 * f IS NOT TRUE)}) the decorrelator generates the outer rows' values for it and joins them to the subquery's rows
 * without equating them to the key the first filter ({@code t3.k = a.k}) already provides: every outer row met
 * every inner row, and the query answered several rows per row (fuzzer, seed 21, query 2740: 165 rows from a table
 * of 112). A correlated IN of several columns with nullable ones has the same shape, and is not rewritten here.
 *
 * <p>A program rather than a planner rule, for the reason {@link UncorrelatedCorrelates} gives.
 */
public final class InOperandColumns {
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) ->
            BottomUp.rewriteNested(rel, InOperandColumns::rewrite);

    private InOperandColumns() {
    }

    private static RelNode rewrite(RelNode rel) {
        if (rel instanceof LogicalProject project && !project.getVariablesSet().isEmpty()) {
            Columns columns = Columns.of(project.getInput(), project.getVariablesSet(), project.getProjects());
            if (columns == null) {
                return rel;
            }
            List<RexNode> projects = project.getProjects().stream().map(e -> e.accept(columns)).toList();
            return LogicalProject.create(columns.widened, project.getHints(), projects, project.getRowType(),
                    project.getVariablesSet());
        }
        if (rel instanceof LogicalFilter filter && !filter.getVariablesSet().isEmpty()) {
            Columns columns = Columns.of(filter.getInput(), filter.getVariablesSet(), List.of(filter.getCondition()));
            if (columns == null) {
                return rel;
            }
            RelNode filtered = LogicalFilter.create(columns.widened, filter.getCondition().accept(columns),
                    ImmutableSet.copyOf(filter.getVariablesSet()));
            List<Integer> fields = new ArrayList<>();
            for (int i = 0; i < filter.getRowType().getFieldCount(); i++) {
                fields.add(i);
            }
            return RelOptUtil.createProject(filtered, fields);
        }
        return rel;
    }

    /**
     * Replaces the expression operands of correlated IN subqueries by columns appended to the input
     * ({@link #widened}), and retypes the subqueries' correlation variables to the widened rows.
     */
    private static final class Columns extends RexShuttle {
        private final Set<CorrelationId> variables;
        private final Map<RexNode, Integer> columns;
        private final RelNode widened;

        private Columns(Set<CorrelationId> variables, Map<RexNode, Integer> columns, RelNode widened) {
            this.variables = variables;
            this.columns = columns;
            this.widened = widened;
        }

        /** The columns the expressions need, or null where they need none. */
        static Columns of(RelNode input, Set<CorrelationId> variables, List<RexNode> expressions) {
            Map<RexNode, Integer> columns = new LinkedHashMap<>();
            RexShuttle collect = new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                    if (rewritten(subQuery, variables)) {
                        for (RexNode operand : subQuery.getOperands()) {
                            if (!plain(operand)) {
                                columns.putIfAbsent(operand, input.getRowType().getFieldCount() + columns.size());
                            }
                        }
                    }
                    return subQuery;
                }
            };
            expressions.forEach(e -> e.accept(collect));
            if (columns.isEmpty()) {
                return null;
            }
            RexBuilder rex = input.getCluster().getRexBuilder();
            List<RexNode> projects = new ArrayList<>(rex.identityProjects(input.getRowType()));
            projects.addAll(columns.keySet());
            RelNode widened = LogicalProject.create(input, List.of(), projects, (List<String>) null, Set.of());
            return new Columns(variables, columns, widened);
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            if (!rewritten(subQuery, variables)) {
                return subQuery;
            }
            List<RexNode> operands = new ArrayList<>();
            for (RexNode operand : subQuery.getOperands()) {
                operands.add(plain(operand) ? operand : new RexInputRef(columns.get(operand), operand.getType()));
            }
            return subQuery.clone(subQuery.getType(), operands).clone(retyped(subQuery.rel));
        }

        /** The subquery with its reads of {@link #variables} made through variables of the widened row type. */
        private RelNode retyped(RelNode rel) {
            RexBuilder rex = widened.getCluster().getRexBuilder();
            RelDataType type = widened.getRowType();
            RexShuttle reads = new RexShuttle() {
                @Override
                public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (access.getReferenceExpr() instanceof RexCorrelVariable v && variables.contains(v.id)) {
                        return rex.makeFieldAccess(rex.makeCorrel(type, v.id), access.getField().getIndex());
                    }
                    return super.visitFieldAccess(access);
                }

                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                    RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                    return visited.clone(retyped(visited.rel));
                }
            };
            return rel.accept(new RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    return super.visit(other).accept(reads);
                }
            });
        }
    }

    private static boolean rewritten(RexSubQuery subQuery, Set<CorrelationId> variables) {
        return (subQuery.getKind() == SqlKind.IN || subQuery.getKind() == SqlKind.SOME)
                && !subQuery.getOperands().stream().allMatch(InOperandColumns::plain)
                && RelOptUtil.getVariablesUsed(subQuery.rel).stream().anyMatch(variables::contains);
    }

    private static boolean plain(RexNode operand) {
        return operand instanceof RexInputRef || operand instanceof RexLiteral;
    }
}
