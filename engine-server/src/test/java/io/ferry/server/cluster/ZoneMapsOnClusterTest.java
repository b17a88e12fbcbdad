package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ferry.fabric.Fabrics;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.ResultComparison;
import io.ferry.sql.ZoneMapData;

/**
 * Zone maps on a coordinator with two workers, whose memory holds the blocks: the coordinator's catalog keeps each
 * block's zone map beside its location and leaves out the blocks a filter rules out before it ships anything, so a
 * worker (function shipping) runs its fragment on fewer blocks and the coordinator (data shipping) reads fewer. Every
 * answer matches DuckDB's, with and without the indexes, in both modes.
 */
class ZoneMapsOnClusterTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static Coordinator coordinator;
    private static final List<DataNode> nodes = new ArrayList<>();
    private static Connection ferry;
    private static Connection duck;

    @BeforeAll
    static void start() throws Exception {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(8192);
        coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null, Fabrics.Kind.TCP,
                TIMEOUT, List.of()));
        InetSocketAddress control = coordinator.cluster().address();
        for (int i = 1; i <= 2; i++) {
            nodes.add(DataNode.start(new DataNode.Options(Role.WORKER, "w" + i, "127.0.0.1", 0, null, control, 1,
                    64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT)));
        }
        assertTrue(coordinator.cluster().awaitNodes(2, Duration.ofSeconds(30)), "workers joined");
        ferry = coordinator.engine().connect();
        duck = DriverManager.getConnection("jdbc:duckdb:");
        ZoneMapData.load(ferry, duck);
    }

    @AfterAll
    static void stop() throws SQLException {
        if (ferry != null) {
            ferry.close();
            duck.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
        for (DataNode n : nodes) {
            n.close();
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Statement s = ferry.createStatement()) {
            s.execute(sql);
        }
    }

    /** Blocks of z read and skipped so far, as sys.tables counts them. */
    private static long[] counters() throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT blocks, blocks_read, blocks_skipped, nodes FROM sys.tables WHERE name = 'z'")) {
            assertTrue(rs.next());
            assertEquals(2, rs.getInt(4), "z's blocks are spread over both workers");
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    /** Rows the workers and the coordinator went through for the latest query, per sys.fragments. */
    private static long fragmentRows() throws SQLException {
        try (Statement s = ferry.createStatement(); ResultSet rs = s.executeQuery("SELECT SUM(row_count) FROM "
                + "sys.fragments WHERE query_id = (SELECT MAX(query_id) FROM sys.fragments)")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /**
     * In {@code mode}, runs every query against DuckDB, then a range of 101 keys: returns the blocks of z that read,
     * checking that the rest were counted as skipped.
     */
    private static long blocksReadFor(String mode) throws SQLException {
        execute("SET shipping = '" + mode + "'");
        for (String q : ZoneMapData.QUERIES) {
            ResultComparison.assertSameResult(ferry, duck, q, false);
        }
        long[] before = counters();
        ResultComparison.assertSameResult(ferry, duck, "SELECT COUNT(*), SUM(k) FROM z WHERE k BETWEEN 4000 AND 4100",
                false);
        long[] after = counters();
        long read = after[1] - before[1];
        assertEquals(before[0] - read, after[2] - before[2], mode + ": every block read or skipped");
        return read;
    }

    @Test
    void bothShippingModesSkipBlocksAndAnswerAsDuckDb() throws SQLException {
        for (String mode : List.of("function", "data")) {
            assertEquals(counters()[0], blocksReadFor(mode), mode + ": no index, every block read");
            assertEquals(ZoneMapData.ROWS, fragmentRows(), mode);
        }
        for (String c : ZoneMapData.INDEXED) {
            execute("CREATE INDEX z_" + c + " ON z (" + c + ")");
        }
        for (String mode : List.of("function", "data")) {
            long read = blocksReadFor(mode);
            assertTrue(read >= 1 && read <= 3, mode + ": " + read + " blocks read for 101 consecutive keys");
            assertTrue(fragmentRows() < 500, mode + ": the units held only the blocks read");
        }
        try (Statement s = ferry.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT id FROM z WHERE k = 5000")) {
            StringBuilder plan = new StringBuilder();
            while (rs.next()) {
                plan.append(rs.getString(1));
            }
            assertTrue(plan.toString().contains("zonemap=[k: reads 1 of " + counters()[0] + " blocks]"),
                    plan.toString());
            assertTrue(plan.toString().contains(" on 1 units"), plan.toString());
        }
        // Rows a DML statement writes go to new blocks on the workers, with zone maps made as they are written
        for (String sql : List.of("INSERT INTO z (id, k, d) VALUES (30000, 77777, -12345.5)",
                "UPDATE z SET k = -k WHERE k BETWEEN 20 AND 29", "DELETE FROM z WHERE k BETWEEN 300 AND 399")) {
            execute(sql);
            try (Statement s = duck.createStatement()) {
                s.execute(sql);
            }
        }
        for (String mode : List.of("function", "data")) {
            execute("SET shipping = '" + mode + "'");
            for (String q : List.of("SELECT id, k FROM z WHERE k = 77777", "SELECT id, k FROM z WHERE k < 0",
                    "SELECT COUNT(*) FROM z WHERE k BETWEEN 250 AND 450", "SELECT id FROM z WHERE d < -10000")) {
                ResultComparison.assertSameResult(ferry, duck, q, false);
            }
        }
        execute("SET shipping = 'auto'");
    }
}
