package io.ferry.server.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.server.data.ProgressListener;

/** The client side of {@link LoadEndpoint}: sends a load request and follows its progress to the outcome. */
public final class LoadClient {
    /** SQLSTATE sqlclient_unable_to_establish_sqlconnection. */
    static final String CANNOT_CONNECT = "08001";
    /** SQLSTATE connection_failure: the connection broke before the server said how the load ended. */
    static final String CONNECTION_FAILURE = "08006";

    /** Lenient: fields a newer server adds to its events are skipped. */
    private static final ObjectReader EVENTS = LoadEndpoint.JSON.readerFor(LoadEvent.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private LoadClient() {
    }

    /** What a load did. */
    public record Result(String table, long rows, long millis) {
    }

    /**
     * Runs {@code request} on the server at {@code server} (e.g. {@code http://127.0.0.1:8765}), reporting progress
     * to {@code progress}; {@code authorization} is the HTTP Authorization header to send, or null for none.
     *
     * @throws FerryException with the server's SQLSTATE when the load failed (then nothing was loaded), or 08001
     *                        when no Ferry server answers there
     */
    public static Result load(URI server, LoadRequest request, ProgressListener progress) throws InterruptedException {
        return load(server, request, null, null, progress);
    }

    /**
     * As {@link #load(URI, LoadRequest, ProgressListener)}, sending {@code authorization} as the HTTP Authorization
     * header (null for none), and trusting the server's certificate as {@code tls} says (null: the JVM's default).
     */
    public static Result load(URI server, LoadRequest request, String authorization, SSLContext tls,
            ProgressListener progress) throws InterruptedException {
        URI endpoint = server.resolve(LoadEndpoint.PATH);
        HttpClient.Builder clientBuilder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        if (tls != null) {
            clientBuilder.sslContext(tls);
        }
        HttpClient client = clientBuilder.build();
        HttpRequest post;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(LoadEndpoint.JSON.writeValueAsBytes(request)));
            if (authorization != null) {
                builder.header("Authorization", authorization);
            }
            post = builder.build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode the load request", e);
        }
        HttpResponse<Stream<String>> response;
        try {
            response = client.send(post, HttpResponse.BodyHandlers.ofLines());
        } catch (ConnectException e) {
            throw new FerryException(CANNOT_CONNECT, "cannot reach a Ferry server at " + server + " (connection "
                    + "refused); check --host and --port, and that the server runs (bin/ferry local)", e);
        } catch (IOException e) {
            throw new FerryException(CANNOT_CONNECT, "cannot reach a Ferry server at " + server + ": " + e, e);
        }
        if (response.statusCode() == 401) {
            String line = response.body().findFirst().orElse("").strip();
            if (line.matches("28[0-9A-Z]{3} .*")) {
                throw new FerryException(line.substring(0, 5), line.substring(6));
            }
            throw new FerryException(SqlStates.INVALID_AUTHORIZATION, "the server at " + server + " requires a user "
                    + "and password: give --user NAME (the password comes from FERRY_PASSWORD, --password-file, or a "
                    + "prompt)");
        }
        if (response.statusCode() == 404) {
            throw new FerryException(CANNOT_CONNECT, "the server at " + server + " has no load endpoint; is it a "
                    + "Ferry server?");
        }
        boolean inTask = false;
        try (Stream<String> lines = response.body()) {
            Iterator<String> it = lines.iterator();
            while (it.hasNext()) {
                String line = it.next();
                if (line.isBlank()) {
                    continue;
                }
                LoadEvent event = parse(line, server);
                switch (event.event()) {
                    case LoadEvent.START -> {
                        progress.start(event.task(), event.total() == null ? -1 : event.total(),
                                ProgressListener.Unit.valueOf(event.unit()));
                        inTask = true;
                    }
                    case LoadEvent.PROGRESS -> progress.update(event.done());
                    case LoadEvent.FINISH -> {
                        progress.finish();
                        inTask = false;
                    }
                    case LoadEvent.DONE -> {
                        return new Result(event.table(), event.rows(), event.millis());
                    }
                    case LoadEvent.ERROR -> throw new FerryException(event.sqlState(), event.message());
                    default -> {
                        // Events a newer server sends and this client does not know are only informative.
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw new FerryException(CONNECTION_FAILURE, "the connection to " + server + " broke during the load ("
                    + e.getCause().getMessage() + "); check whether the table has the rows before loading again", e);
        } finally {
            if (inTask) {
                progress.finish();
            }
        }
        throw new FerryException(CONNECTION_FAILURE, "the server at " + server + " closed the connection before it "
                + "said how the load ended; check whether the table has the rows before loading again");
    }

    private static LoadEvent parse(String line, URI server) {
        try {
            return EVENTS.readValue(line);
        } catch (JsonProcessingException e) {
            throw new FerryException(CONNECTION_FAILURE, "the server at " + server + " answered the load with '"
                    + line + "', which is not a load event; is it a Ferry server?", e);
        }
    }
}
