package io.ferry.server.flight;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.server.StartupException;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.server.tls.TlsKeys;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.Principal;

/**
 * Ferry's Arrow Flight SQL endpoint: the same engine, users, grants and TLS keystore as the JDBC port, on a port of
 * its own, answering with Arrow batches straight from Ferry's result batches ({@link FerryFlightProducer}).
 *
 * <p>Logging in: on a server with users, a client sends HTTP Basic credentials once (ADBC's {@code username} and
 * {@code password}, the Flight SQL JDBC driver's {@code user} and {@code password}) and gets a bearer token for the
 * rest of its session; a wrong password is UNAUTHENTICATED. Without users (a loopback server), no credentials are
 * needed and every client is the engine's owner, as on the JDBC port.
 */
public final class FlightSqlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FlightSqlServer.class);

    private final FlightServer server;
    private final FerryFlightProducer producer;
    private final BufferAllocator allocator;
    private final String host;
    private final boolean tls;

    private FlightSqlServer(FlightServer server, FerryFlightProducer producer, BufferAllocator allocator,
            String host, boolean tls) {
        this.server = server;
        this.producer = producer;
        this.allocator = allocator;
        this.host = host;
        this.tls = tls;
    }

    /**
     * Serves {@code engine} over Flight SQL on {@code host}:{@code port} (0: any free port), with TLS when
     * {@code tls} is given, dropping statements a client left idle for {@code idleTimeout}.
     */
    public static FlightSqlServer start(FerryEngine engine, String host, int port, JdbcServer.Tls tls,
            Duration idleTimeout) {
        BufferAllocator allocator = engine.allocator().newChildAllocator("flight-sql", 0, Long.MAX_VALUE);
        FerryFlightProducer producer = new FerryFlightProducer(engine, allocator, idleTimeout);
        try {
            Location location = tls != null ? Location.forGrpcTls(host, port) : Location.forGrpcInsecure(host, port);
            FlightServer.Builder builder = FlightServer.builder(allocator, location, producer)
                    .headerAuthenticator(authenticator(engine));
            if (tls != null) {
                Pem pem = Pem.of(tls.keystore(), tls.password());
                builder.useTls(pem.chain(), pem.key());
            }
            FlightServer server = builder.build().start();
            LOG.info("Arrow Flight SQL served on {}://{}:{}", tls != null ? "grpc+tls" : "grpc+tcp", host,
                    server.getPort());
            return new FlightSqlServer(server, producer, allocator, host, tls != null);
        } catch (IOException | RuntimeException e) {
            producer.close();
            allocator.close();
            throw new StartupException("cannot serve Arrow Flight SQL on " + host + ":" + port + ": "
                    + e.getMessage() + "; choose another --flight-port", e);
        }
    }

    /**
     * Basic credentials checked against the engine's users once per session, then a bearer token; without users,
     * everyone is the owner. The peer identity is the user's name and generation ({@link #identity}).
     */
    private static CallHeaderAuthenticator authenticator(FerryEngine engine) {
        if (!engine.access().required()) {
            return new CallHeaderAuthenticator() {
                @Override
                public AuthResult authenticate(CallHeaders headers) {
                    return () -> identity(Principal.owner());
                }
            };
        }
        BasicCallHeaderAuthenticator basic = new BasicCallHeaderAuthenticator((user, password) -> {
            try {
                Principal who = engine.access().authenticate(user, password.toCharArray());
                return () -> identity(who);
            } catch (FerryException e) {
                throw CallStatus.UNAUTHENTICATED.withDescription(e.getMessage() + " (SQLSTATE " + e.sqlState()
                        + ")").toRuntimeException();
            }
        });
        return new GeneratedBearerTokenAuthenticator(basic);
    }

    /** The peer identity Flight carries for {@code who}: empty for the owner, else name and generation. */
    static String identity(Principal who) {
        return who.isOwner() ? "" : who.generation() + ":" + who.user();
    }

    /** The principal behind a peer identity made by {@link #identity}. */
    static Principal principal(String identity) {
        if (identity == null || identity.isEmpty()) {
            return Principal.owner();
        }
        int colon = identity.indexOf(':');
        return Principal.user(identity.substring(colon + 1), Long.parseLong(identity.substring(0, colon)));
    }

    public int port() {
        return server.getPort();
    }

    public boolean tls() {
        return tls;
    }

    /** The URI clients connect to: {@code grpc+tcp://host:port} or {@code grpc+tls://host:port}. */
    public String uri() {
        return (tls ? "grpc+tls" : "grpc+tcp") + "://" + host + ":" + port();
    }

    /** Stops serving: running streams are cancelled, open statements closed, and the Arrow memory freed. */
    @Override
    public void close() {
        try {
            server.shutdown();
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            producer.close();
            allocator.close();
        }
    }

    /**
     * The keystore's key entry as the two PEM streams Flight's TLS takes: the certificate chain, and the private key
     * as unencrypted PKCS#8 (which is what {@link Key#getEncoded} of a keystore's private key already is).
     */
    private record Pem(byte[] chainPem, byte[] keyPem) {
        static Pem of(Path keystore, String password) {
            try {
                KeyStore store = TlsKeys.load(keystore, password);
                for (String alias : Collections.list(store.aliases())) {
                    Key key = store.getKey(alias, password.toCharArray());
                    if (key instanceof PrivateKey && "PKCS#8".equals(key.getFormat())) {
                        StringBuilder chain = new StringBuilder();
                        for (Certificate c : store.getCertificateChain(alias)) {
                            chain.append(armour("CERTIFICATE", c.getEncoded()));
                        }
                        return new Pem(chain.toString().getBytes(StandardCharsets.US_ASCII),
                                armour("PRIVATE KEY", key.getEncoded()).getBytes(StandardCharsets.US_ASCII));
                    }
                }
                throw new StartupException("the keystore " + keystore + " holds no private key; make one with "
                        + "bin/ferry cert", null);
            } catch (IOException | GeneralSecurityException e) {
                throw new StartupException("cannot read the keystore " + keystore + ": " + e.getMessage(), e);
            }
        }

        private static String armour(String type, byte[] der) {
            return "-----BEGIN " + type + "-----\n"
                    + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                    + "\n-----END " + type + "-----\n";
        }

        InputStream chain() {
            return new ByteArrayInputStream(chainPem);
        }

        InputStream key() {
            return new ByteArrayInputStream(keyPem);
        }
    }
}
