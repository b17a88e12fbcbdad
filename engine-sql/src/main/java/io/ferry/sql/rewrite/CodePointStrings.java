package io.ferry.sql.rewrite;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;

import io.ferry.sql.fun.CodePointFunctions;
import io.ferry.sql.rel.BottomUp;

/**
 * Puts {@link CodePointFunctions} in place of Calcite's CHAR_LENGTH, SUBSTRING and POSITION (see there why) in every
 * projection, filter and join. A program rather than a heuristic planner's rule: the planner keeps a node it finds
 * equal to the rule's result, and a window compares by its text ({@code RexWindow}'s digest), in which both
 * CHAR_LENGTHs read alike, so {@code DENSE_RANK() OVER (ORDER BY CHAR_LENGTH(s))} kept Calcite's, which counts UTF-16
 * units ('🦆' is 2), and ranked differently from a CHAR_LENGTH in the select list.
 */
public final class CodePointStrings {
    public static final Program PROGRAM = BottomUp.program(visited ->
            visited instanceof LogicalProject || visited instanceof LogicalFilter || visited instanceof LogicalJoin
                    ? visited.accept(new Replacer(visited.getCluster().getRexBuilder())) : visited);

    private CodePointStrings() {
    }

    private static final class Replacer extends ChangeShuttle {
        Replacer(RexBuilder rex) {
            super(rex);
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            SqlOperator op = visited.getOperator();
            List<RexNode> args = visited.getOperands();
            SqlOperator replacement = null;
            if (op.getKind() == SqlKind.CHAR_LENGTH || op == SqlStdOperatorTable.CHARACTER_LENGTH) {
                replacement = CodePointFunctions.CHAR_LENGTH;
            } else if (op == SqlStdOperatorTable.SUBSTRING) {
                replacement = args.size() == 3 ? CodePointFunctions.SUBSTRING : CodePointFunctions.SUBSTRING_FROM;
            } else if (op == SqlStdOperatorTable.POSITION && args.size() == 2) {
                replacement = CodePointFunctions.POSITION;
            }
            if (replacement == null) {
                return visited;
            }
            changed = true;
            List<RexNode> typed = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                RexNode a = args.get(i);
                boolean integer = replacement != CodePointFunctions.POSITION && i > 0;
                typed.add(integer && a.getType().getSqlTypeName() != SqlTypeName.INTEGER
                        ? rex.makeCast(rex.getTypeFactory().createTypeWithNullability(
                                rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER), a.getType().isNullable()), a)
                        : a);
            }
            return rex.makeCall(visited.getType(), replacement, typed);
        }
    }
}
