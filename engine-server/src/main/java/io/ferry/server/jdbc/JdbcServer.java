package io.ferry.server.jdbc;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.HandlerList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.server.StartupException;
import io.ferry.sql.FerryEngine;

/**
 * Serves an engine over JDBC: Avatica's protobuf protocol over HTTP, answered by {@link FerryMeta} on the engine's
 * embedded connection. Clients connect with {@code jdbc:ferry://host:port} (the ferry-jdbc driver) or with Avatica's
 * stock remote driver, {@code jdbc:avatica:remote:url=http://host:port;serialization=PROTOBUF}.
 *
 * <p>Extra Jetty handlers (the CSV load endpoint) share the port; each sees a request first and leaves those it does
 * not claim to Avatica, which otherwise answers every path. Before all of them, requests from web pages are refused
 * ({@link CrossOriginGuard}).
 */
public final class JdbcServer implements AutoCloseable {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8765;

    private static final Logger LOG = LoggerFactory.getLogger(JdbcServer.class);

    private final HttpServer http;
    private final FerryMeta meta;
    private final String host;
    private final int port;
    private final boolean tls;
    private boolean closed;

    private JdbcServer(HttpServer http, FerryMeta meta, String host, int port, boolean tls) {
        this.http = http;
        this.meta = meta;
        this.host = host;
        this.port = port;
        this.tls = tls;
    }

    /** TLS for the port: a PKCS #12 keystore with the server's key and certificate, and its password. */
    public record Tls(Path keystore, String password) {
        public Tls {
            requireNonNull(keystore, "keystore is null");
            requireNonNull(password, "password is null");
        }
    }

    /**
     * Starts serving {@code engine} on {@code host} (a name or address; 0.0.0.0 for every interface) and
     * {@code port} (0 for any free port).
     *
     * @throws StartupException when the host does not resolve or the port cannot be bound
     */
    public static JdbcServer start(FerryEngine engine, String host, int port, List<Handler> extraHandlers) {
        return start(engine, host, port, extraHandlers, null, IDLE_TIMEOUT);
    }

    /** As {@link #start(FerryEngine, String, int, List)}, serving HTTPS with {@code tls} unless it is null. */
    public static JdbcServer start(FerryEngine engine, String host, int port, List<Handler> extraHandlers, Tls tls) {
        return start(engine, host, port, extraHandlers, tls, IDLE_TIMEOUT);
    }

    /** {@link #start(FerryEngine, String, int, List)} with another {@link #IDLE_TIMEOUT} (tests wait less). */
    static JdbcServer start(FerryEngine engine, String host, int port, List<Handler> extraHandlers,
            Duration idleTimeout) {
        return start(engine, host, port, extraHandlers, null, idleTimeout);
    }

    private static JdbcServer start(FerryEngine engine, String host, int port, List<Handler> extraHandlers, Tls tls,
            Duration idleTimeout) {
        requireNonNull(engine, "engine is null");
        requireNonNull(host, "host is null");
        List<Handler> extra = List.copyOf(extraHandlers);
        if (port < 0 || port > 65535) {
            throw new StartupException("port " + port + " is not a TCP port; choose one from 1 to 65535 (or 0 for any "
                    + "free port) with --port", null);
        }
        InetAddress address = resolve(host);
        FerryMeta meta;
        try {
            meta = new FerryMeta(engine.jdbcUrl(), engine.config().clientTimeout(), engine.config().queryTimeout());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the engine's embedded JDBC connection", e);
        }
        ServerCustomizer<Server> customizer = server -> {
            // Avatica's builder can set the port but not the address; its connector exists by now, unstarted.
            for (Connector c : server.getConnectors()) {
                if (c instanceof ServerConnector sc) {
                    sc.setHost(address.getHostAddress());
                    sc.setIdleTimeout(idleTimeout.toMillis());
                }
            }
            server.setErrorHandler(new OneLineErrors());
            List<Handler> handlers = new ArrayList<>();
            handlers.add(new CrossOriginGuard(host, engine.access().required()));
            handlers.add(new AuthenticationGuard(engine.access()));
            handlers.addAll(extra);
            handlers.add(new StatementEndpoint(meta));
            handlers.add(server.getHandler());
            server.setHandler(new HandlerList(handlers.toArray(Handler[]::new)));
        };
        HttpServer.Builder<Server> builder = new HttpServer.Builder<Server>()
                .withHandler(new ProtobufEndpoint(meta, idleTimeout))
                .withPort(port)
                .withServerCustomizers(List.of(customizer), Server.class);
        if (tls != null) {
            if (!Files.isReadable(tls.keystore())) {
                throw new StartupException("cannot read the TLS keystore " + tls.keystore() + "; make one with "
                        + "bin/ferry cert --out DIR", null);
            }
            // the keystore is its own truststore: Avatica's builder wants one, and no client certificates are asked
            File keystore = tls.keystore().toFile();
            builder.withTLS(keystore, tls.password(), keystore, tls.password(), "PKCS12");
        }
        HttpServer http = builder.build();
        try {
            http.start();
        } catch (RuntimeException e) {
            stopQuietly(http, e);
            throw bindFailure(host, port, e);
        }
        JdbcServer server = new JdbcServer(http, meta, displayHost(address), http.getPort(), tls != null);
        LOG.info("JDBC served on {} (Avatica protobuf over HTTP{})", server.endpoint(), tls != null ? "S" : "");
        LOG.info("connect with {} (ferry-jdbc driver) or {} (Avatica remote driver)", server.ferryUrl(),
                server.avaticaUrl());
        return server;
    }

    /**
     * How long a connection may wait for the rest of a request (and sit idle between requests): a client whose
     * request promised more bytes than it sent held its connection, and a thread, for a minute.
     */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** Jetty's own error pages (a request it cannot parse, a failure outside the handlers) as one line of text. */
    private static final class OneLineErrors extends ErrorHandler {
        @Override
        public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
                throws IOException {
            base.setHandled(true);
            response.setContentType("text/plain;charset=utf-8");
            String reason = HttpStatus.getMessage(response.getStatus());
            response.getOutputStream().write(("HTTP " + response.getStatus() + ": " + reason + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The port served (the one chosen when started with port 0). */
    public int port() {
        return port;
    }

    /** The host clients should use: the address served, or this machine's name when serving every interface. */
    public String host() {
        return host;
    }

    /** The HTTP endpoint, e.g. {@code http://127.0.0.1:8765}, or {@code https://...} with TLS. */
    public URI endpoint() {
        return URI.create((tls ? "https" : "http") + "://" + host + ":" + port);
    }

    /** Whether the port serves HTTPS. */
    public boolean tls() {
        return tls;
    }

    /** The URL for the ferry-jdbc driver. */
    public String ferryUrl() {
        return "jdbc:ferry://" + host + ":" + port + (tls ? "?tls=true" : "");
    }

    /** The URL for Avatica's stock remote driver (sqlline, or any tool that ships Avatica). */
    public String avaticaUrl() {
        return avaticaUrl(endpoint());
    }

    public static String avaticaUrl(String host, int port) {
        return avaticaUrl(URI.create("http://" + host + ":" + port));
    }

    public static String avaticaUrl(URI endpoint) {
        return "jdbc:avatica:remote:url=" + endpoint + ";serialization=PROTOBUF";
    }

    /** Stops accepting requests, then closes every connection clients left open. The engine stays up. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // stop the queries first: Jetty's stop waits for the requests they serve
        meta.stopAll();
        try {
            http.stop();
        } finally {
            meta.closeAll();
        }
        LOG.info("JDBC server on {} stopped", endpoint());
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new StartupException("host '" + host + "' does not resolve to an address of this machine; use "
                    + "--host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface)", e);
        }
    }

    private static String displayHost(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                return "localhost";
            }
        }
        String literal = address.getHostAddress();
        return address instanceof Inet6Address ? "[" + literal + "]" : literal;
    }

    private static StartupException bindFailure(String host, int port, RuntimeException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof BindException) {
                return new StartupException("cannot serve JDBC on " + host + ":" + port + ": " + c.getMessage()
                        + " (is another Ferry or another program listening there?); stop it or choose another port "
                        + "with --port", e);
            }
        }
        return new StartupException("cannot serve JDBC on " + host + ":" + port + ": " + e.getMessage(), e);
    }

    private static void stopQuietly(HttpServer http, RuntimeException cause) {
        try {
            http.stop();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
