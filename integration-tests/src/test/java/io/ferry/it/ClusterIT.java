package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.bench.NodeProcess;
import io.ferry.server.LocalNode;
import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbQueries;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * A cluster as users start it: a coordinator and its nodes, each a separate JVM from the built server jar, joined
 * over real sockets, reached through the ferry-jdbc driver. Every query is answered in forced function shipping,
 * forced data shipping and auto mode, and each answer must equal DuckDB's and Ferry's local mode's over the same
 * demo rows (generated again in this JVM by the same deterministic generators). Then the failure paths: a query
 * timeout and a cancel stop the work on every node, and a node killed mid-query fails the query promptly, naming
 * the node. Subclasses choose the layout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class ClusterIT {
    private static final LocalNode.Demo DEMO = new LocalNode.Demo(200_000, 1_000, 0.01);
    /** A self-join multiplying rows 4,000-fold: seconds of work on every node, to interrupt. */
    static final String SLOW = "SELECT COUNT(*), SUM(x.a - y.a) FROM heavy x JOIN heavy y ON x.k = y.k";

    /** A node of the layout: its name, and the role arguments that start it. */
    record Node(String name, String... args) {
    }

    private final List<NodeProcess> processes = new ArrayList<>();
    private NodeProcess coordinator;
    private int controlPort;
    private int port;
    private Driver driver;
    private FerryEngine local;
    private Connection localConnection;
    private DuckDbMirror duck;

    /** The nodes besides the coordinator. */
    abstract List<Node> nodes();

    /** The node the kill test kills. */
    abstract String victim();

    /** Whether queries still work without the victim (its blocks live elsewhere). */
    abstract boolean clusterSurvivesVictim();

    /** A memory server the last test kills, or null where no node only holds memory. */
    String memoryVictim() {
        return null;
    }

    /** The coordinator's options beyond those every layout gets. */
    List<String> coordinatorOptions() {
        return List.of();
    }

    @BeforeAll
    void startCluster() throws Exception {
        port = NodeProcess.freePort();
        controlPort = NodeProcess.freePort();
        List<String> args = new ArrayList<>(List.of("coordinator", "--port", String.valueOf(port),
                "--control-port", String.valueOf(controlPort), "--threads", "2", "--timeout", "10", "--demo",
                "--expect-nodes", String.valueOf(nodes().size()), "--rows", String.valueOf(DEMO.rows()),
                "--distinct", String.valueOf(DEMO.distinct()), "--scale", String.valueOf(DEMO.scale())));
        args.addAll(coordinatorOptions());
        coordinator = ServerJar.start("coordinator", "1g", args.toArray(String[]::new));
        processes.add(coordinator);
        coordinator.await("nodes join at", Duration.ofSeconds(60));
        for (Node n : nodes()) {
            processes.add(startNode(n));
        }
        coordinator.await("Demo data loaded", Duration.ofSeconds(180));
        driver = FerryDriverLoader.load();

        local = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        DEMO.load(local.catalog(), ProgressListener.NONE);
        localConnection = local.connect();
        duck = DuckDbMirror.of(local.catalog());
        try (Connection c = connect(); Statement s = c.createStatement();
                Statement d = duck.connection().createStatement()) {
            s.execute("CREATE TABLE heavy AS SELECT a, MOD(b, 50) AS k FROM r");
            d.execute("CREATE TABLE heavy AS SELECT a, MOD(b, 50) AS k FROM r");
        }
    }

    private NodeProcess startNode(Node n) throws Exception {
        return ServerJar.node(n.name(), controlPort, n.args());
    }

    @AfterAll
    void stopCluster() throws Exception {
        for (NodeProcess p : processes) {
            p.close();
        }
        if (localConnection != null) {
            localConnection.close();
        }
        if (duck != null) {
            duck.close();
        }
        if (local != null) {
            local.close();
        }
    }

    Connection connect() throws SQLException {
        return driver.connect("jdbc:ferry://127.0.0.1:" + port, new Properties());
    }

    static Stream<Arguments> queriesInEveryMode() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data", "auto")) {
            out.add(Arguments.of(mode, "paper", "SELECT b, COUNT(*) FROM r GROUP BY b"));
            for (Map.Entry<String, String> q : SsbQueries.all().entrySet()) {
                out.add(Arguments.of(mode, q.getKey(), q.getValue()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{1} with shipping = {0}")
    @MethodSource("queriesInEveryMode")
    @Order(1)
    void answersEqualDuckDbAndLocalMode(String mode, String name, String sql) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET shipping = '" + mode + "'");
            ResultComparison.assertSameResult(c, duck.connection(), sql, false);
            ResultComparison.assertSameResult(c, localConnection, sql, false);
            List<String> modes = lastQueryModes(s);
            assertFalse(modes.isEmpty(), name + ": sys.fragments recorded no units of work");
            if (!mode.equals("auto")) {
                assertTrue(modes.stream().allMatch(mode::equals), name + " ran in " + modes + ", not " + mode);
            }
        }
    }

    /** The shipping mode of every unit of the most recent query in sys.fragments. */
    static List<String> lastQueryModes(Statement s) throws SQLException {
        List<String> modes = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT mode FROM sys.fragments WHERE query_id = "
                + "(SELECT MAX(query_id) FROM sys.fragments)")) {
            while (rs.next()) {
                modes.add(rs.getString(1));
            }
        }
        return modes;
    }

    @Test
    @Order(2)
    void dataShippingLeavesTheNodesIdle() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET shipping = 'data'");
            s.executeQuery(SsbQueries.get("Q1.1")).close();
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(node_cpu_ms) FROM sys.fragments WHERE query_id = "
                    + "(SELECT MAX(query_id) FROM sys.fragments)")) {
                assertTrue(rs.next());
                assertTrue(rs.getLong(1) > 0);
                assertEquals(0.0, rs.getDouble(2), "in data shipping no node runs query code");
            }
        }
    }

    @Test
    @Order(3)
    void aQueryTimeoutStopsTheWorkOnEveryNode() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET shipping = 'function'");
            s.setQueryTimeout(2);
            long t0 = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(SLOW).close());
            assertEquals("57014", e.getSQLState(), e.getMessage());
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(15), "the timeout took too long to act");
            awaitNoFragmentsRunning(c);
        }
    }

    @Test
    @Order(4)
    void cancelStopsTheWorkOnEveryNode() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            CompletableFuture<SQLException> failure = startSlowQuery(s);
            s.cancel();
            SQLException e = failure.get(15, TimeUnit.SECONDS);
            assertTrue(e != null, "the query finished although it was cancelled");
            assertEquals("57014", e.getSQLState(), e.getMessage());
            awaitNoFragmentsRunning(c);
        }
    }

    @Test
    @Order(4)
    void aPreparedStatementsTimeoutAndCancelStopTheWorkToo() throws Exception {
        try (Connection c = connect(); Statement set = c.createStatement();
                PreparedStatement ps = c.prepareStatement(SLOW)) {
            set.execute("SET shipping = 'function'");
            ps.setQueryTimeout(2);
            SQLException timedOut = assertThrows(SQLException.class, () -> ps.executeQuery().close());
            assertEquals("57014", timedOut.getSQLState(), timedOut.getMessage());
            awaitNoFragmentsRunning(c);
            ps.setQueryTimeout(0);
            CompletableFuture<SQLException> failure = QueryInBackground.start(ps::executeQuery);
            awaitFragmentsRunning(null);
            ps.cancel();
            SQLException cancelled = failure.get(15, TimeUnit.SECONDS);
            assertTrue(cancelled != null, "the prepared query finished although it was cancelled");
            assertEquals("57014", cancelled.getSQLState(), cancelled.getMessage());
            awaitNoFragmentsRunning(c);
        }
    }

    @Test
    @Order(5)
    void aNodeKilledMidQueryFailsItPromptlyNamingTheNode() throws Exception {
        NodeProcess victim = processes.stream().filter(p -> p.name().equals(victim())).findFirst()
                .orElseThrow();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            // a compute server's work would move to the others (the next test): here it may not
            s.execute("SET retry = 'off'");
            // each unit on its own blocks: a stealing victim may have delivered all it had to do before it dies,
            // and the query then rightly answers without it (stealing under a kill: the steal-kill test)
            s.execute("SET steal = 'off'");
            killAndExpect08006(victim, victim(), startSlowQuery(s));
        }
        // A new connection works, sees the node down with a reason, and the rest of the cluster still answers.
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertEquals("down", nodeState(s, victim()));
            if (clusterSurvivesVictim()) {
                ResultComparison.assertSameResult(c, duck.connection(), SsbQueries.get("Q1.1"), false);
            } else {
                SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT COUNT(*) FROM r"));
                assertEquals("08006", e.getSQLState(), e.getMessage());
                assertTrue(e.getMessage().contains(victim()), e.getMessage());
            }
        }
        // The node restarts and rejoins under its name.
        restartVictim();
    }

    /**
     * I-Store DPE section 2: a compute server holds nothing, so when one dies mid-query its units run once more on
     * the others and the query still answers as DuckDB does; nothing of it stays registered on the survivors.
     */
    @Test
    @Order(6)
    void aComputeServerKilledMidQueryHasItsWorkRunAgainOnTheOthers() throws Exception {
        Assumptions.assumeTrue(clusterSurvivesVictim(), "only work on a node that holds no data can move");
        NodeProcess victim = newest(victim());
        long[] expected = countAndSum(duck.connection(), SLOW);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            Map<String, Long> idle = regions(s);
            s.execute("SET shipping = 'function'");
            assertArrayEquals(expected, answerWhileKilling(c, victim), "the answer after " + victim()
                    + " was killed mid-query");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.fragments WHERE query_id = "
                    + "(SELECT MAX(query_id) FROM sys.fragments) AND reason LIKE 'run again%" + victim() + " was lost%'")) {
                assertTrue(rs.next());
                assertTrue(rs.getLong(1) >= 1, "sys.fragments shows no unit run again");
            }
            awaitRegions(s, idle, victim());
            s.execute("SET retry = 'off'");
        }
    }

    /**
     * I-Store skew paper section 4 with a fault: under {@code SET steal = 'on'} the compute servers claim blocks from
     * work queues, so when one dies the blocks it had claimed and not delivered — whoever's queue they came from —
     * run once more on the coordinator, and the answer is still DuckDB's; the queues' words and everything else of
     * the query are freed on the survivors.
     */
    @Test
    @Order(7)
    void aComputeServerKilledWhileStealingHasItsClaimedBlocksRunAgain() throws Exception {
        Assumptions.assumeTrue(clusterSurvivesVictim(), "only work on a node that holds no data can move");
        restartVictim();
        NodeProcess victim = newest(victim());
        long[] expected = countAndSum(duck.connection(), SLOW);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            Map<String, Long> idle = regions(s);
            s.execute("SET retry = 'on'");
            s.execute("SET shipping = 'function'");
            s.execute("SET execution = 'gather'");
            s.execute("SET steal = 'on'");
            String plan = ResultComparison.plan(c, SLOW);
            assertTrue(plan.contains("steal=on: "), plan);
            assertArrayEquals(expected, answerWhileKilling(c, victim), "the answer after " + victim()
                    + " was killed mid-query");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.fragments WHERE query_id = "
                    + "(SELECT MAX(query_id) FROM sys.fragments) AND reason LIKE 'run again here: " + victim()
                    + " was lost with % blocks it had claimed from the work queues'")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1), "sys.fragments shows no claimed blocks run again");
            }
            awaitRegions(s, idle, victim());
            s.execute("RESET ALL");
        }
    }

    /** {@link #SLOW}'s answer on {@code c}, with {@code victim} killed once its fragments run. */
    private long[] answerWhileKilling(Connection c, NodeProcess victim) throws Exception {
        CompletableFuture<long[]> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return countAndSum(c, SLOW);
            } catch (SQLException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        awaitFragmentsRunning(victim());
        victim.kill();
        return answer.get(60, TimeUnit.SECONDS);
    }

    /** Starts the victim again, unless it is up, and waits until it has rejoined under its name. */
    private void restartVictim() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            if (!"up".equals(nodeState(s, victim()))) {
                Node again = nodes().stream().filter(n -> n.name().equals(victim())).findFirst().orElseThrow();
                processes.add(startNode(again));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!"up".equals(nodeState(s, victim()))) {
                assertTrue(System.nanoTime() < deadline, victim() + " did not rejoin:\n" + coordinator.output());
                Thread.sleep(200);
            }
        }
    }

    /** A memory server killed mid-query: the query fails with 08006 naming it, and the survivors keep nothing of it. */
    @Test
    @Order(8)
    void aMemoryServerKilledMidQueryFailsItAndLeavesNothingRegistered() throws Exception {
        Assumptions.assumeTrue(memoryVictim() != null, "this layout has no memory-only node");
        NodeProcess victim = newest(memoryVictim());
        try (Connection c = connect(); Statement s = c.createStatement()) {
            Map<String, Long> idle = regions(s);
            // one read ahead of the probe: the compute servers are still reading from the victim when it dies
            s.execute("SET prefetch = 1");
            killAndExpect08006(victim, memoryVictim(), startSlowQuery(s));
            awaitRegions(s, idle, memoryVictim());
        }
    }

    /** Kills {@code victim} while {@code failure}'s query runs: it must fail within 10 s with 08006 naming the node. */
    private static void killAndExpect08006(NodeProcess victim, String name, CompletableFuture<SQLException> failure)
            throws Exception {
        victim.kill();
        long killed = System.nanoTime();
        SQLException e = failure.get(30, TimeUnit.SECONDS);
        assertTrue(e != null, "the query finished although " + name + " was killed");
        assertTrue(System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(10), "the failure took too long");
        assertEquals("08006", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains(name), "the error must name the node: " + e.getMessage());
    }

    private NodeProcess newest(String name) {
        NodeProcess found = null;
        for (NodeProcess p : processes) {
            if (p.name().equals(name)) {
                found = p;
            }
        }
        return java.util.Objects.requireNonNull(found, name);
    }

    private static long[] countAndSum(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    /** Fabric regions registered on each node that is up. */
    private static Map<String, Long> regions(Statement s) throws SQLException {
        Map<String, Long> out = new java.util.TreeMap<>();
        try (ResultSet rs = s.executeQuery("SELECT name, regions FROM sys.nodes WHERE state = 'up'")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    /** Heartbeats report every 500 ms: within 5 s every survivor is back to the regions it had idle. */
    private static void awaitRegions(Statement s, Map<String, Long> idle, String gone) throws Exception {
        Map<String, Long> expected = new java.util.TreeMap<>(idle);
        expected.remove(gone);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Map<String, Long> now = regions(s);
        now.remove(gone);
        while (!now.equals(expected)) {
            assertTrue(System.nanoTime() < deadline, "regions still registered: idle " + expected + ", now " + now);
            Thread.sleep(100);
            now = regions(s);
            now.remove(gone);
        }
    }

    @Test
    @Order(4)
    void aClientThatClosesItsConnectionStopsTheWorkOnEveryNode() throws Exception {
        Connection c = connect();
        CompletableFuture<SQLException> failure = startSlowQuery(c.createStatement());
        c.close();
        try (Connection watching = connect()) {
            awaitNoFragmentsRunning(watching);
        }
        assertTrue(failure.get(15, TimeUnit.SECONDS) != null, "the query finished although its connection closed");
    }

    /** The state of the newest member named {@code name}. */
    private static String nodeState(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT state FROM sys.nodes WHERE name = '" + name + "' ORDER BY id DESC")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Fragments running on the nodes that are up, or on node {@code name} only. */
    private static long fragmentsRunning(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT SUM(fragments_running) FROM sys.nodes WHERE state = 'up'"
                + (name == null ? "" : " AND name = '" + name + "'"))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Runs {@link #SLOW} on the nodes in the background; returns once they run it, with the error it ends with. */
    private CompletableFuture<SQLException> startSlowQuery(Statement s) throws Exception {
        s.execute("SET shipping = 'function'");
        CompletableFuture<SQLException> failure = QueryInBackground.start(() -> s.executeQuery(SLOW));
        awaitFragmentsRunning(null);
        return failure;
    }

    /** Waits until a node (or node {@code name}) runs a fragment. */
    private void awaitFragmentsRunning(String name) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (fragmentsRunning(s, name) == 0) {
                assertTrue(System.nanoTime() < deadline, (name == null ? "no node" : name)
                        + " started the slow query");
                Thread.sleep(100);
            }
        }
    }

    /** Heartbeats report every 500 ms: within a few seconds no node may still run the stopped query. */
    private void awaitNoFragmentsRunning(Connection c) throws Exception {
        try (Statement s = c.createStatement()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (fragmentsRunning(s, null) > 0) {
                assertTrue(System.nanoTime() < deadline, "nodes still run the stopped query after 5 s");
                Thread.sleep(100);
            }
        }
    }
}
