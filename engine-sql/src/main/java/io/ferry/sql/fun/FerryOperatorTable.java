package io.ferry.sql.fun;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
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
        return out;
    }

    public static SqlOperatorTable instance() {
        return INSTANCE;
    }
}
