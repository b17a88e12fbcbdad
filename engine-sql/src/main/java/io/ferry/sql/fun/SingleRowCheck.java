package io.ferry.sql.fun;

import java.util.List;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

import io.ferry.core.expr.Op;
import io.ferry.core.expr.SingleRows;

/**
 * {@code FERRY_SINGLE_ROW(rows, value)}: the value of a scalar subquery that gave {@code rows} rows, or 21000 where
 * it gave more than one. Planning writes it for Calcite's SINGLE_VALUE aggregate ({@code ProjectedAggCallsRule}); it
 * is not in the SQL users write. Ferry's kernel is {@link Op#SINGLE_ROW}; {@link #check} serves Calcite's row engine.
 */
public final class SingleRowCheck {
    public static final SqlFunction FUNCTION = new SqlUserDefinedFunction(
            new SqlIdentifier("FERRY_SINGLE_ROW", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION, ReturnTypes.ARG1,
            InferTypes.FIRST_KNOWN, OperandTypes.operandMetadata(List.of(SqlTypeFamily.NUMERIC, SqlTypeFamily.ANY),
                    types -> List.of(), i -> "arg" + i, i -> false),
            ScalarFunctionImpl.create(SingleRowCheck.class, "check"));

    private SingleRowCheck() {
    }

    public static Object check(long rows, Object value) {
        if (rows > 1) {
            throw SingleRows.fail(rows);
        }
        return value;
    }
}
