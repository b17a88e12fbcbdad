package io.ferry.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class FerryUrlTest {

    @Test
    void hostAndPort() throws SQLException {
        FerryUrl url = FerryUrl.parse("jdbc:ferry://db.example.com:9000");
        assertEquals("db.example.com", url.host());
        assertEquals(9000, url.port());
        assertEquals("http://db.example.com:9000", url.endpoint());
        assertTrue(url.options().isEmpty());
    }

    @Test
    void defaultPortTrailingSlashAndOptions() throws SQLException {
        FerryUrl url = FerryUrl.parse("jdbc:ferry://localhost/?user=ann&tls=true&note=a%20b");
        assertEquals(FerryUrl.DEFAULT_PORT, url.port());
        assertEquals("https://localhost:8765", url.endpoint());
        assertEquals(Map.of("user", "ann", "note", "a b"), url.options());
    }

    @Test
    void ipv6() throws SQLException {
        assertEquals("http://[::1]:8765", FerryUrl.parse("jdbc:ferry://[::1]:8765").endpoint());
    }

    @Test
    void malformedUrlsSayWhatIsExpected() {
        for (String bad : new String[] {"jdbc:ferry://", "jdbc:ferry://h:1/db", "jdbc:ferry://h?novalue",
                "jdbc:ferry://h:port"}) {
            SQLException e = assertThrows(SQLException.class, () -> FerryUrl.parse(bad), bad);
            assertEquals("08001", e.getSQLState());
            assertTrue(e.getMessage().contains("jdbc:ferry://host[:port]"), e.getMessage());
        }
    }

    @Test
    void driverIsRegisteredForItsPrefixOnly() throws SQLException {
        Driver driver = DriverManager.getDriver("jdbc:ferry://localhost:1");
        assertTrue(driver instanceof FerryDriver);
        assertFalse(driver.acceptsURL("jdbc:ferry:embedded:engine=x"));
        assertNull(driver.connect("jdbc:avatica:remote:url=http://localhost:1", new Properties()));
    }

    @Test
    void unreachableServerIsAConnectionError() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:ferry://127.0.0.1:1"));
        assertEquals("08001", e.getSQLState());
        assertTrue(e.getMessage().contains("http://127.0.0.1:1"), e.getMessage());
    }
}
