package io.ferry.server.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.metrics.noop.NoopMetricsSystem;
import org.apache.calcite.avatica.remote.Handler.HandlerResponse;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.remote.ProtobufHandler;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;
import org.apache.calcite.avatica.remote.Service.RpcMetadataResponse;
import org.apache.calcite.avatica.server.AvaticaHandler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.sql.SqlErrors;
import io.ferry.sql.access.Principal;

/**
 * The JDBC port: Avatica's protobuf protocol over HTTP POST, as Avatica's own handler serves it, except for what a
 * failure sends back. Avatica's handler put the server's Java stack trace, with Ferry's and Calcite's class names,
 * into every error response (the {@code exceptions} of its ErrorResponse), and answered bytes that are no Avatica
 * request with HTTP 500 and the protobuf parser's stack trace. Here an error carries its SQLSTATE and its sentence
 * and nothing else (an internal error's stack goes to the server log), a request that does not parse is a 400 that
 * says so in one line, a body larger than {@link #MAX_REQUEST_BYTES} is refused (413) rather than read into
 * memory, and one that stops arriving is a 408 once the connection's idle timeout passes.
 */
final class ProtobufEndpoint extends AbstractHandler implements AvaticaHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ProtobufEndpoint.class);

    /** The largest request read: a batch of a million rows of parameters fits; more is a client's mistake. */
    static final int MAX_REQUEST_BYTES = 256 << 20;
    /** The largest request read when its credentials were refused: a close request is a few dozen bytes. */
    private static final int REFUSED_REQUEST_BYTES = 4 << 10;

    private final FerryMeta meta;
    private final Service service;
    private final ProtobufTranslation translation = new ProtobufTranslationImpl();
    private final Protocol protocol;
    /** The connections' idle timeout, which ends a request whose body stops arriving. */
    private final Duration idleTimeout;
    private volatile RpcMetadataResponse metadata;

    ProtobufEndpoint(FerryMeta meta, Duration idleTimeout) {
        this.meta = meta;
        this.service = new LocalService(meta);
        this.idleTimeout = idleTimeout;
        this.protocol = new Protocol(service, translation);
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        base.setHandled(true);
        if (!"POST".equals(request.getMethod())) {
            plain(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "this is Ferry's JDBC port: it answers "
                    + "Avatica protobuf requests sent with POST; connect with jdbc:ferry:// or Avatica's driver");
            return;
        }
        // a request whose credentials were refused may only close what its connection opened: a few bytes, so a
        // stranger with a bogus password cannot make the server read and parse 256 MiB
        int limit = request.getAttribute(AuthenticationGuard.REFUSED) != null ? REFUSED_REQUEST_BYTES
                : MAX_REQUEST_BYTES;
        byte[] body;
        try {
            body = request.getContentLengthLong() > limit ? null : read(request.getInputStream(), limit);
        } catch (IOException e) {
            // the connection's idle timeout ran out before the promised body arrived
            LOG.debug("a request from {} did not arrive whole: {}", request.getRemoteAddr(), e.toString());
            plain(response, HttpServletResponse.SC_REQUEST_TIMEOUT, "the request did not arrive whole within "
                    + idleTimeout.toSeconds() + " s");
            return;
        }
        if (body == null && limit == REFUSED_REQUEST_BYTES) {
            FerryException refused = (FerryException) request.getAttribute(AuthenticationGuard.REFUSED);
            HandlerResponse<byte[]> answer = error(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, refused.getMessage(),
                    -1, refused.sqlState(), AvaticaSeverity.ERROR);
            response.setContentType("application/octet-stream;charset=utf-8");
            response.setStatus(answer.getStatusCode());
            response.getOutputStream().write(answer.getResponse());
            return;
        }
        if (body == null) {
            plain(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "a request may hold at most "
                    + (MAX_REQUEST_BYTES >> 20) + " MiB; send a large batch in parts");
            return;
        }
        HandlerResponse<byte[]> answer = answer(request, body);
        response.setContentType("application/octet-stream;charset=utf-8");
        response.setStatus(answer.getStatusCode());
        response.getOutputStream().write(answer.getResponse());
    }

    /**
     * The answer to {@code body}, run as the user {@link AuthenticationGuard} found, on connections and statements
     * of that user's only ({@link FerryMeta#denial}): with authentication, a connection id seen by someone else (in a
     * log, say) is no key to its owner's results.
     */
    private HandlerResponse<byte[]> answer(HttpServletRequest request, byte[] body) {
        int status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR; // what Avatica's clients read an error from
        Service.Request parsed = parsed(body);
        if (parsed == null) {
            return error(HttpServletResponse.SC_BAD_REQUEST, "not an Avatica protobuf request; connect with "
                    + "jdbc:ferry:// or Avatica's driver", -1, SqlStates.PROTOCOL_VIOLATION, AvaticaSeverity.ERROR);
        }
        String credentials = (String) request.getAttribute(AuthenticationGuard.CREDENTIALS);
        FerryMeta.Client client;
        if (request.getAttribute(AuthenticationGuard.REFUSED) instanceof FerryException refused) {
            // a password changed since the connection opened: its client may still close what it opened
            client = meta.openedWith(parsed, credentials);
            if (client == null) {
                return error(status, refused.getMessage(), -1, refused.sqlState(), AvaticaSeverity.ERROR);
            }
        } else {
            Principal user = AuthenticationGuard.principalOf(request);
            if (user == null) {
                return error(status, "the request was not authenticated", -1, SqlStates.INVALID_AUTHORIZATION,
                        AvaticaSeverity.ERROR);
            }
            client = new FerryMeta.Client(user, credentials);
        }
        if (parsed instanceof Service.CloseStatementRequest close
                && !meta.hasStatement(close.connectionId, close.statementId)) {
            // a metadata result's statement, which was never kept, or one already gone: nothing to close, and the
            // number must not reach Avatica's lookup, which would close whatever statement has it by then
            return answer(new Service.CloseStatementResponse(metadata));
        }
        String denial = meta.denial(parsed, client.user());
        if (denial != null) {
            return error(status, denial, -1, SqlStates.INSUFFICIENT_PRIVILEGE, AvaticaSeverity.ERROR);
        }
        return FerryMeta.as(client, () -> protocol.apply(body));
    }

    /**
     * {@code body} as an Avatica request, or null if it is none: checked before the request is run (which parses it
     * again), since Avatica's handler reports a request that does not parse like one that failed.
     */
    private Service.Request parsed(byte[] body) {
        try {
            return translation.parseRequest(body);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The body, or null if it is larger than {@code limit}. */
    private static byte[] read(InputStream in, int limit) throws IOException {
        try (in) {
            byte[] body = in.readNBytes(limit + 1);
            return body.length > limit ? null : body;
        }
    }

    private static void plain(HttpServletResponse response, int status, String sentence) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain;charset=utf-8");
        response.getOutputStream().write((sentence + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void setServerRpcMetadata(RpcMetadataResponse metadata) {
        this.metadata = metadata;
        service.setRpcMetadata(metadata);
        protocol.setRpcMetadata(metadata);
    }

    /** Avatica's protobuf handling, with the error responses of {@link #failure}. */
    private final class Protocol extends ProtobufHandler {
        Protocol(Service service, ProtobufTranslation translation) {
            super(service, translation, NoopMetricsSystem.getInstance());
        }

        @Override
        public HandlerResponse<byte[]> convertToErrorResponse(Exception e) {
            return failure(e);
        }
    }

    /** The error response for a failed request: its sentence and SQLSTATE, no stack trace. */
    private HandlerResponse<byte[]> failure(Exception e) {
        int status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR; // what Avatica's clients read an error from
        if (e instanceof AvaticaRuntimeException a) {
            return error(status, a.getErrorMessage(), a.getErrorCode(), a.getSqlState(), a.getSeverity());
        }
        if (e instanceof NoSuchConnectionException) {
            // the code Avatica's clients read as "reconnect"
            return error(status, e.getMessage(), ErrorResponse.MISSING_CONNECTION_ERROR_CODE,
                    ErrorResponse.UNKNOWN_SQL_STATE, AvaticaSeverity.ERROR);
        }
        SqlErrors.Translated t = SqlErrors.translate(e);
        if (SqlStates.INTERNAL_ERROR.equals(t.sqlState())) {
            LOG.error("internal error answering a client: {}", t.message(), e);
        }
        return error(status, t.message(), -1, t.sqlState(), AvaticaSeverity.ERROR);
    }

    private HandlerResponse<byte[]> answer(Service.Response response) {
        try {
            return new HandlerResponse<>(translation.serializeResponse(response), HttpServletResponse.SC_OK);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize a response", e);
        }
    }

    private HandlerResponse<byte[]> error(int status, String message, int code, String sqlState,
            AvaticaSeverity severity) {
        ErrorResponse error = new ErrorResponse(List.of(), message, code, sqlState, severity, metadata);
        try {
            return new HandlerResponse<>(translation.serializeResponse(error), status);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize an error response", e);
        }
    }
}
