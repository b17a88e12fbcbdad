package io.ferry.sql.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import io.ferry.sql.SqlErrors;

/**
 * Wraps an embedded connection so that every error it raises carries the SQLSTATE and sentence a client of the JDBC
 * server would get ({@link SqlErrors}): Calcite's embedded driver gives none, and a program that embeds Ferry
 * deserves the same answer as one that connects to it. Statements and result sets are wrapped alike; {@code unwrap}
 * reaches the embedded objects.
 */
public final class SqlStateConnection {
    private SqlStateConnection() {
    }

    public static Connection wrap(Connection embedded) {
        Connection[] self = new Connection[1];
        self[0] = proxy(Connection.class, embedded, NO_CHECK, (method, result) -> {
            if (result instanceof CallableStatement s) {
                return statement(CallableStatement.class, s, self[0]);
            }
            if (result instanceof PreparedStatement s) {
                return statement(PreparedStatement.class, s, self[0]);
            }
            return result instanceof Statement s ? statement(Statement.class, s, self[0]) : result;
        });
        return self[0];
    }

    /**
     * A statement that is not prepared checks each text it runs first: an empty one or one with parameter markers
     * fails as over the JDBC server ({@link StatementText#checkPlain}).
     */
    private static <S extends Statement> S statement(Class<S> type, S embedded, Connection connection) {
        Object[] self = new Object[1];
        S wrapped = proxy(type, embedded, (method, args) -> {
            if (type == Statement.class && (method.getName().startsWith("execute")
                    || method.getName().equals("addBatch")) && args != null && args[0] instanceof String sql) {
                io.ferry.core.FerryException wrong = StatementText.checkPlain(sql);
                if (wrong != null) {
                    throw new SQLException(wrong.getMessage(), wrong.sqlState());
                }
            }
        }, (method, result) -> method.getName().equals("getConnection") ? connection
                : result instanceof ResultSet rs ? proxy(ResultSet.class, rs, NO_CHECK,
                        (m, r) -> m.getName().equals("getStatement") ? self[0] : r) : result);
        self[0] = wrapped;
        return wrapped;
    }

    /** What a wrapper checks before it delegates a call. */
    private interface Check {
        void apply(Method method, Object[] args) throws SQLException;
    }

    private static final Check NO_CHECK = (method, args) -> { };

    /** What a wrapper makes of a delegated call's result. */
    private interface Rewrite {
        Object apply(Method method, Object result) throws SQLException;
    }

    private static <T> T proxy(Class<T> type, T target, Check check, Rewrite rewrite) {
        InvocationHandler handler = (proxy, method, args) -> {
            check.apply(method, args);
            Object result = invoke(method, target, args);
            return method.getName().equals("unwrap") || method.getName().equals("isWrapperFor") ? result
                    : rewrite.apply(method, result);
        };
        return type.cast(Proxy.newProxyInstance(SqlStateConnection.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw translated(e.getCause(), method);
        }
    }

    /** An error as the client sees it: an SQLException with an SQLSTATE, unless the method cannot throw one. */
    private static Throwable translated(Throwable error, Method method) {
        if (error instanceof SQLException s && s.getSQLState() != null
                || error instanceof Error && !(error instanceof StackOverflowError)) {
            return error;
        }
        boolean throwsSql = java.util.Arrays.asList(method.getExceptionTypes()).contains(SQLException.class);
        if (!(error instanceof SQLException) && !throwsSql) {
            return error;
        }
        SqlErrors.Translated t = SqlErrors.translate(error);
        return new SQLException(t.message(), t.sqlState(), error);
    }
}
