package io.ferry.server.load;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ferry.core.SqlStates;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.jdbc.AuthenticationGuard;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.access.Principal;

/**
 * {@code POST /ferry/load}: a {@link LoadRequest} as JSON in, the load's progress and outcome out as
 * newline-delimited {@link LoadEvent}s, written as they happen. It shares the JDBC server's port: loading a file
 * row by row through JDBC INSERTs would be slow and not atomic, while here the server reads the file itself and
 * publishes it with one commit.
 *
 * <p>If the client goes away mid-load, the next progress line cannot be written; that failure aborts the load,
 * which then leaves nothing behind.
 */
public final class LoadEndpoint extends AbstractHandler {
    public static final String PATH = "/ferry/load";

    /** SQLSTATE io_error. */
    private static final String IO_ERROR = "58030";
    private static final long PROGRESS_INTERVAL_NANOS = 200_000_000L;

    private static final Logger LOG = LoggerFactory.getLogger(LoadEndpoint.class);
    /** Strict about requests: a misspelt option must fail, not be ignored. */
    static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private final ServerLoad load;

    public LoadEndpoint(ServerLoad load) {
        this.load = requireNonNull(load, "load is null");
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!PATH.equals(target)) {
            return;
        }
        baseRequest.setHandled(true);
        response.setContentType("application/x-ndjson;charset=utf-8");
        if (!"POST".equals(request.getMethod())) {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            response.setHeader("Allow", "POST");
            write(response.getOutputStream(), LoadEvent.error(SqlStates.INVALID_PARAMETER_VALUE, PATH
                    + " takes a POST with a JSON load request"));
            return;
        }
        Principal user = AuthenticationGuard.principalOf(request);
        if (user == null) {
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            write(response.getOutputStream(), LoadEvent.error(SqlStates.INVALID_AUTHORIZATION, "the request was not "
                    + "authenticated"));
            return;
        }
        LoadRequest loadRequest;
        try {
            loadRequest = JSON.readValue(request.getInputStream(), LoadRequest.class);
        } catch (JsonProcessingException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            write(response.getOutputStream(), LoadEvent.error(SqlStates.INVALID_PARAMETER_VALUE,
                    "the load request is not valid: " + e.getOriginalMessage()));
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        OutputStream out = response.getOutputStream();
        long started = System.nanoTime();
        StreamedProgress progress = new StreamedProgress(out);
        LoadEvent outcome;
        try {
            long rows = load.run(loadRequest, user, progress);
            long millis = (System.nanoTime() - started) / 1_000_000;
            LOG.info("loaded {} rows into {} from {} in {} ms{}", rows, loadRequest.target(), loadRequest.source(),
                    millis, progress.gone ? "; the client went away before it was told" : "");
            if (progress.gone) {
                return;
            }
            outcome = LoadEvent.done(loadRequest.target(), rows, millis);
        } catch (ClientGone e) {
            LOG.info("client went away while loading {} into {}; nothing was loaded", loadRequest.source(),
                    loadRequest.target());
            return;
        } catch (IOException e) {
            outcome = LoadEvent.error(e instanceof NoSuchFileException ? LoadPolicy.UNDEFINED_FILE : IO_ERROR,
                    "cannot read " + loadRequest.path() + " on the server: " + e.getMessage());
        } catch (RuntimeException | OutOfMemoryError e) {
            SqlErrors.Translated t = SqlErrors.translate(e);
            if (SqlStates.INTERNAL_ERROR.equals(t.sqlState())) {
                LOG.error("loading {} into {} failed", loadRequest.source(), loadRequest.target(), e);
            }
            outcome = LoadEvent.error(t.sqlState(), t.message());
        }
        if (LoadEvent.ERROR.equals(outcome.event())) {
            LOG.info("load of {} into {} failed with {}: {}", loadRequest.source(), loadRequest.target(),
                    outcome.sqlState(), outcome.message());
        }
        write(out, outcome);
    }

    private static void write(OutputStream out, LoadEvent event) throws IOException {
        out.write(JSON.writeValueAsBytes(event));
        out.write('\n');
        out.flush();
    }

    /** The client stopped listening; thrown out of the loader's progress callback to abort the load. */
    private static final class ClientGone extends RuntimeException {
        ClientGone(IOException cause) {
            super("the client closed the connection", cause);
        }
    }

    /**
     * Progress as event lines: at most one progress line per {@link #PROGRESS_INTERVAL_NANOS}, and the last count
     * before a task's end, so the client's bar ends where the work did.
     */
    private static final class StreamedProgress implements ProgressListener {
        private final OutputStream out;
        /** Whether the client was found gone at a task's end. */
        boolean gone;
        private long lastSentAt;
        private long sent;
        private long latest;

        StreamedProgress(OutputStream out) {
            this.out = out;
        }

        @Override
        public void start(String task, long total, Unit unit) {
            send(LoadEvent.start(task, total, unit.name()));
            lastSentAt = System.nanoTime();
            sent = 0;
            latest = 0;
        }

        @Override
        public void update(long done) {
            latest = done;
            long now = System.nanoTime();
            if (done != sent && now - lastSentAt >= PROGRESS_INTERVAL_NANOS) {
                send(LoadEvent.progress(done));
                lastSentAt = now;
                sent = done;
            }
        }

        /**
         * The end of a task, which comes after the load committed or failed: a client gone by then changes nothing,
         * and must not turn a committed load into one reported as not done ({@link #gone} says so instead).
         */
        @Override
        public void finish() {
            try {
                if (latest != sent) {
                    send(LoadEvent.progress(latest));
                    sent = latest;
                }
                send(LoadEvent.finish());
            } catch (ClientGone e) {
                gone = true;
            }
        }

        private void send(LoadEvent event) {
            try {
                write(out, event);
            } catch (IOException e) {
                throw new ClientGone(e);
            } catch (UncheckedIOException e) {
                throw new ClientGone(e.getCause());
            }
        }
    }
}
