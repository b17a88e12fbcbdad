package io.ferry.sql.rel;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;

/**
 * A row-engine filter or join condition reads a NOT NULL CAST of a nullable value as a nullable CAST. SQL-to-rel turns
 * {@code COALESCE(a, b)} into {@code CASE WHEN a IS NOT NULL THEN CAST(a AS … NOT NULL) ELSE b END}, and Calcite's
 * simplifier, where UNKNOWN counts as FALSE (a WHERE or HAVING condition), drops the guard:
 * {@code COALESCE(MAX(ed), MIN(d)) > -1} became {@code CAST(MAX(ed) AS DOUBLE NOT NULL) > -1 OR (MAX(ed) IS NULL AND
 * MIN(d) > -1)}. Ferry's kernels give the CAST of a NULL as NULL, and the condition its right answer; the row
 * engine's generated code trusts the NOT NULL type and read the NULL as 0.0, so a group whose MAX was NULL passed
 * (fuzzer, seed 11, query 993). A row-engine join's condition likewise: {@code COALESCE(eb, 7) NOT IN (SELECT 0 …)}
 * joined on {@code CAST(eb AS BIGINT NOT NULL) = 0}, and a NULL {@code eb} matched 0 (fuzzer, seed 7). Projections
 * keep their guards, so only conditions are rewritten.
 */
public final class NullableCasts {
    public static final Program PROGRAM = BottomUp.program(NullableCasts::rewrite);

    private NullableCasts() {
    }

    static RelNode rewrite(RelNode rel) {
        RexBuilder rex = rel.getCluster().getRexBuilder();
        if (rel instanceof EnumerableCalc calc && calc.getProgram().getCondition() != null) {
            RexProgram program = calc.getProgram();
            RexNode condition = program.expandLocalRef(program.getCondition());
            RexNode rewritten = nullable(rex, condition);
            return rewritten.equals(condition) ? rel : EnumerableCalc.create(calc.getInput(), RexProgram.create(
                    calc.getInput().getRowType(), program.expandList(program.getProjectList()), rewritten,
                    calc.getRowType(), rex));
        }
        if (rel instanceof Join join && !(rel instanceof FerryRel)) {
            RexNode rewritten = nullable(rex, join.getCondition());
            return rewritten.equals(join.getCondition()) ? rel : join.copy(join.getTraitSet(), rewritten,
                    join.getLeft(), join.getRight(), join.getJoinType(), join.isSemiJoinDone());
        }
        return rel;
    }

    private static RexNode nullable(RexBuilder rex, RexNode condition) {
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                RexNode operand = visited.getOperands().isEmpty() ? null : visited.getOperands().get(0);
                if (visited.getKind() == SqlKind.CAST && !visited.getType().isNullable() && operand != null
                        && operand.getType().isNullable()) {
                    return rex.makeAbstractCast(rex.getTypeFactory().createTypeWithNullability(visited.getType(),
                            true), operand, false);
                }
                // a call over a CAST made nullable is typed anew: the generated code checks its operands for NULL
                // only where its own type is nullable
                return visited == call || visited.getKind() == SqlKind.CAST ? visited
                        : rex.makeCall(visited.getOperator(), visited.getOperands());
            }
        });
    }
}
