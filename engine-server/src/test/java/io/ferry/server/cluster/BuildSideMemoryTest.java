package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.sql.ResultComparison;
import io.ferry.sql.SqlErrors;

/**
 * A join whose build side does not fit a compute server's query memory (I-Store DPE section 4.2: each compute server
 * builds its own hash tables from the build partitions it streams in) spills on that server and answers as DuckDB
 * does; with spilling off it fails with 53200 naming the compute server, the table and the setting to raise — not
 * with an OutOfMemoryError — and the cluster goes on answering.
 */
class BuildSideMemoryTest {
    private static final String JOIN = "SELECT COUNT(*), SUM(y.g) FROM big x JOIN big y ON x.k = y.k";

    @TempDir
    Path spillDir;

    @Test
    void aBuildSideOverTheComputeServersLimitSpillsThereAndAnswers() throws Exception {
        try (MemoryComputeCluster cluster = MemoryComputeCluster.start(1, 1, 2, 64L << 20, 4L << 20, 0, spillDir);
                Connection ferry = cluster.coordinator().engine().connect();
                Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            load(ferry, duck);
            ResultComparison.assertSameResult(ferry, duck, JOIN, false);
            try (Stream<Path> left = Files.list(spillDir)) {
                assertEquals(0, left.count(), "the compute server removed its spill files");
            }
        }
    }

    @Test
    void withoutSpillingItFailsWith53200NamingTableAndSetting() throws Exception {
        try (MemoryComputeCluster cluster = MemoryComputeCluster.start(1, 1, 2, 64L << 20, 4L << 20, 0, null);
                Connection ferry = cluster.coordinator().engine().connect();
                Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = ferry.createStatement()) {
            load(ferry, duck);
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(JOIN).close());
            SqlErrors.Translated t = SqlErrors.translate(e);
            assertEquals("53200", t.sqlState(), e.getMessage());
            assertTrue(t.message().contains("build side of a join (reading big)"), t.message());
            assertTrue(t.message().contains("--query-memory"), t.message());
            assertTrue(t.message().contains("compute compute1"), "names the node whose limit it was: " + t.message());
            assertFalse(t.message().contains("Exception"), t.message());
            // the same join with a build side that fits answers as DuckDB does, on the same connection
            ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*), SUM(y.g) FROM big x "
                    + "JOIN (SELECT k, g FROM big WHERE k < 20000) y ON x.k = y.k", false);
        }
    }

    private static void load(Connection ferry, Connection duck) throws SQLException {
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
}
