package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Program;

import io.ferry.sql.rel.BottomUp;

/**
 * Rewrites two forms of {@code x IN (subquery)} before subquery removal, whose general plan (Calcite's
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
 * </ul>
 *
 * All three are plain SQL equivalences (three-valued logic included), so the later phases see an ordinary scalar
 * subquery or EXISTS. Subqueries nested in subqueries are rewritten too.
 */
public final class InSubQueries {
    public static final Program PROGRAM = (planner, rel, traits, materializations, lattices) -> rewrite(rel);

    private InSubQueries() {
    }

    static RelNode rewrite(RelNode rel) {
        return BottomUp.rewrite(rel, visited -> {
            return visited.accept(new Rewriter(visited.getCluster().getRexBuilder()));
        });
    }

    private static final class Rewriter extends RexShuttle {
        private final RexBuilder rex;

        Rewriter(RexBuilder rex) {
            this.rex = rex;
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
                return literalsIn(e);
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

        private RexNode literalsIn(RexSubQuery e) {
            List<RexNode> equal = new ArrayList<>();
            List<RexNode> equalOrNull = new ArrayList<>();
            for (int i = 0; i < e.getOperands().size(); i++) {
                RexNode column = rex.makeInputRef(e.rel, i);
                RexNode eq = rex.makeCall(SqlStdOperatorTable.EQUALS, column, e.getOperands().get(i));
                equal.add(eq);
                equalOrNull.add(column.getType().isNullable()
                        ? rex.makeCall(SqlStdOperatorTable.OR, eq, rex.makeCall(SqlStdOperatorTable.IS_NULL, column))
                        : eq);
            }
            RexNode found = RexSubQuery.exists(LogicalFilter.create(e.rel, RexUtil.composeConjunction(rex, equal)));
            if (!e.getType().isNullable()) {
                return found;
            }
            RexNode unknown = RexSubQuery.exists(
                    LogicalFilter.create(e.rel, RexUtil.composeConjunction(rex, equalOrNull)));
            return rex.makeCall(e.getType(), SqlStdOperatorTable.CASE, List.of(found,
                    rex.makeLiteral(true, e.getType()),
                    unknown, rex.makeNullLiteral(e.getType()), rex.makeLiteral(false, e.getType())));
        }
    }
}
