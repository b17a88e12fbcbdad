package io.ferry.jdbc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;

/**
 * Cancel and query timeout that reach the server, for {@link FerryStatement} and {@link FerryPreparedStatement}.
 * Avatica's client only flags a cancel on its own side and ignores the timeout, so a long query would run on; this
 * also asks the server's cancel endpoint to stop it, which stops it on every node that runs part of it. A query
 * stopped by its timeout fails with {@link SQLTimeoutException}, SQLSTATE 57014.
 */
final class ServerCancel {
    private static final String CANCEL_PATH = "/ferry/cancel";
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

    private ServerCancel() {
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
            URI endpoint = URI.create(connection.config().url()).resolve(CANCEL_PATH + "?connection="
                    + connection.id + "&statement=" + handle.id);
            HTTP.send(HttpRequest.newBuilder(endpoint).timeout(CANCEL_WAIT)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException | RuntimeException e) {
            // the query fails or finishes on its own; there is nothing the caller could do about this
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
