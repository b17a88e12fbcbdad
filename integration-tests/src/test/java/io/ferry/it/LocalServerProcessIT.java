package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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

import io.ferry.bench.NodeProcess;
import io.ferry.server.data.SsbQueries;

/**
 * The server as users run it: `java -jar ferry-server.jar local --demo` in its own process, reached over a real
 * socket through the one-jar ferry-jdbc driver (loaded on its own, as a BI tool would). Killing the process
 * must give the client a prompt error, not a hang.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalServerProcessIT {
    private NodeProcess server;
    private int port;
    private Driver driver;

    @BeforeAll
    void start() throws Exception {
        port = NodeProcess.freePort();
        server = ServerJar.start("local", "2g", "local", "--in-memory", "--demo", "--scale", "0.01", "--rows", "200000",
                "--distinct", "1000", "--port", String.valueOf(port));
        server.await("is ready", Duration.ofSeconds(120));
        driver = FerryDriverLoader.load();
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.kill();
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

    /**
     * SIGTERM stops the server within its 5 s deadline even while a query runs that would take hours (a
     * nested-loop join of 100 000 × 100 000 rows in the row engine); it used to print "Stopping Ferry..." and run on.
     */
    @Test
    @Order(2)
    void aStoppedServerExitsWhileAQueryRuns() throws Exception {
        int busyPort = NodeProcess.freePort();
        try (NodeProcess busy = ServerJar.start("busy", "1g", "local", "--in-memory", "--demo", "--scale", "0.01", "--rows", "100000",
                "--distinct", "1000", "--port", String.valueOf(busyPort))) {
            busy.await("is ready", Duration.ofSeconds(120));
            Thread query = new Thread(() -> {
                try (Connection c = driver.connect("jdbc:ferry://127.0.0.1:" + busyPort, new Properties());
                        Statement s = c.createStatement()) {
                    s.executeQuery("SELECT COUNT(*) FROM r x, r y WHERE x.a + y.a < x.b - y.b");
                } catch (SQLException expected) {
                    // the server goes away under it
                }
            }, "long-query");
            query.setDaemon(true);
            Duration idle = busy.cpuTime();
            query.start();
            // the query is running once the server has spent two seconds of CPU on it
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (busy.cpuTime().minus(idle).compareTo(Duration.ofSeconds(2)) < 0 && System.nanoTime() < deadline) {
                query.join(100);
            }
            assertTrue(busy.cpuTime().minus(idle).compareTo(Duration.ofSeconds(2)) >= 0 && query.isAlive(),
                    "the server was running the query");
            long start = System.nanoTime();
            assertTrue(busy.terminate(Duration.ofSeconds(10)), "the server exits within 10 s of SIGTERM");
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
        }
    }

    @Test
    @Order(3)
    void aKilledServerGivesAPromptError() throws Exception {
        Connection c = connect();
        Statement s = c.createStatement();
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM lineorder")) {
            assertTrue(rs.next());
        }
        server.kill();
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
