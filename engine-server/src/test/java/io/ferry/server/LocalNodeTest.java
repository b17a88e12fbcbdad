package io.ferry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.EngineConfig;

class LocalNodeTest {
    private static final EngineConfig SMALL = EngineConfig.defaults().withThreads(2).withMemoryLimit(512L << 20)
            .withQueryMemoryLimit(128L << 20);

    @Test
    void theDemoDataIsServedAndClosingFreesEveryByte() throws SQLException {
        LocalNode node = LocalNode.start(new LocalNode.Options(SMALL, "127.0.0.1", 0,
                new LocalNode.Demo(10_000, 10, 0.001), List.of()), ProgressListener.NONE);
        try (Connection c = DriverManager.getConnection(node.server().ferryUrl()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT b) FROM r")) {
            assertTrue(rs.next());
            assertEquals(10, rs.getLong(1));
        }
        for (String table : SsbGenerator.TABLES) {
            assertTrue(node.engine().catalog().require(table).rowCount() > 0, table);
        }
        node.close();
        assertEquals(0, node.engine().allocator().getAllocatedMemory());
    }

    @Test
    void theDemoDataCanBePartitionedForItsStarJoins() throws SQLException {
        try (LocalNode node = LocalNode.start(new LocalNode.Options(SMALL, "127.0.0.1", 0,
                new LocalNode.Demo(1000, 10, 0.001, "custkey:4,partkey:2"), List.of()), ProgressListener.NONE)) {
            var catalog = node.engine().catalog();
            assertEquals(8, catalog.require(SsbGenerator.LINEORDER).partitioning().partitions());
            assertEquals(4, catalog.require(SsbGenerator.CUSTOMER).partitioning().partitions());
            assertEquals(2, catalog.require(SsbGenerator.PART).partitioning().partitions());
            assertTrue(catalog.require(SsbGenerator.DWDATE).partitioning().isNone());
            try (Connection c = DriverManager.getConnection(node.server().ferryUrl()); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM lineorder l JOIN customer c "
                            + "ON l.lo_custkey = c.c_custkey")) {
                assertTrue(rs.next());
                assertEquals(catalog.require(SsbGenerator.LINEORDER).rowCount(), rs.getLong(1));
            }
        }
    }

    @Test
    void aFailedStartLeavesNothingRunning() {
        LocalNode first = LocalNode.start(new LocalNode.Options(SMALL, "127.0.0.1", 0, null, List.of()),
                ProgressListener.NONE);
        try {
            StartupException e = assertThrows(StartupException.class, () -> LocalNode.start(new LocalNode.Options(
                    SMALL, "127.0.0.1", first.server().port(), new LocalNode.Demo(1000, 10, 0.001), List.of()),
                    ProgressListener.NONE));
            assertTrue(e.getMessage().contains("--port"), e.getMessage());
        } finally {
            first.close();
        }
    }
}
