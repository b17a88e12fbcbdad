package io.ferry.sql.fun;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlOperatorTables;

/** Ferry's own SQL functions, looked up after the standard ones. */
public final class FerryOperatorTable {

    /**
     * Calcite's DAYNAME and MONTHNAME, typed nullable: Calcite types them NOT NULL, and a NULL date gave '' where
     * they run in Ferry's kernels. Operators are equal by class, name and kind, so Calcite's row engine still finds
     * its implementation for these copies.
     */
    public static final SqlOperator DAYNAME = ((SqlBasicFunction) SqlLibraryOperators.DAYNAME)
            .withReturnTypeInference(ReturnTypes.VARCHAR_2000_NULLABLE);
    public static final SqlOperator MONTHNAME = ((SqlBasicFunction) SqlLibraryOperators.MONTHNAME)
            .withReturnTypeInference(ReturnTypes.VARCHAR_2000_NULLABLE);

    private static final SqlOperatorTable INSTANCE = SqlOperatorTables.of(operators());

    private FerryOperatorTable() {
    }

    private static List<SqlOperator> operators() {
        List<SqlOperator> out = new ArrayList<>(ApproxAggFunction.all());
        out.add(QuantileAggFunction.MEDIAN);
        out.addAll(BivariateAggFunction.all());
        out.addAll(ApproxPercentileFunction.all());
        // the parser builds TRY_CAST calls itself; the validator wants the operator in a table it consults
        out.add(SqlLibraryOperators.TRY_CAST);
        // Single functions from Calcite's other libraries, where DuckDB and PostgreSQL users expect them and their
        // names mean nothing else in the standard and PostgreSQL libraries Ferry enables whole
        out.add(SqlLibraryOperators.IFNULL);
        out.add(SqlLibraryOperators.NVL);
        out.add(SqlLibraryOperators.TRUNC_BIG_QUERY);
        out.add(SqlLibraryOperators.REVERSE);
        out.add(SqlLibraryOperators.LOG2);
        out.add(SqlLibraryOperators.ENDS_WITH);
        out.add(SqlLibraryOperators.INSTR);
        out.addAll(RegexFunctions.all());
        // DuckDB's and MySQL's spellings of POWER and of the names of a date's weekday and month
        out.add(SqlLibraryOperators.POW);
        out.add(DAYNAME);
        out.add(MONTHNAME);
        out.addAll(StringFunctions.all());
        out.addAll(TableFunctions.all());
        return out;
    }

    public static SqlOperatorTable instance() {
        return INSTANCE;
    }
}
