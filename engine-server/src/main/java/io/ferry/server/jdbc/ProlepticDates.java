package io.ferry.server.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.ZoneOffset;

import io.ferry.core.types.CivilCalendar;

/**
 * Wraps the embedded connection the JDBC server reads results from, so that DATE and TIMESTAMP values reach the wire
 * in the proleptic Gregorian calendar, as Ferry, Arrow and DuckDB count them.
 *
 * <p>Avatica's server turns a {@link Date} into days as {@code getTime() / 86_400_000}, but a {@code java.sql.Date}
 * counts its milliseconds in the Julian calendar before 1582-10-15, while its client turns the days back with
 * {@code LocalDate.ofEpochDay} (proleptic): {@code DATE '1500-03-01'} came back as 1500-03-11. The wrapped result sets
 * answer {@code getDate}/{@code getTimestamp} with values whose milliseconds are proleptic, taken from the calendar
 * fields the embedded driver meant ({@link Date#toLocalDate()}). Everything else passes through unchanged;
 * statements report the wrapped connection as theirs, and {@code unwrap} reaches the embedded objects.
 */
final class ProlepticDates {
    private ProlepticDates() {
    }

    static Connection wrap(Connection embedded) {
        Connection[] self = new Connection[1];
        self[0] = proxy(Connection.class, embedded, (method, args, result) -> {
            if (result instanceof CallableStatement s) {
                return statement(CallableStatement.class, s, self[0]);
            }
            if (result instanceof PreparedStatement s) {
                return statement(PreparedStatement.class, s, self[0]);
            }
            if (result instanceof Statement s) {
                return statement(Statement.class, s, self[0]);
            }
            return result;
        });
        return self[0];
    }

    private static <S extends Statement> S statement(Class<S> type, S embedded, Connection connection) {
        return proxy(type, embedded, (method, args, result) -> {
            if (method.getName().equals("getConnection")) {
                return connection;
            }
            return result instanceof ResultSet rs ? resultSet(rs) : result;
        });
    }

    private static ResultSet resultSet(ResultSet embedded) {
        return proxy(ResultSet.class, embedded, (method, args, result) -> {
            if (result instanceof Date d && method.getName().equals("getDate")) {
                return new Date(d.toLocalDate().toEpochDay() * CivilCalendar.MILLIS_PER_DAY);
            }
            if (result instanceof Timestamp t && method.getName().equals("getTimestamp")) {
                Timestamp proleptic = new Timestamp(t.toLocalDateTime().toEpochSecond(ZoneOffset.UTC) * 1000);
                proleptic.setNanos(t.getNanos());
                return proleptic;
            }
            return result;
        });
    }

    /** What a wrapper makes of a delegated call's result. */
    private interface Rewrite {
        Object apply(Method method, Object[] args, Object result) throws Exception;
    }

    private static <T> T proxy(Class<T> type, T target, Rewrite rewrite) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
                return invoke(method, target, args);
            }
            return rewrite.apply(method, args, invoke(method, target, args));
        };
        return type.cast(Proxy.newProxyInstance(ProlepticDates.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
