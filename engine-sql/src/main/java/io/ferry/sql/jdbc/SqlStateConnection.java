package io.ferry.sql.jdbc;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

import io.ferry.core.FerryException;
import io.ferry.sql.SqlErrors;

/**
 * Wraps an embedded connection so that every error it raises carries the SQLSTATE and sentence a client of the JDBC
 * server would get ({@link SqlErrors}): Calcite's embedded driver gives none, and a program that embeds Ferry
 * deserves the same answer as one that connects to it. A statement that is not prepared checks each text it runs
 * first: an empty one or one with parameter markers fails as over the JDBC server ({@link StatementText#checkPlain}).
 */
public final class SqlStateConnection {
    private SqlStateConnection() {
    }

    public static Connection wrap(Connection embedded) {
        return ConnectionWrapper.wrap(embedded, SqlStateConnection::checkPlain, ConnectionWrapper.NO_REWRITE,
                SqlStateConnection::translated);
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
