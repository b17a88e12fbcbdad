package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.sql.ResultComparison;
import io.ferry.sql.SqlErrors;

/**
 * A join whose build side does not fit a compute server's query memory (I-Store DPE section 4.2: each compute server
 * builds its own hash tables from the build partitions it streams in) fails with 53200 naming the compute server, the
 * table and the setting to raise — not with an OutOfMemoryError — and the cluster goes on answering.
 */
class BuildSideMemoryTest {
    private static MemoryComputeCluster cluster;
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        cluster = MemoryComputeCluster.start(1, 1, 2, 64L << 20, 4L << 20);
        ferry = cluster.coordinator().engine().connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement d = duck.createStatement(); Statement f = ferry.createStatement()) {
            d.execute("CREATE TABLE big AS SELECT i AS k, i % 100 AS g FROM range(400000) r(i)");
            f.execute("CREATE TABLE small (k BIGINT)");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                values.append(i == 0 ? "" : ", ").append('(').append(i).append(')');
            }
            f.execute("INSERT INTO small VALUES " + values);
            f.execute("CREATE TABLE big AS SELECT x.k * 1000 + y.k AS k, MOD(x.k * 1000 + y.k, 100) AS g "
                    + "FROM small x, small y WHERE x.k < 400");
            f.execute("SET shipping = 'function'");
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        if (ferry != null) {
            ferry.close();
        }
        if (duck != null) {
            duck.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aBuildSideOverTheComputeServersLimitFailsWith53200NamingTableAndSetting() throws SQLException {
        try (Statement s = ferry.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(
                    "SELECT COUNT(*), SUM(y.g) FROM big x JOIN big y ON x.k = y.k").close());
            SqlErrors.Translated t = SqlErrors.translate(e);
            assertEquals("53200", t.sqlState(), e.getMessage());
            assertTrue(t.message().contains("build side of a join (reading big)"), t.message());
            assertTrue(t.message().contains("--query-memory"), t.message());
            assertTrue(t.message().contains("compute compute1"), "names the node whose limit it was: " + t.message());
            assertFalse(t.message().contains("Exception"), t.message());
        }
        // the same join with a build side that fits answers as DuckDB does, on the same connection
        ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*), SUM(y.g) FROM big x "
                + "JOIN (SELECT k, g FROM big WHERE k < 20000) y ON x.k = y.k", false);
    }
}
