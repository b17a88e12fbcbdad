package io.ferry.sql.rewrite;

import java.math.BigDecimal;
import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code a < b}, {@code <=}, {@code >}, {@code >=} (and so BETWEEN) over BOOLEAN operands compared as the integers
 * 0 and 1 (NULL staying NULL): {@code CASE WHEN a THEN 1 WHEN NOT a THEN 0 END}.
 *
 * <p>Calcite's simplifier reduces an ordering comparison of booleans to a range over the operand, and simplifies
 * the operand as though a NULL were FALSE: {@code (p BETWEEN 12 AND 3) BETWEEN FALSE AND TRUE}, NULL for a NULL p,
 * became TRUE for every row. A CASE keeps the operand's NULL, and its conditions may treat NULL as FALSE.
 */
public final class BooleanOrderings extends RexShuttle {
    private final RexBuilder rex;

    public BooleanOrderings(RexBuilder rex) {
        this.rex = rex;
    }

    /** Whether {@code node} holds an ordering comparison of booleans, the only calls this shuttle changes. */
    public static boolean applies(RexNode node) {
        return node instanceof RexCall call && (SqlKind.BINARY_COMPARISON.contains(call.getKind())
                && call.getKind() != SqlKind.EQUALS && call.getKind() != SqlKind.NOT_EQUALS
                && call.getOperands().size() == 2 && call.getOperands().stream().allMatch(BooleanOrderings::isBoolean)
                || call.getOperands().stream().anyMatch(BooleanOrderings::applies));
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexCall visited = (RexCall) super.visitCall(call);
        switch (visited.getKind()) {
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                if (visited.getOperands().stream().allMatch(BooleanOrderings::isBoolean)) {
                    return rex.makeCall(visited.getOperator(),
                            visited.getOperands().stream().map(this::asInteger).toList());
                }
                return visited;
            }
            default -> {
                return visited;
            }
        }
    }

    private static boolean isBoolean(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.BOOLEAN;
    }

    private RexNode asInteger(RexNode bool) {
        // literals NOT NULL, as Calcite's own: its row engine's code for a nullable-typed literal does not compile
        RelDataType integer = rex.getTypeFactory().createSqlType(SqlTypeName.INTEGER);
        if (bool instanceof RexLiteral literal && !literal.isNull()) {
            return rex.makeExactLiteral(BigDecimal.valueOf(literal.isAlwaysTrue() ? 1 : 0), integer);
        }
        if (!bool.getType().isNullable()) {
            return rex.makeCall(integer, SqlStdOperatorTable.CASE, List.of(bool,
                    rex.makeExactLiteral(BigDecimal.ONE, integer), rex.makeExactLiteral(BigDecimal.ZERO, integer)));
        }
        RelDataType nullable = rex.getTypeFactory().createTypeWithNullability(integer, true);
        return rex.makeCall(nullable, SqlStdOperatorTable.CASE, List.of(bool,
                rex.makeExactLiteral(BigDecimal.ONE, integer),
                rex.makeCall(SqlStdOperatorTable.NOT, bool), rex.makeExactLiteral(BigDecimal.ZERO, integer),
                rex.makeNullLiteral(nullable)));
    }
}
