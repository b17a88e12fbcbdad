package io.ferry.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

import javax.net.ssl.SSLSocket;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.server.LocalNode;
import io.ferry.server.PasswordFile;
import io.ferry.server.ServerSecurity;
import io.ferry.server.cli.FerryCli;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.load.LoadClient;
import io.ferry.server.load.LoadRequest;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.access.AccessControl;

/**
 * HTTPS on the JDBC port with a certificate {@code bin/ferry cert} made, and a users file: ferry-jdbc, Avatica's
 * stock driver, the load client and {@code bin/ferry sql} all connect over it, trusting the certificate through the
 * truststore; a client that does not trust it, or speaks plain HTTP, gets nothing. The Arrow Flight SQL endpoint
 * serves TLS with the same keystore.
 */
class TlsTest {
    private static final String PASSWORD = "tls user password";

    @TempDir
    static Path dir;
    private static TlsKeys.Made keys;
    private static LocalNode node;

    @BeforeAll
    static void start() {
        StringWriter out = new StringWriter();
        Path tls = dir.resolve("tls");
        int code = FerryCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(out, true))
                .execute("cert", "--out", tls.toString(), "--host", "ferry.example");
        assertEquals(0, code, out.toString());
        keys = new TlsKeys.Made(tls.resolve(TlsKeys.KEYSTORE), tls.resolve(TlsKeys.PASSWORD),
                tls.resolve(TlsKeys.TRUSTSTORE), TlsKeys.fingerprint(tls.resolve(TlsKeys.KEYSTORE),
                        PasswordFile.read(tls.resolve(TlsKeys.PASSWORD))));
        assertTrue(out.toString().contains(keys.fingerprint()), out.toString());
        Path users = dir.resolve("users");
        AccessControl.addToFile(users, "tess", PASSWORD.toCharArray(), true);
        node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(256L << 20), "127.0.0.1", 0, null, List.of(dir),
                new ServerSecurity(users, false, keys.keystore(), null)), ProgressListener.NONE);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static String truststoreOptions(String separator) {
        return "truststore=" + keys.truststore() + separator + "truststore_password=" + TlsKeys.TRUSTSTORE_PASSWORD;
    }

    private static Properties login() {
        Properties p = new Properties();
        p.setProperty("user", "tess");
        p.setProperty("password", PASSWORD);
        return p;
    }

    private static long answer(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    @Test
    void theServerShowsTheCertificateCertMade() throws Exception {
        assertTrue(node.server().endpoint().toString().startsWith("https://"));
        try (SSLSocket socket = (SSLSocket) TlsKeys.trusting(keys.truststore()).getSocketFactory()
                .createSocket("127.0.0.1", node.server().port())) {
            socket.startHandshake();
            Certificate served = socket.getSession().getPeerCertificates()[0];
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(served.getEncoded());
            assertEquals(keys.fingerprint(), HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest));
        }
    }

    @Test
    void driversConnectOverHttps() throws SQLException {
        try (Connection c = DriverManager.getConnection(node.server().ferryUrl() + "&" + truststoreOptions("&"),
                login())) {
            assertEquals(42, answer(c, "SELECT 41 + 1"));
        }
        try (Connection c = DriverManager.getConnection(node.server().avaticaUrl() + ";" + truststoreOptions(";")
                + ";authentication=BASIC;avatica_user=tess;avatica_password=" + PASSWORD)) {
            assertEquals(7, answer(c, "SELECT 3 + 4"));
        }
    }

    @Test
    void aClientThatDoesNotTrustTheCertificateOrSpeaksHttpGetsNothing() throws Exception {
        SQLException untrusted = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(node.server().ferryUrl(), login()));
        assertEquals("08001", untrusted.getSQLState(), untrusted.getMessage());
        // plain HTTP gets a TLS record back, no HTTP answer
        URI plain = URI.create("http://127.0.0.1:" + node.server().port() + "/");
        assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain)
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void loadsAndTheShellGoOverHttps() throws Exception {
        Path csv = Files.writeString(dir.resolve("tls.csv"), "k\n1\n2\n3\n");
        String basic = "Basic " + Base64.getEncoder().encodeToString(("tess:" + PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(3, LoadClient.load(node.server().endpoint(), LoadRequest.of("over_tls", csv.toString())
                .withCreate(true), basic, TlsKeys.trusting(keys.truststore()), ProgressListener.NONE).rows());
        Path password = Files.writeString(dir.resolve("tess-password"), PASSWORD + "\n");
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int code;
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            code = FerryCli.commandLine().execute("sql", "--port", String.valueOf(node.server().port()),
                    "--truststore", keys.truststore().toString(), "--user", "tess", "--password-file",
                    password.toString(), "-e", "SELECT SUM(k) AS total FROM over_tls");
        } finally {
            System.setOut(stdout);
        }
        String printed = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed);
        assertTrue(printed.contains("\"total\"\n\"6\""), printed);
    }

    @Test
    void flightSqlServesTlsWithTheSameKeystore() throws Exception {
        int port = node.serveFlight(0).port();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys.truststore())) {
            trust.load(in, TlsKeys.TRUSTSTORE_PASSWORD.toCharArray());
        }
        String alias = Collections.list(trust.aliases()).get(0);
        String pem = "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder()
                .encodeToString(trust.getCertificate(alias).getEncoded()) + "\n-----END CERTIFICATE-----\n";
        try (BufferAllocator allocator = new RootAllocator()) {
            try (FlightClient client = FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", port))
                    .trustedCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))).build()) {
                CallOption auth = client.authenticateBasicToken("tess", PASSWORD).orElseThrow();
                FlightSqlClient sql = new FlightSqlClient(client);
                FlightInfo info = sql.execute("SELECT 40 + 2 AS answer", auth);
                try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), auth)) {
                    assertTrue(stream.next());
                    assertEquals("42", stream.getRoot().getVector(0).getObject(0).toString());
                }
            }
            // a client speaking plain gRPC to the TLS port gets nothing, and fails rather than hangs
            try (FlightClient plain = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port))
                    .build()) {
                assertThrows(FlightRuntimeException.class, () -> plain.authenticateBasicToken("tess", PASSWORD));
            }
        }
    }
}
