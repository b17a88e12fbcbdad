package io.ferry.core;

/**
 * An error a user can act on: carries the SQLSTATE that JDBC reports (42xxx for statements that name unknown
 * things or do not type-check, 22xxx for bad data, 53xxx for exhausted resources) and a sentence that says what
 * was wrong and what to do.
 */
public class FerryException extends RuntimeException {
    private final String sqlState;

    public FerryException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public FerryException(String sqlState, String message, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    public String sqlState() {
        return sqlState;
    }

    public static FerryException divisionByZero() {
        return new FerryException(SqlStates.DIVISION_BY_ZERO, "division by zero: a divisor evaluated to 0; "
                + "guard it with NULLIF(divisor, 0) or a CASE expression");
    }

    public static FerryException overflow(String typeName) {
        String advice = typeName.startsWith("DECIMAL(38")
                ? "38 digits are the most a DECIMAL holds: cast the operands to DOUBLE to go further"
                : "cast the operands to a wider type (BIGINT, DOUBLE or DECIMAL, of up to 38 digits)";
        return new FerryException(SqlStates.NUMERIC_OUT_OF_RANGE, "numeric overflow: the result does not fit in "
                + typeName + "; " + advice);
    }
}
