package io.ferry.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A query's result is made as it is read (QueryExecutor.stream): its first rows come before its last are made, it
 * holds the table it reads until it is closed or read to its end, and a cancel or a timeout between reads stops it.
 * Table {@code s} holds 100,000 good rows in about fifty blocks and, in a last block of its own, one row whose
 * {@code 10 / id} fails.
 */
class StreamedResultsTest {
    private static final int ROWS = 100_000;

    private FerryEngine engine;
    private Connection connection;

    @BeforeEach
    void load() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withBlockSize(8192));
        connection = engine.connect();
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE d (x INTEGER)");
            s.execute("INSERT INTO d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
            s.execute("CREATE TABLE s (id INTEGER, v VARCHAR)");
            s.execute("INSERT INTO s SELECT 1 + a.x * 10000 + b.x * 1000 + c.x * 100 + e.x * 10 + f.x, "
                    + "CAST(a.x AS VARCHAR) FROM d a, d b, d c, d e, d f");
            s.execute("INSERT INTO s VALUES (0, 'zero')");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
        engine.close(); // fails if a stream left Arrow memory behind
    }

    @Test
    void firstRowsComeBeforeTheLastAreMade() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, 10 / id FROM s")) {
            int read = 0;
            SQLException failed = null;
            try {
                while (rs.next()) {
                    read++;
                }
            } catch (SQLException e) {
                failed = e;
            }
            // made at once, the whole result would have failed before executeQuery returned
            assertTrue(failed != null, "the division by zero in the last block must fail the result");
            assertEquals("22012", failed.getSQLState(), failed.getMessage());
            assertTrue(read > 0 && read <= ROWS, "rows read before the failure: " + read);
        }
    }

    @Test
    void anOpenResultHoldsItsTableUntilClosed() throws SQLException {
        long before = engine.storedBytes();
        try (Statement s = connection.createStatement(); Statement drop = connection.createStatement()) {
            ResultSet rs = s.executeQuery("SELECT id, v FROM s WHERE id > 0");
            assertTrue(rs.next());
            drop.execute("DROP TABLE s");
            long held = engine.storedBytes();
            int read = 1;
            while (rs.next()) {
                read++;
            }
            // the dropped table's rows are still read, whole, from the version the result holds
            assertEquals(ROWS, read);
            rs.close();
            long after = engine.storedBytes();
            assertTrue(held == before && after < held, "stored bytes before " + before + ", held " + held
                    + ", after " + after);
        }
    }

    @Test
    void closingAResultEarlyLetsGoOfItsTable() throws SQLException {
        try (Statement s = connection.createStatement(); Statement drop = connection.createStatement()) {
            ResultSet rs = s.executeQuery("SELECT id, v FROM s");
            assertTrue(rs.next());
            drop.execute("DROP TABLE d");
            drop.execute("DROP TABLE s");
            assertTrue(engine.storedBytes() > 0, "the open result reads the dropped table");
            rs.close();
        }
        assertEquals(0, engine.storedBytes(), "bytes stored once the result is closed");
    }

    @Test
    void aCancelBetweenReadsStopsTheResult() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, v FROM s WHERE id > 0")) {
            assertTrue(rs.next());
            s.cancel();
            SQLException e = assertThrows(SQLException.class, () -> {
                while (rs.next()) {
                    // the rows already made may still come
                }
            });
            assertEquals("57014", e.getSQLState(), e.getMessage());
        }
    }

    @Test
    void theTimeoutCountsTheWorkNotTheReader() throws Exception {
        try (Statement s = connection.createStatement()) {
            s.setQueryTimeout(1);
            try (ResultSet rs = s.executeQuery("SELECT id, v FROM s WHERE id > 0")) {
                assertTrue(rs.next());
                Thread.sleep(1500); // a reader away for longer than the timeout
                int read = 1;
                while (rs.next()) {
                    read++;
                }
                assertEquals(ROWS, read);
            }
        }
    }

    @Test
    void aLimitInTheRowEngineReadsItsRowsFromTheStream() throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT UPPER(v) || '!' FROM s WHERE id BETWEEN 1 AND 5 LIMIT 3")) {
            int read = 0;
            while (rs.next()) {
                assertEquals("0!", rs.getString(1));
                read++;
            }
            assertEquals(3, read);
        }
    }
}
