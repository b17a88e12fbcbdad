package io.ferry.server.jdbc;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.ZoneOffset;

import io.ferry.core.types.CivilCalendar;
import io.ferry.sql.jdbc.ConnectionWrapper;
import io.ferry.sql.jdbc.SqlStateConnection;

/**
 * Wraps the embedded connection the JDBC server reads results from, so that DATE and TIMESTAMP values reach the wire
 * in the proleptic Gregorian calendar, as Ferry, Arrow and DuckDB count them, and the connection is in auto-commit
 * mode as an embedded one is ({@link SqlStateConnection#AUTO_COMMIT_ONLY}).
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
        return ConnectionWrapper.wrap(embedded, SqlStateConnection.AUTO_COMMIT_ONLY, ConnectionWrapper.NO_CHECK,
                ProlepticDates::proleptic, ConnectionWrapper.SAME_ERRORS);
    }

    /** A result set's DATE or TIMESTAMP with proleptic milliseconds; any other value as it is. */
    private static Object proleptic(Method method, Object result) {
        if (result instanceof Date d && method.getName().equals("getDate")) {
            return new Date(d.toLocalDate().toEpochDay() * CivilCalendar.MILLIS_PER_DAY);
        }
        if (result instanceof Timestamp t && method.getName().equals("getTimestamp")) {
            Timestamp proleptic = new Timestamp(t.toLocalDateTime().toEpochSecond(ZoneOffset.UTC) * 1000);
            proleptic.setNanos(t.getNanos());
            return proleptic;
        }
        return result;
    }
}
