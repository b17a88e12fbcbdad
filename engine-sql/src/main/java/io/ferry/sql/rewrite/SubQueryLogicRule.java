package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Puts a call that compares or computes with an IN, EXISTS or SOME subquery ({@code (x IN (S)) = FALSE}) under a
 * {@code CASE WHEN TRUE THEN call END} just before Calcite's subquery removal looks at it.
 *
 * <p>Subquery removal asks {@code LogicVisitor} which answers of the subquery matter, to plan a cheaper join where
 * NULL and FALSE need not be told apart. That visitor passes what it knows through every call it does not name, as
 * if each were AND: under {@code NOT}, {@code IS TRUE} or {@code IS FALSE}, the IN in {@code NOT ((x IN (S)) =
 * FALSE)} (the SQL {@code (x IN (S)) NOT IN (FALSE)}) was planned as if its NULL could be read as TRUE, and the query
 * kept the rows where the IN is NULL (fuzzer, seed 42 query 13301: every row). Under a CASE the visitor asks for
 * every answer, TRUE, FALSE and NULL, which is what a call over the subquery needs. The CASE changes no value, and
 * the simplification that follows each removal drops it.
 *
 * <p>The rule runs in the same heuristic program as the removal rules ({@link #SUB_QUERY_REMOVAL}), first, since
 * removing one subquery simplifies the rest of its expression and can take the CASE off another one.
 */
public final class SubQueryLogicRule extends RelOptRule {
    public static final SubQueryLogicRule INSTANCE = new SubQueryLogicRule();

    /** Calcite's subquery removal (as {@code Programs.subQuery}), with this rule before its rules. */
    public static final Program SUB_QUERY_REMOVAL = Programs.of(HepProgram.builder()
            .addRuleCollection(List.of(INSTANCE, CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
                    CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE,
                    CoreRules.PROJECT_OVER_SUM_TO_SUM0_RULE))
            .build(), true, DefaultRelMetadataProvider.INSTANCE);

    /** Subqueries whose removal depends on which of their answers matter. */
    private static final Set<SqlKind> LOGICAL = EnumSet.of(SqlKind.IN, SqlKind.SOME, SqlKind.EXISTS, SqlKind.UNIQUE);

    /** Calls through which the visitor's reasoning holds (AND, OR, NOT, IS …), or which ask for every answer. */
    private static final Set<SqlKind> CONNECTIVES = EnumSet.of(SqlKind.AND, SqlKind.OR, SqlKind.NOT, SqlKind.IS_TRUE,
            SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_FALSE);
    private static final Set<SqlKind> EVERY_ANSWER = EnumSet.of(SqlKind.CASE, SqlKind.IS_NULL, SqlKind.IS_NOT_NULL);

    private SubQueryLogicRule() {
        super(operand(RelNode.class, any()), "SubQueryLogicRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        RelNode rel = call.rel(0);
        if (!(rel instanceof LogicalFilter || rel instanceof LogicalProject || rel instanceof LogicalJoin)) {
            return;
        }
        RexBuilder rex = rel.getCluster().getRexBuilder();
        RelNode guarded = rel.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall e) {
                return guarded(e, rex);
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                return subQuery;
            }
        });
        if (guarded != rel) {
            call.transformTo(guarded);
        }
    }

    /** {@code e} with the outermost calls over a subquery that are no connective under a CASE. */
    static RexNode guarded(RexNode e, RexBuilder rex) {
        if (!(e instanceof RexCall call) || e instanceof RexSubQuery || EVERY_ANSWER.contains(e.getKind())) {
            return e;
        }
        if (CONNECTIVES.contains(e.getKind())) {
            List<RexNode> operands = new ArrayList<>();
            boolean changed = false;
            for (RexNode operand : call.getOperands()) {
                RexNode g = guarded(operand, rex);
                operands.add(g);
                changed |= g != operand;
            }
            return changed ? call.clone(call.getType(), operands) : e;
        }
        if (!overLogicalSubQuery(e)) {
            return e;
        }
        return rex.makeCall(e.getType(), SqlStdOperatorTable.CASE,
                List.of(rex.makeLiteral(true), e, rex.makeNullLiteral(e.getType())));
    }

    private static boolean overLogicalSubQuery(RexNode e) {
        if (e instanceof RexSubQuery q && LOGICAL.contains(q.getKind())) {
            return true;
        }
        return e instanceof RexCall call
                && call.getOperands().stream().anyMatch(SubQueryLogicRule::overLogicalSubQuery);
    }
}
