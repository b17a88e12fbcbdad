package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Program;

import com.google.common.collect.ImmutableSet;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.rel.BottomUp;

/**
 * Rewrites forms of {@code x IN (subquery)} before subquery removal, whose general plan (Calcite's
 * SubQueryRemoveRule followed by decorrelation) answers FALSE where SQL says NULL:
 *
 * <ul>
 * <li>a subquery with exactly one row, such as {@code SELECT MIN(d) FROM t WHERE t.g = a.g}: {@code x IN (S)} is
 * {@code x = (S)}. The general plan counts the subquery's rows and NULLs; once correlated, the count of a
 * correlation value without rows came out 0, and a NULL minimum then read as "no match" instead of NULL.</li>
 * <li>a NULL literal, {@code NULL IN (S)}: NULL when S has rows, FALSE when it is empty, i.e.
 * {@code CASE WHEN EXISTS (S) THEN NULL ELSE FALSE END}. The general plan for literal operands drops the
 * emptiness check when S is correlated, so {@code NULL NOT IN (S)} was NULL for an empty S, where it is TRUE.</li>
 * <li>literal operands (casts of literals too), {@code -100 IN (S)}: TRUE when S has the row, else NULL when S has
 * a row that matches but for its NULLs, else FALSE, i.e. {@code CASE WHEN EXISTS (S where c = -100) THEN TRUE WHEN
 * EXISTS (S where c = -100 OR c IS NULL) THEN NULL ELSE FALSE END}. Calcite's own plan for literal operands, where the
 * IN's UNKNOWN may be read as FALSE (under IS TRUE or IS NOT TRUE), read an S holding only NULLs as a match: {@code
 * (-100 IN (S)) IS NOT TRUE} was FALSE.</li>
 *
 * <li>several operands that are not all literals, {@code (a.k + 1, a.g) IN (SELECT b.nn, b.g FROM sb b)}, in a
 * SELECT list or WHERE clause: the same two EXISTS, the operands read through a correlation. Calcite's plan for them
 * joined the subquery's rows to the outer values on part of the comparison only, and returned 454 rows for a 400-row
 * table (572 over a correlated subquery). Over a correlated subquery the comparison joins the subquery's own
 * filter; where that filter is below an aggregate or a join the statement is refused (0A000).</li>
 * </ul>
 *
 * All are plain SQL equivalences (three-valued logic included), so the later phases see an ordinary scalar
 * subquery or EXISTS. Subqueries nested in subqueries are rewritten too.
 */
public final class InSubQueries {
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) -> rewrite(rel);

    private InSubQueries() {
    }

    static RelNode rewrite(RelNode rel) {
        return BottomUp.rewrite(rel, visited -> {
            Rewriter rewriter = new Rewriter(visited);
            RelNode out = visited.accept(rewriter);
            return rewriter.correlation == null ? out : correlated(out, rewriter.correlation);
        });
    }

    /** {@code node} declaring {@code id}, the correlation its rewritten subqueries read its input's row through. */
    private static RelNode correlated(RelNode node, CorrelationId id) {
        Set<CorrelationId> variables = new HashSet<>(node.getVariablesSet());
        variables.add(id);
        if (node instanceof LogicalProject project) {
            return LogicalProject.create(project.getInput(), project.getHints(), project.getProjects(),
                    project.getRowType().getFieldNames(), variables);
        }
        LogicalFilter filter = (LogicalFilter) node;
        return LogicalFilter.create(filter.getInput(), filter.getCondition(), ImmutableSet.copyOf(variables));
    }

    private static final class Rewriter extends RexShuttle {
        private final RexBuilder rex;
        /** The node whose expressions are rewritten, if a subquery in it may read its input's row. */
        private final RelNode correlatable;
        /** The correlation a rewritten subquery reads the input's row through, once one does. */
        private CorrelationId correlation;

        Rewriter(RelNode node) {
            this.rex = node.getCluster().getRexBuilder();
            // a subquery reads one correlation: the node's own, if it has one already
            this.correlatable = (node instanceof LogicalProject || node instanceof LogicalFilter)
                    && node.getVariablesSet().size() <= 1 ? node : null;
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
            RelNode inner = rewrite(visited.rel);
            RexSubQuery e = inner == visited.rel ? visited : visited.clone(inner);
            if (e.getKind() != SqlKind.IN) {
                return e;
            }
            if (RexUtil.allLiterals(e.getOperands())
                    && e.getOperands().stream().noneMatch(k -> RexUtil.isNullLiteral(k, true))) {
                return rowIn(e, UnaryOperator.identity());
            }
            if (e.getOperands().size() > 1 && correlatable != null
                    && RexUtil.SubQueryFinder.find(e.getOperands()) == null) {
                return rowIn(e, this::correlate);
            }
            if (e.getOperands().size() != 1) {
                return e;
            }
            RexNode key = e.getOperands().get(0);
            if (RexUtil.isNullLiteral(key, true)) {
                return rex.makeCall(e.getType(), SqlStdOperatorTable.CASE, List.of(RexSubQuery.exists(e.rel),
                        rex.makeNullLiteral(e.getType()), rex.makeLiteral(false, e.getType())));
            }
            RelMetadataQuery mq = e.rel.getCluster().getMetadataQuery();
            Double min = mq.getMinRowCount(e.rel);
            Double max = mq.getMaxRowCount(e.rel);
            if (min != null && min >= 1 && max != null && max <= 1) {
                RexNode equal = rex.makeCall(SqlStdOperatorTable.EQUALS, key, RexSubQuery.scalar(e.rel));
                return rex.makeCast(e.getType(), equal, true, false);
            }
            return e;
        }

        /**
         * {@code (x1, …) IN (S)} as two EXISTS over S filtered by the comparison: TRUE if a row equals, else NULL if a
         * row is equal but for NULLs (on either side), else FALSE. {@code inside} gives an operand as S's filter reads
         * it: a literal as itself, a column of this node's input through the correlation.
         */
        private RexNode rowIn(RexSubQuery e, UnaryOperator<RexNode> inside) {
            List<RexNode> equal = new ArrayList<>();
            List<RexNode> equalOrNull = new ArrayList<>();
            for (int i = 0; i < e.getOperands().size(); i++) {
                RexNode column = rex.makeInputRef(e.rel, i);
                RexNode operand = inside.apply(e.getOperands().get(i));
                RexNode eq = rex.makeCall(SqlStdOperatorTable.EQUALS, column, operand);
                equal.add(eq);
                List<RexNode> either = new ArrayList<>(List.of(eq));
                if (column.getType().isNullable()) {
                    either.add(rex.makeCall(SqlStdOperatorTable.IS_NULL, column));
                }
                if (operand.getType().isNullable() && !(operand instanceof RexLiteral)) {
                    either.add(rex.makeCall(SqlStdOperatorTable.IS_NULL, operand));
                }
                equalOrNull.add(RexUtil.composeDisjunction(rex, either));
            }
            RexNode found = RexSubQuery.exists(filtered(e.rel, RexUtil.composeConjunction(rex, equal)));
            if (!e.getType().isNullable()) {
                return found;
            }
            RexNode unknown = RexSubQuery.exists(filtered(e.rel, RexUtil.composeConjunction(rex, equalOrNull)));
            return rex.makeCall(e.getType(), SqlStdOperatorTable.CASE, List.of(found,
                    rex.makeLiteral(true, e.getType()),
                    unknown, rex.makeNullLiteral(e.getType()), rex.makeLiteral(false, e.getType())));
        }

        /**
         * {@code rel} filtered by {@code condition}, merged into the filter below rel's projections, if any. Over a
         * correlated S, Calcite's decorrelator keeps only one of two stacked filters' equalities on the same
         * correlated column ({@code b.k = a.k} in S, {@code b.nn = a.k OR a.k IS NULL} here): a NULL a.k then found
         * S's rows of every b.k. Where S's correlation sits below what the condition cannot pass (an aggregate, a
         * join), the statement is refused rather than answered wrong; DuckDB refuses every such IN. A comparison of
         * literals reads no outer row and stays above what it cannot pass: {@code 12.345 IN (SELECT SUM(b.p) … WHERE
         * b.k = a.k)} was refused (fuzzer, seed 53 query 348).
         */
        private static RelNode filtered(RelNode rel, RexNode condition) {
            if (rel instanceof LogicalProject project && !RexOver.containsOver(project.getProjects(), null)
                    && project.getProjects().stream().allMatch(RexUtil::isDeterministic)) {
                // a NULL column of S makes its comparison NULL: folded, since Calcite's metadata refuses a
                // predicate that compares with NULL (SubQueryRemoveRule's DISTINCT over the EXISTS failed with
                // "Comparison with NULL in pulledUpPredicates": fuzzer, seed 50 query 692)
                RexNode pushed = NullCalls.folded(RelOptUtil.pushPastProject(condition, project),
                        project.getCluster().getRexBuilder());
                return project.copy(project.getTraitSet(), filtered(project.getInput(), pushed),
                        project.getProjects(), project.getRowType());
            }
            RelNode below = rel instanceof LogicalFilter filter ? filter.getInput() : rel;
            if (!RelOptUtil.getVariablesUsed(below).isEmpty()) {
                if (!RexUtil.containsCorrelation(condition)) {
                    return LogicalFilter.create(rel, condition);
                }
                throw new FerryException(SqlStates.FEATURE_NOT_SUPPORTED, "an IN of several columns over a correlated "
                        + "subquery with an aggregate, a join or a set operation is not supported yet: write it as "
                        + "EXISTS (SELECT … WHERE <its conditions> AND b.x = a.x AND b.y = a.y)");
            }
            if (rel instanceof LogicalFilter filter) {
                return filter.copy(filter.getTraitSet(), filter.getInput(),
                        RexUtil.composeConjunction(filter.getCluster().getRexBuilder(),
                                List.of(filter.getCondition(), condition)));
            }
            return LogicalFilter.create(rel, condition);
        }

        /** An expression over this node's input as a subquery reads it: each input column through the correlation. */
        private RexNode correlate(RexNode operand) {
            if (correlation == null) {
                correlation = correlatable.getVariablesSet().isEmpty() ? correlatable.getCluster().createCorrel()
                        : correlatable.getVariablesSet().iterator().next();
            }
            RexNode row = rex.makeCorrel(correlatable.getInput(0).getRowType(), correlation);
            return operand.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return rex.makeFieldAccess(row, ref.getIndex());
                }
            });
        }
    }
}
