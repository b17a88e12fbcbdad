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

/**
 * Wraps a JDBC connection, its statements and their result sets in proxies that delegate every call, with four
 * hooks: calls the connection answers itself, a check before a statement's call, a rewrite of a result set's values,
 * and a mapping of the errors any call raises. Wrapped objects report their wrapped owners ({@code getConnection}, {@code getStatement}); {@code unwrap}
 * and {@code isWrapperFor} reach the objects inside.
 */
public final class ConnectionWrapper {
    /** Runs before a statement's method, with its arguments. */
    @FunctionalInterface
    public interface Check {
        void apply(Class<? extends Statement> type, Method method, Object[] args) throws SQLException;
    }

    /** What a result set's method returns instead of {@code result}. */
    @FunctionalInterface
    public interface Rewrite {
        Object apply(Method method, Object result) throws SQLException;
    }

    /** The answer to a connection's call, or {@link #DELEGATE} to let the wrapped connection answer it. */
    @FunctionalInterface
    public interface Answer {
        Object apply(Method method, Object[] args) throws SQLException;
    }

    /** What an {@link Answer} returns for the calls it leaves to the wrapped connection. */
    public static final Object DELEGATE = new Object();

    /** The error a call raises instead of {@code error}, which the wrapped object raised. */
    @FunctionalInterface
    public interface Errors {
        Throwable map(Throwable error, Method method);
    }

    public static final Answer NO_ANSWER = (method, args) -> DELEGATE;
    public static final Check NO_CHECK = (type, method, args) -> { };
    public static final Rewrite NO_REWRITE = (method, result) -> result;
    public static final Errors SAME_ERRORS = (error, method) -> error;

    private final Answer answer;
    private final Check check;
    private final Rewrite rewrite;
    private final Errors errors;

    private ConnectionWrapper(Answer answer, Check check, Rewrite rewrite, Errors errors) {
        this.answer = answer;
        this.check = check;
        this.rewrite = rewrite;
        this.errors = errors;
    }

    public static Connection wrap(Connection connection, Answer connectionAnswer, Check statementCheck,
            Rewrite resultSetRewrite, Errors errors) {
        return new ConnectionWrapper(connectionAnswer, statementCheck, resultSetRewrite, errors).connection(connection);
    }

    private Connection connection(Connection inner) {
        Connection[] self = new Connection[1];
        self[0] = proxy(Connection.class, inner, answer, (method, result) -> {
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

    private <S extends Statement> S statement(Class<S> type, S inner, Connection connection) {
        Object[] self = new Object[1];
        S wrapped = proxy(type, inner, (method, args) -> {
            check.apply(type, method, args);
            return DELEGATE;
        }, (method, result) -> method.getName().equals("getConnection") ? connection
                : result instanceof ResultSet rs ? resultSet(rs, self[0]) : result);
        self[0] = wrapped;
        return wrapped;
    }

    private ResultSet resultSet(ResultSet inner, Object statement) {
        return proxy(ResultSet.class, inner, NO_ANSWER, (method, result) -> method.getName().equals("getStatement")
                ? statement : rewrite.apply(method, result));
    }

    private <T> T proxy(Class<T> type, T target, Answer answers, Rewrite results) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
                return invoke(method, target, args);
            }
            Object answered = answers.apply(method, args);
            return answered != DELEGATE ? answered : results.apply(method, invoke(method, target, args));
        };
        return type.cast(Proxy.newProxyInstance(ConnectionWrapper.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }

    private Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw errors.map(e.getCause(), method);
        }
    }
}
