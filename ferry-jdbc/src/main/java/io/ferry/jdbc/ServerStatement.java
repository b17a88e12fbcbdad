package io.ferry.jdbc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLWarning;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;

/**
 * What {@link FerryStatement} and {@link FerryPreparedStatement} ask of the server beside Avatica's protocol, at its
 * statement endpoint:
 * <ul>
 *   <li>Cancel and query timeout that reach the server. Avatica's client only flags a cancel on its own side and
 *       ignores the timeout, so a long query would run on; this also asks the server to stop it, which stops it on
 *       every node that runs part of it. A query stopped by its timeout fails with {@link SQLTimeoutException},
 *       SQLSTATE 57014.</li>
 *   <li>Warnings of the last execution (Avatica carries none), such as a sample that may miss groups.</li>
 * </ul>
 */
final class ServerStatement {
    private static final String CANCEL_PATH = "/ferry/cancel";
    private static final String WARNINGS_PATH = "/ferry/warnings";
    /** SQLSTATE of a warning: class 01, no subclass. */
    static final String WARNING = "01000";
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(CANCEL_WAIT).build();
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ferry-jdbc query timeouts");
        t.setDaemon(true);
        return t;
    });

    /** A statement's execution, which may be stopped from another thread. */
    interface Execution<T> {
        T run() throws SQLException;
    }

    private ServerStatement() {
    }

    /** Runs {@code execution}, cancelling the statement on the server once {@code timeoutSeconds} (> 0) have passed. */
    static <T> T withTimeout(AvaticaConnection connection, Meta.StatementHandle handle, int timeoutSeconds,
            Execution<T> execution) throws SQLException {
        if (timeoutSeconds <= 0) {
            return execution.run();
        }
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> timer = TIMER.schedule(() -> {
            timedOut.set(true);
            cancel(connection, handle);
        }, timeoutSeconds, TimeUnit.SECONDS);
        try {
            return execution.run();
        } catch (SQLException e) {
            if (timedOut.get()) {
                throw new SQLTimeoutException("the query ran past its timeout of " + timeoutSeconds + " s and was "
                        + "stopped; raise Statement.setQueryTimeout or make the query cheaper", "57014", e);
            }
            throw e;
        } finally {
            timer.cancel(false);
        }
    }

    /** Best effort: a server that cannot be reached has lost the query anyway. */
    static void cancel(AvaticaConnection connection, Meta.StatementHandle handle) {
        try {
            HTTP.send(HttpRequest.newBuilder(endpoint(connection, handle, CANCEL_PATH)).timeout(CANCEL_WAIT)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | RuntimeException e) {
            // the query fails or finishes on its own; there is nothing the caller could do about this
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The warnings of the statement's last execution, chained; null if it had none. */
    static SQLWarning warnings(AvaticaConnection connection, Meta.StatementHandle handle) throws SQLException {
        HttpResponse<String> response;
        try {
            response = HTTP.send(HttpRequest.newBuilder(endpoint(connection, handle, WARNINGS_PATH))
                    .timeout(CANCEL_WAIT).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new SQLException("cannot reach the server for the statement's warnings: " + e.getMessage(),
                    "08006", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while asking the server for warnings", "57014", e);
        }
        if (response.statusCode() != 200) {
            return null; // the statement is gone on the server, and its warnings with it
        }
        SQLWarning first = null;
        for (String line : response.body().split("\n")) {
            if (!line.isBlank()) {
                SQLWarning w = new SQLWarning(line.strip(), WARNING);
                if (first == null) {
                    first = w;
                } else {
                    first.setNextWarning(w);
                }
            }
        }
        return first;
    }

    private static URI endpoint(AvaticaConnection connection, Meta.StatementHandle handle, String path) {
        return URI.create(connection.config().url()).resolve(path + "?connection=" + connection.id + "&statement="
                + handle.id);
    }
}
