package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.fabric.Fabrics;
import io.ferry.sql.EngineConfig;

/**
 * A cluster's coordinator that keeps a data directory (docs/storage.md): when it restarts while its workers keep
 * running, it adopts the blocks they still hold, checked by their checksums, instead of reading the rows from disk;
 * blocks a restarted worker lost are read from the directory, at the coordinator's restart and while it runs; and
 * regions no coordinator holds any more are freed.
 */
class CoordinatorRestartTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final EngineConfig CONFIG = EngineConfig.defaults().withThreads(2).withBlockSize(8 * 1024)
            .withMemoryLimit(256L << 20);
    @TempDir
    Path dir;
    private final List<DataNode> nodes = new ArrayList<>();
    private final List<Coordinator> coordinators = new ArrayList<>();

    @AfterEach
    void stop() {
        coordinators.forEach(Coordinator::close);
        nodes.forEach(DataNode::close);
    }

    private Coordinator coordinator(int controlPort, Path data) {
        Coordinator.Options o = new Coordinator.Options(CONFIG, "127.0.0.1", 0, controlPort, 0, null,
                Fabrics.Kind.TCP, TIMEOUT, List.of());
        Coordinator c = Coordinator.start(data == null ? o : o.withDataDirectory(data));
        coordinators.add(c);
        return c;
    }

    private DataNode worker(String name, InetSocketAddress control) {
        DataNode n = DataNode.start(new DataNode.Options(Role.WORKER, name, "127.0.0.1", 0, null, control, 1,
                64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT));
        nodes.add(n);
        return n;
    }

    /** A coordinator with two workers and two tables and a view, loaded by several statements. */
    private Coordinator loaded(Path data) throws Exception {
        Coordinator c = coordinator(0, data);
        worker("w1", c.cluster().address());
        worker("w2", c.cluster().address());
        assertTrue(c.cluster().awaitNodes(2, Duration.ofSeconds(30)), "workers joined");
        try (Connection conn = c.engine().connect()) {
            ClusterTables.load(conn);
        }
        return c;
    }

    private long blockMemory() {
        long bytes = 0;
        for (DataNode n : nodes) {
            bytes += n.blockMemory();
        }
        return bytes;
    }

    @Test
    void aRestartedCoordinatorAdoptsTheBlocksItsWorkersKept() throws Exception {
        Coordinator first = loaded(dir);
        int port = first.cluster().address().getPort();
        List<String> before = ClusterTables.answers(first);
        long memory = blockMemory();
        first.close();
        coordinators.remove(first);
        assertEquals(memory, blockMemory(), "a coordinator keeping a data directory stops without freeing blocks");

        Coordinator second = coordinator(port, dir);
        assertTrue(second.restoredFiles() > 0, "data files restored");
        assertEquals(second.restoredFiles(), second.adoptedFiles(), "every file adopted where its blocks were");
        assertEquals(before, ClusterTables.answers(second));
        assertEquals(memory, blockMemory(), "nothing was loaded again, nothing freed");

        // the adopted tables take changes as before, and the next restart adopts those too
        try (Connection conn = second.engine().connect(); Statement s = conn.createStatement()) {
            s.execute("INSERT INTO u SELECT generate_series FROM generate_series(501, 700)");
            s.execute("DELETE FROM t WHERE k % 5 = 0");
            s.execute("DROP VIEW v");
            s.execute("CREATE VIEW v AS SELECT g, MAX(k) AS top FROM t GROUP BY g");
        }
        List<String> changed = ClusterTables.answers(second);
        second.close();
        coordinators.remove(second);
        Coordinator third = coordinator(port, dir);
        assertEquals(third.restoredFiles(), third.adoptedFiles());
        assertEquals(changed, ClusterTables.answers(third));
    }

    @Test
    void blocksOfAWorkerThatRestartedAreReadFromTheDataDirectory() throws Exception {
        Coordinator first = loaded(dir);
        int port = first.cluster().address().getPort();
        List<String> before = ClusterTables.answers(first);
        first.close();
        coordinators.remove(first);
        DataNode w2 = nodes.remove(1);
        w2.close();
        worker("w2", new InetSocketAddress("127.0.0.1", port)); // a new process: its memory is gone

        Coordinator second = coordinator(port, dir);
        assertTrue(second.adoptedFiles() < second.restoredFiles(), "files with blocks on w2 are read from disk");
        assertEquals(before, ClusterTables.answers(second));
    }

    @Test
    void tablesWithBlocksOnAWorkerThatRestartedAreReadBackWhileTheCoordinatorRuns() throws Exception {
        Coordinator c = loaded(dir);
        List<String> before = ClusterTables.answers(c);
        DataNode w2 = nodes.remove(1);
        w2.close();
        worker("w2", c.cluster().address()); // a new process under the same name: its memory is gone
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> after = null;
        while (after == null) {
            try {
                after = ClusterTables.answers(c);
            } catch (SQLException e) {
                assertEquals("08006", e.getSQLState(), e.getMessage()); // w2's old blocks, until they are read back
                assertTrue(System.nanoTime() < deadline, "the tables were not read back: " + e.getMessage());
                Thread.sleep(200);
            }
        }
        assertEquals(before, after);
    }

    @Test
    void regionsNoCoordinatorHoldsAreFreed() throws Exception {
        Coordinator first = loaded(null); // in memory only: its tables are gone with it
        int port = first.cluster().address().getPort();
        assertTrue(blockMemory() > 0);
        first.close();
        coordinators.remove(first);

        Coordinator second = coordinator(port, null);
        assertTrue(second.cluster().awaitNodes(2, Duration.ofSeconds(30)), "workers rejoined");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (blockMemory() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(0, blockMemory(), "the workers freed the regions of the coordinator that is gone");
    }
}
