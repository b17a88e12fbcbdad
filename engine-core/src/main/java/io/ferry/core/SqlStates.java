package io.ferry.core;

/** The SQLSTATE codes Ferry reports (SQL standard classes; subclasses as PostgreSQL uses them). */
public final class SqlStates {
    public static final String SYNTAX_ERROR = "42601";
    public static final String UNDEFINED_TABLE = "42P01";
    public static final String UNDEFINED_COLUMN = "42703";
    public static final String AMBIGUOUS_COLUMN = "42702";
    public static final String UNDEFINED_FUNCTION = "42883";
    public static final String DUPLICATE_TABLE = "42P07";
    public static final String DATATYPE_MISMATCH = "42804";
    public static final String SYNTAX_OR_ACCESS_RULE = "42000";
    public static final String DIVISION_BY_ZERO = "22012";
    /** More than one row where SQL expects at most one (a scalar subquery). */
    public static final String CARDINALITY_VIOLATION = "21000";
    public static final String NUMERIC_OUT_OF_RANGE = "22003";
    public static final String INVALID_CHARACTER_VALUE_FOR_CAST = "22018";
    public static final String STRING_DATA_RIGHT_TRUNCATION = "22001";
    public static final String INVALID_DATETIME_FORMAT = "22007";
    public static final String NOT_NULL_VIOLATION = "23502";
    public static final String UNIQUE_VIOLATION = "23505";
    public static final String LOCK_NOT_AVAILABLE = "55P03";
    public static final String DEPENDENT_OBJECTS_STILL_EXIST = "2BP01";
    public static final String INVALID_TABLE_DEFINITION = "42P16";
    public static final String BAD_COPY_FILE_FORMAT = "22P04";
    public static final String INVALID_PARAMETER_VALUE = "22023";
    public static final String DATA_EXCEPTION = "22000";
    public static final String OUT_OF_MEMORY = "53200";
    public static final String INSUFFICIENT_RESOURCES = "53000";
    public static final String STATEMENT_TOO_COMPLEX = "54001";
    public static final String PROGRAM_LIMIT_EXCEEDED = "54000";
    public static final String INVALID_REGULAR_EXPRESSION = "2201B";
    public static final String QUERY_CANCELED = "57014";
    /** A peer could not be reached or went away (class 08, connection exception). */
    public static final String CONNECTION_FAILURE = "08006";
    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String UNABLE_TO_CONNECT = "08001";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String INVALID_TRANSACTION_TERMINATION = "2D000";
    public static final String UNDEFINED_OBJECT = "42704";
    public static final String INTERNAL_ERROR = "XX000";
    public static final String DUPLICATE_COLUMN = "42701";
    /** A GROUP BY or ORDER BY position past the select list, as PostgreSQL reports it. */
    public static final String INVALID_COLUMN_REFERENCE = "42P10";
    public static final String INVALID_SCHEMA_NAME = "3F000";
    public static final String WRONG_NUMBER_OF_PARAMETERS = "07001";
    public static final String DATETIME_FIELD_OVERFLOW = "22008";
    /** A wrong user name or password (invalid_password, as PostgreSQL reports a failed password login). */
    public static final String INVALID_PASSWORD = "28P01";
    /** No credentials where the server requires them, or a user that no longer exists. */
    public static final String INVALID_AUTHORIZATION = "28000";
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    public static final String DUPLICATE_OBJECT = "42710";
    /** A file the server keeps could not be written (io_error). */
    public static final String IO_ERROR = "58030";
    /** Another process holds what this one needs (PostgreSQL's object_in_use). */
    public static final String OBJECT_IN_USE = "55006";
    /** A stored file is damaged (PostgreSQL's data_corrupted). */
    public static final String DATA_CORRUPTED = "XX001";
    /** No room left on the disk a query spills to (disk_full). */
    public static final String DISK_FULL = "53100";

    private SqlStates() {
    }
}
