package io.ferry.sql.fun;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.util.SqlOperatorTables;

/** Ferry's own SQL functions, looked up after the standard ones. */
public final class FerryOperatorTable {
    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.of(operators());

    private FerryOperatorTable() {
    }

    private static List<SqlOperator> operators() {
        List<SqlOperator> out = new ArrayList<>(ApproxAggFunction.all());
        out.add(QuantileAggFunction.MEDIAN);
        out.addAll(ApproxPercentileFunction.all());
        // the parser builds TRY_CAST calls itself; the validator wants the operator in a table it consults
        out.add(SqlLibraryOperators.TRY_CAST);
        return out;
    }

    public static SqlOperatorTable instance() {
        return INSTANCE;
    }
}
