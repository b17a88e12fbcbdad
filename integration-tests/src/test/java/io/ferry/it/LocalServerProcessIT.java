package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import io.ferry.server.data.SsbQueries;

/**
 * The server as users run it: `java -jar ferry-server.jar local --demo` in its own process, reached over a real
 * socket through the one-jar ferry-jdbc driver (loaded on its own, as a BI tool would). Killing the process
 * must give the client a prompt error, not a hang.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalServerProcessIT {
    private Process server;
    private int port;
    private Driver driver;
    private final List<String> output = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        Path jar = Path.of(System.getProperty("ferry.server.jar"));
        assertTrue(Files.exists(jar), "build the server jar first: " + jar);
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = new ProcessBuilder("java", "-Xmx2g", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-Darrow.enable_unsafe_memory_access=true", "-jar", jar.toString(), "local", "--demo",
                "--scale", "0.01", "--rows", "200000", "--distinct", "1000", "--port", String.valueOf(port))
                .redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (var in = server.inputReader()) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (output) {
                        output.add(line);
                        output.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        synchronized (output) {
            while (output.stream().noneMatch(l -> l.contains("is ready"))) {
                assertTrue(server.isAlive(), "server exited early: " + output);
                assertTrue(System.nanoTime() < deadline, "server not ready after 120 s: " + output);
                output.wait(500);
            }
        }
        URL driverJar = Path.of(System.getProperty("ferry.jdbc.jar")).toUri().toURL();
        ClassLoader isolated = new URLClassLoader(new URL[] {driverJar}, ClassLoader.getPlatformClassLoader());
        driver = (Driver) Class.forName("io.ferry.jdbc.FerryDriver", true, isolated).getDeclaredConstructor()
                .newInstance();
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null && server.isAlive()) {
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Connection connect() throws SQLException {
        return driver.connect("jdbc:ferry://127.0.0.1:" + port, new Properties());
    }

    @Test
    @Order(1)
    void answersThePaperQueryAndSsbOverTheWire() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(c) FROM (SELECT b, COUNT(*) AS c FROM r GROUP BY b)")) {
                rs.next();
                assertEquals(1000, rs.getLong(1));
                assertEquals(200_000, rs.getLong(2));
            }
            for (String q : List.of("Q1.1", "Q2.1", "Q3.1", "Q4.1")) {
                try (ResultSet rs = s.executeQuery(SsbQueries.get(q))) {
                    assertTrue(rs.next(), q + " returned no rows");
                }
            }
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM missing"));
            assertEquals("42P01", e.getSQLState());
        }
    }

    @Test
    @Order(2)
    void aKilledServerGivesAPromptError() throws Exception {
        Connection c = connect();
        Statement s = c.createStatement();
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM lineorder")) {
            assertTrue(rs.next());
        }
        server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        long start = System.nanoTime();
        SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*) FROM lineorder"));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "error took too long");
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
        // The connection is gone with the server: closing it may fail too, and must not hang either.
        try {
            c.close();
        } catch (SQLException expected) {
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60));
        }
    }
}
