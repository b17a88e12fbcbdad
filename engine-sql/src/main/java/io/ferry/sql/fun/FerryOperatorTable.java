package io.ferry.sql.fun;

import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;

/** Ferry's own SQL functions, looked up after the standard ones. */
public final class FerryOperatorTable {
    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.of(ApproxAggFunction.all());

    private FerryOperatorTable() {
    }

    public static SqlOperatorTable instance() {
        return INSTANCE;
    }
}
