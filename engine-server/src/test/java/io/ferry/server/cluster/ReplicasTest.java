package io.ferry.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
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
 * A coordinator with {@code --replicas 2} over two memory servers and a compute server (docs/cluster.md,
 * "Replicas"): every block is on both memory servers; with one of them gone, every query answers as before from the
 * other, and loads and DML go on; when it comes back as a new process, the blocks it lost — and those written while it
 * was down — are copied to it, so the other one can go next. A restarted coordinator adopts every copy.
 */
class ReplicasTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final EngineConfig CONFIG = EngineConfig.defaults().withThreads(2).withBlockSize(8 * 1024)
            .withMemoryLimit(256L << 20);
    @TempDir
    Path dir;
    private final List<DataNode> nodes = new ArrayList<>();
    /** The newest process of each node, by name. */
    private final java.util.Map<String, DataNode> byName = new java.util.HashMap<>();
    private final List<Coordinator> coordinators = new ArrayList<>();

    @AfterEach
    void stop() {
        coordinators.forEach(Coordinator::close);
        nodes.forEach(DataNode::close);
    }

    private Coordinator coordinator(int controlPort, Path data) {
        return coordinator(controlPort, data, ClusterStorage.REPLACE_AFTER);
    }

    private Coordinator coordinator(int controlPort, Path data, Duration replaceAfter) {
        Coordinator.Options o = new Coordinator.Options(CONFIG, "127.0.0.1", 0, controlPort, 0, null,
                Fabrics.Kind.TCP, TIMEOUT, List.of()).withReplicas(2, replaceAfter);
        Coordinator c = Coordinator.start(data == null ? o : o.withDataDirectory(data));
        coordinators.add(c);
        return c;
    }

    private DataNode node(Role role, String name, InetSocketAddress control) {
        DataNode n = DataNode.start(new DataNode.Options(role, name, "127.0.0.1", 0, null, control, 1,
                64L << 20, 64L << 20, Fabrics.Kind.TCP, TIMEOUT));
        nodes.add(n);
        byName.put(name, n);
        return n;
    }

    /** A coordinator with memory servers m1 and m2 and compute server c1, and two tables loaded by several statements. */
    private Coordinator loaded(Path data) throws Exception {
        return loaded(coordinator(0, data), 2);
    }

    /** {@code c} with memory servers m1 .. m{@code memory} and compute server c1, and the tables loaded. */
    private Coordinator loaded(Coordinator c, int memory) throws Exception {
        for (int i = 1; i <= memory; i++) {
            node(Role.MEMORY, "m" + i, c.cluster().address());
        }
        node(Role.COMPUTE, "c1", c.cluster().address());
        assertTrue(c.cluster().awaitNodes(memory + 1, Duration.ofSeconds(30)), "nodes joined");
        try (Connection conn = c.engine().connect()) {
            ClusterTables.load(conn);
        }
        return c;
    }

    /**
     * Blocks, blocks with fewer than two copies on nodes that are up, and blocks not on m1 and m2 (for the tests with
     * two memory servers), by sys.blocks.
     */
    private static long[] copies(Coordinator c) throws SQLException {
        try (Connection conn = c.engine().connect(); Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(CASE WHEN copies < 2 THEN 1 END), "
                        + "COUNT(CASE WHEN copy_nodes NOT IN ('m1,m2', 'm2,m1') THEN 1 END) FROM sys.blocks")) {
            assertTrue(rs.next());
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    /** {@code ferry_blocks_short_of_copies} as Prometheus scrapes it from the coordinator. */
    private static long shortOfCopiesMetric(Coordinator c) throws Exception {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + c.jdbc().port()
                        + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^ferry_blocks_short_of_copies (\\S+)$")
                .matcher(r.body());
        assertTrue(m.find(), r.body());
        return (long) Double.parseDouble(m.group(1));
    }

    private DataNode named(String name) {
        return byName.get(name);
    }

    /** Stops node {@code name}'s process: its memory, and every block copy there, is gone. */
    private void kill(Coordinator c, String name) throws InterruptedException {
        DataNode n = byName.remove(name);
        nodes.remove(n);
        n.close();
        awaitDown(c, name);
    }

    private static void awaitDown(Coordinator c, String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!c.cluster().up(m -> m.name().equals(name)).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, name + " is still up");
            Thread.sleep(20);
        }
    }

    /** Waits until every block has its two copies on m1 and m2 again. */
    private static void awaitCopies(Coordinator c) throws Exception {
        awaitCopies(c, true);
    }

    /** Waits until every block has two copies on nodes that are up (on m1 and m2, if {@code onM1AndM2}). */
    private static void awaitCopies(Coordinator c, boolean onM1AndM2) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long[] now = copies(c);
        while (now[1] > 0 || onM1AndM2 && now[2] > 0) {
            assertTrue(System.nanoTime() < deadline, now[1] + " of " + now[0] + " blocks short of copies");
            Thread.sleep(50);
            now = copies(c);
        }
    }

    @Test
    void queriesGoOnFromTheCopiesAndANodeThatCameBackCatchesUp() throws Exception {
        Coordinator c = loaded(null);
        long[] placed = copies(c);
        assertTrue(placed[0] > 20, "blocks: " + placed[0]);
        assertEquals(0, placed[1], "every block on two memory servers");
        assertEquals(0, placed[2], "every block on m1 and m2");
        assertEquals(named("m1").blockMemory(), named("m2").blockMemory(), "each memory server holds every block");
        List<String> before = ClusterTables.answers(c);

        // m1's process is gone: every query reads m2's copies
        kill(c, "m1");
        assertEquals(before, ClusterTables.answers(c), "the answers with m1 down");
        try (Connection conn = c.engine().connect(); Statement s = conn.createStatement()) {
            s.execute("INSERT INTO u SELECT generate_series FROM generate_series(501, 700)");
            s.execute("DELETE FROM t WHERE k % 5 = 0");
            s.execute("UPDATE t SET g = g + 1 WHERE k % 7 = 0");
        }
        List<String> changed = ClusterTables.answers(c);
        assertTrue(copies(c)[1] > 0, "blocks written while m1 is down have one copy");
        assertEquals(copies(c)[1], shortOfCopiesMetric(c), "the metric counts the blocks sys.blocks shows short");

        // m1 comes back as a new process: what it lost, and what was written meanwhile, is copied to it
        node(Role.MEMORY, "m1", c.cluster().address());
        awaitCopies(c);
        assertEquals(3, c.cluster().up(m -> true).size());
        assertEquals(0, shortOfCopiesMetric(c));
        // m2 goes: the copies m1 caught up on answer alone
        kill(c, "m2");
        assertEquals(changed, ClusterTables.answers(c), "the answers from m1's copies alone");
    }

    /**
     * With a spare memory server, a holder that stays down is replaced: once it has been down {@code --replace-after},
     * its blocks are copied to the holders up that lack them, and the cluster survives losing another one.
     */
    @Test
    void aHolderThatStaysDownIsReplacedByTheSpare() throws Exception {
        Coordinator c = loaded(coordinator(0, null, Duration.ofSeconds(1)), 3);
        assertEquals(0, copies(c)[1], "every block on two of the three memory servers");
        assertTrue(named("m3").blockMemory() > 0, "m3 holds copies too");
        List<String> before = ClusterTables.answers(c);
        kill(c, "m1");
        awaitCopies(c, false); // m1's blocks now on m2 and m3
        assertEquals(before, ClusterTables.answers(c));
        kill(c, "m2");
        assertEquals(before, ClusterTables.answers(c), "the answers from m3 alone");
    }

    @Test
    void aRestartedCoordinatorAdoptsEveryCopy() throws Exception {
        Coordinator first = loaded(dir);
        int port = first.cluster().address().getPort();
        List<String> before = ClusterTables.answers(first);
        long m1 = named("m1").blockMemory();
        first.close();
        coordinators.remove(first);

        Coordinator second = coordinator(port, dir);
        assertTrue(second.restoredFiles() > 0, "data files restored");
        assertEquals(second.restoredFiles(), second.adoptedFiles(), "every file adopted where its blocks were");
        assertEquals(0, copies(second)[1], "both copies of every block adopted");
        assertEquals(m1, named("m1").blockMemory(), "nothing loaded again, nothing freed");
        assertEquals(before, ClusterTables.answers(second));
        kill(second, "m2");
        assertEquals(before, ClusterTables.answers(second), "the answers from m1's adopted copies alone");
    }
}
