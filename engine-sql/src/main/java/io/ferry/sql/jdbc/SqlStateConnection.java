package io.ferry.sql.jdbc;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Arrays;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.SqlErrors;

/**
 * Wraps an embedded connection so that every error it raises carries the SQLSTATE and sentence a client of the JDBC
 * server would get ({@link SqlErrors}): Calcite's embedded driver gives none, and a program that embeds Ferry
 * deserves the same answer as one that connects to it. A statement that is not prepared checks each text it runs
 * first: an empty one or one with parameter markers fails as over the JDBC server ({@link StatementText#checkPlain}).
 * The connection is in auto-commit mode for good ({@link #AUTO_COMMIT_ONLY}).
 */
public final class SqlStateConnection {
    private SqlStateConnection() {
    }

    public static Connection wrap(Connection embedded) {
        return ConnectionWrapper.wrap(embedded, AUTO_COMMIT_ONLY, SqlStateConnection::checkPlain,
                ConnectionWrapper.NO_REWRITE, SqlStateConnection::translated);
    }

    /**
     * Ferry's transactions as JDBC sees them: every statement is atomic and committed when it finishes, so the
     * connection is always in auto-commit mode. Calcite's connection reported auto-commit off and failed commit and
     * rollback with an UnsupportedOperationException (XX000); now auto-commit is on, turning it off is not supported
     * (0A000, rather than statements a client believes it can roll back), and commit, rollback and savepoints fail
     * as the JDBC specification says they do in auto-commit mode (2D000).
     */
    public static final ConnectionWrapper.Answer AUTO_COMMIT_ONLY = SqlStateConnection::autoCommitOnly;

    private static Object autoCommitOnly(Method method, Object[] args) throws SQLException {
        switch (method.getName()) {
            case "getAutoCommit":
                return true;
            case "setAutoCommit":
                if (!(Boolean) args[0]) {
                    throw new SQLFeatureNotSupportedException("Ferry has no multi-statement transactions: every "
                            + "statement is atomic and committed when it finishes. Keep auto-commit on.",
                            SqlStates.FEATURE_NOT_SUPPORTED);
                }
                return null;
            case "commit", "rollback", "setSavepoint", "releaseSavepoint":
                throw new SQLException("the connection is in auto-commit mode: each statement was committed when it "
                        + "finished, so there is no transaction to " + switch (method.getName()) {
                            case "commit" -> "commit";
                            case "rollback" -> "roll back";
                            default -> "mark a savepoint in";
                        } + ".", SqlStates.INVALID_TRANSACTION_TERMINATION);
            default:
                return ConnectionWrapper.DELEGATE;
        }
    }

    private static void checkPlain(Class<? extends Statement> type, Method method, Object[] args)
            throws SQLException {
        if (type == Statement.class && (method.getName().startsWith("execute")
                || method.getName().equals("addBatch")) && args != null && args[0] instanceof String sql) {
            FerryException wrong = StatementText.checkPlain(sql);
            if (wrong != null) {
                throw new SQLException(wrong.getMessage(), wrong.sqlState());
            }
        }
    }

    /** An error as the client sees it: an SQLException with an SQLSTATE, unless the method cannot throw one. */
    private static Throwable translated(Throwable error, Method method) {
        if (error instanceof SQLException s && s.getSQLState() != null
                || error instanceof Error && !(error instanceof StackOverflowError)) {
            return error;
        }
        boolean throwsSql = Arrays.asList(method.getExceptionTypes()).contains(SQLException.class);
        if (!(error instanceof SQLException) && !throwsSql) {
            return error;
        }
        SqlErrors.Translated t = SqlErrors.translate(error);
        return new SQLException(t.message(), t.sqlState(), error);
    }
}
