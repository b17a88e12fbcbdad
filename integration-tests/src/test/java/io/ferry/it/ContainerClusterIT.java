package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

import io.ferry.server.LocalNode;
import io.ferry.server.correctness.DuckDbMirror;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbQueries;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.ResultComparison;

/**
 * Ferry's image and cluster for real, with podman (docs/deploy.md): builds the image from {@code docker/Dockerfile}
 * (target {@code prebuilt}, on a Debian base image made from Debian's packages, {@code containers/base-image.sh}),
 * starts docker/compose.yaml's layout — a coordinator, two memory and two compute servers, each in its container on a
 * bridge network of its own, over the tcp fabric, the coordinator loading the demo data partitioned for SSB's joins —
 * and from this JVM, through the coordinator's published port, runs the 13 SSB queries in function shipping, data
 * shipping and pipelined execution against DuckDB's answers over the same rows. Then pauses a memory server's
 * container past the silence limit and resumes it: it comes back with its blocks. Then kills the coordinator's
 * container and starts it again: it adopts every block the memory servers kept (its tables are in the image's
 * {@code FERRY_DATA_DIR}). Then kills a memory server's container mid-query: the query fails with 08006 naming it. Removes the containers, network and image it made
 * (the base image stays, for the next run).
 *
 * <p>Skipped where podman is missing, unless {@code FERRY_REQUIRE_CONTAINERS=1} (CI, which installs it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerClusterIT {
    private static final String IMAGE = "localhost/ferry:it";
    private static final String BASE = "localhost/debian:bookworm";
    private static final String NETWORK = "ferry-it";
    /** A range for benchmarking networks (RFC 2544): never anyone's real hosts. */
    private static final String SUBNET = "198.18.0.0/24";
    private static final String PREFIX = "ferry-it-";
    private static final LocalNode.Demo DEMO = new LocalNode.Demo(200_000, 1_000, 0.01, "custkey:2,partkey:2");
    private static final String SLOW = "SELECT COUNT(*), SUM(x.a - y.a) FROM heavy x JOIN heavy y ON x.k = y.k";
    private static final Path LOGS = Path.of("target", "it-logs");

    private final List<String> containers = new ArrayList<>();
    private List<String> danglingBefore = List.of();
    private Path conf;
    private int port;
    private Driver driver;
    private FerryEngine local;
    private DuckDbMirror duck;

    @BeforeAll
    void startCluster() throws Exception {
        if (!podmanRuns()) {
            String why = "podman is not installed (apt-get install podman runc debootstrap)";
            if ("1".equals(System.getenv("FERRY_REQUIRE_CONTAINERS"))) {
                fail(why);
            }
            Assumptions.abort(why);
        }
        conf = Path.of("containers", "containers.conf").toAbsolutePath();
        removeLeftovers();
        run(Duration.ofMinutes(5), "bash", Path.of("containers", "base-image.sh").toAbsolutePath().toString(), BASE);
        Path repository = Path.of("..").toAbsolutePath().normalize();
        assertTrue(Files.exists(repository.resolve("engine-server/target/ferry-server.jar")), "build the server jar");
        danglingBefore = dangling();
        run(Duration.ofMinutes(10), "podman", "build", "--network", "host", "-f", "docker/Dockerfile",
                "--target", "prebuilt", "--build-arg", "RUNTIME_IMAGE=" + BASE, "-t", IMAGE, repository.toString());
        run(Duration.ofMinutes(1), "podman", "network", "create", "--subnet", SUBNET, NETWORK);

        // docker/compose.yaml's services, with the demo data of the other cluster tests, partitioned
        container("coordinator", List.of("-p", "127.0.0.1::8765", "-e", "FERRY_HEAP=1g", "-e",
                "FERRY_DIRECT_MEMORY=1g"), "coordinator", "--host", PREFIX + "coordinator", "--port", "8765",
                "--control-port", "7070", "--fabric", "tcp", "--threads", "2", "--timeout", "10",
                // after the coordinator's container is killed, a memory server's reconnects time out (10 s each)
                // until the new one listens: one rejoined 40 ms before a 30 s wait ended, too late to be adopted
                "--rejoin-wait", "90", "--demo",
                "--expect-nodes", "4", "--rows", Long.toString(DEMO.rows()), "--distinct",
                Long.toString(DEMO.distinct()), "--scale", Double.toString(DEMO.scale()), "--demo-partition-by",
                DEMO.partitionBy(), "--insecure");
        for (String memory : List.of("memory1", "memory2")) {
            container(memory, List.of("-e", "FERRY_HEAP=256m", "-e", "FERRY_DIRECT_MEMORY=1g"), "memory", "--name",
                    memory, "--host", PREFIX + memory, "--coordinator", PREFIX + "coordinator:7070", "--fabric", "tcp",
                    "--threads", "1", "--memory", "512m");
        }
        for (String compute : List.of("compute1", "compute2")) {
            container(compute, List.of("-e", "FERRY_HEAP=768m", "-e", "FERRY_DIRECT_MEMORY=1g"), "compute",
                    "--name", compute, "--host", PREFIX + compute, "--coordinator", PREFIX + "coordinator:7070",
                    "--fabric", "tcp", "--threads", "1");
        }
        String published = run(Duration.ofSeconds(30), "podman", "port", PREFIX + "coordinator", "8765").trim()
                .lines().findFirst().orElseThrow();
        port = Integer.parseInt(published.substring(published.lastIndexOf(':') + 1).trim());
        awaitLog("coordinator", "Demo data loaded", Duration.ofMinutes(4));

        driver = FerryDriverLoader.load();
        local = FerryEngine.start(EngineConfig.defaults().withThreads(2));
        DEMO.load(local.catalog(), ProgressListener.NONE);
        duck = DuckDbMirror.of(local.catalog());
        try (Connection c = connect(); Statement s = c.createStatement();
                Statement d = duck.connection().createStatement()) {
            s.execute("CREATE TABLE heavy AS SELECT a, MOD(b, 50) AS k FROM r");
            d.execute("CREATE TABLE heavy AS SELECT a, MOD(b, 50) AS k FROM r");
        }
    }

    @AfterAll
    void removeCluster() throws Exception {
        try {
            if (duck != null) {
                duck.close();
            }
            if (local != null) {
                local.close();
            }
        } finally {
            if (conf != null) {
                for (String name : containers) {
                    saveLog(name);
                }
                removeLeftovers();
                podman(Duration.ofMinutes(1), "image", "rm", "-f", IMAGE);
                // the build's intermediate stage (runtime-base) is left untagged: remove it, and nothing else
                List<String> made = new ArrayList<>(dangling());
                made.removeAll(danglingBefore);
                for (String id : made) {
                    podman(Duration.ofMinutes(1), "image", "rm", "-f", id);
                }
            }
        }
    }

    static Stream<Arguments> queriesInEveryMode() {
        List<Arguments> out = new ArrayList<>();
        for (String mode : List.of("function", "data", "pipelined")) {
            for (Map.Entry<String, String> q : SsbQueries.all().entrySet()) {
                out.add(Arguments.of(mode, q.getKey(), q.getValue()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{1}, {0}")
    @MethodSource("queriesInEveryMode")
    @Order(1)
    void answersEqualDuckDb(String mode, String name, String sql) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(mode.equals("pipelined") ? "SET execution = 'pipelined'" : "SET shipping = '" + mode + "'");
            ResultComparison.assertSameResult(c, duck.connection(), sql, false);
        }
    }

    @Test
    @Order(2)
    void everyNodeRunsInItsContainer() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT name, role, state, fabric FROM sys.nodes ORDER BY id")) {
            List<String> nodes = new ArrayList<>();
            while (rs.next()) {
                assertEquals("up", rs.getString(3), rs.getString(1));
                // each node announces its container's name (or its address on the network), which the others reach
                assertTrue(rs.getString(4).contains(PREFIX) || rs.getString(4).contains("198.18.0."),
                        rs.getString(4));
                nodes.add(rs.getString(1) + ":" + rs.getString(2));
            }
            assertEquals(List.of("coordinator:coordinator", "memory1:memory", "memory2:memory", "compute1:compute",
                    "compute2:compute"), sortedAfterFirst(nodes));
        }
    }

    /**
     * A memory server's container paused past the coordinator's silence limit (as a long GC pause or a stopped
     * container would freeze it) is marked down, and its tables fail with 08006 meanwhile; resumed, the same process
     * rejoins with its memory and every table answers as before, with no reload.
     */
    @Test
    @Order(3)
    void aFrozenMemoryServerComesBackWithItsBlocks() throws Exception {
        String q = SsbQueries.get("Q2.1");
        try (Connection c = connect(); Statement s = c.createStatement()) {
            podman(Duration.ofSeconds(30), "pause", PREFIX + "memory1");
            try {
                awaitState(s, "memory1", "down", Duration.ofSeconds(30));
                SQLException e = assertThrows(SQLException.class,
                        () -> s.executeQuery(q).close());
                assertEquals("08006", e.getSQLState(), e.getMessage());
            } finally {
                podman(Duration.ofSeconds(30), "unpause", PREFIX + "memory1");
            }
            awaitState(s, "memory1", "up", Duration.ofSeconds(60));
            for (String mode : List.of("function", "data")) {
                s.execute("SET shipping = '" + mode + "'");
                ResultComparison.assertSameResult(c, duck.connection(), q, false);
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.nodes WHERE name = 'memory1'")) {
                rs.next();
                assertEquals(1, rs.getLong(1), "memory1 came back as itself, not as a new node");
            }
        }
    }

    private static void awaitState(Statement s, String node, String state, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (ResultSet rs = s.executeQuery("SELECT state FROM sys.nodes WHERE name = '" + node + "'")) {
                if (rs.next() && rs.getString(1).equals(state)) {
                    return;
                }
            }
            assertTrue(System.nanoTime() < deadline, node + " is not " + state + " after " + timeout);
            Thread.sleep(200);
        }
    }

    /**
     * The coordinator's container killed (SIGKILL) and started again: it keeps the cluster's tables in the image's
     * {@code FERRY_DATA_DIR}, the memory servers kept their blocks and rejoin it, and every table answers as before
     * with no reload: each data file is adopted where its blocks are (docs/storage.md, "A cluster's tables").
     */
    @Test
    @Order(4)
    void aKilledCoordinatorAdoptsTheBlocksTheMemoryServersKept() throws Exception {
        podman(Duration.ofSeconds(30), "kill", PREFIX + "coordinator");
        podman(Duration.ofSeconds(60), "start", PREFIX + "coordinator");
        String published = run(Duration.ofSeconds(30), "podman", "port", PREFIX + "coordinator", "8765").trim()
                .lines().findFirst().orElseThrow();
        port = Integer.parseInt(published.substring(published.lastIndexOf(':') + 1).trim());
        awaitLog("coordinator", "data files adopted where the nodes kept them", Duration.ofMinutes(2));
        Matcher adopted = Pattern.compile("(\\d+) of (\\d+) data files adopted")
                .matcher(podman(Duration.ofSeconds(30), "logs", PREFIX + "coordinator"));
        assertTrue(adopted.find());
        assertTrue(Integer.parseInt(adopted.group(2)) > 0, adopted.group());
        assertEquals(adopted.group(2), adopted.group(1), "every data file adopted: " + adopted.group());
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String node : List.of("memory1", "memory2", "compute1", "compute2")) {
                awaitState(s, node, "up", Duration.ofSeconds(60));
            }
            for (String mode : List.of("function", "data")) {
                s.execute("SET shipping = '" + mode + "'");
                for (String q : List.of("Q1.1", "Q2.1", "Q4.1")) {
                    ResultComparison.assertSameResult(c, duck.connection(), SsbQueries.get(q), false);
                }
                ResultComparison.assertSameResult(c, duck.connection(), "SELECT k, COUNT(*), SUM(a) FROM heavy "
                        + "GROUP BY k", false);
            }
        }
    }

    @Test
    @Order(5)
    void aMemoryServerKilledMidQueryFailsIt() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET shipping = 'function'");
            s.execute("SET prefetch = 1"); // the compute servers are still reading from the victim when it dies
            CompletableFuture<SQLException> failure = QueryInBackground.start(() -> s.executeQuery(SLOW));
            awaitFragmentsRunning();
            podman(Duration.ofSeconds(30), "kill", PREFIX + "memory2");
            long killed = System.nanoTime();
            SQLException e = failure.get(60, TimeUnit.SECONDS);
            assertTrue(e != null, "the query finished although memory2 was killed");
            // a killed container's network goes with it: no connection is reset, so the others learn it is gone
            // by their reads' timeouts (--timeout 10) or the coordinator's silence limit (10 s), not at once
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
            assertTrue(seconds < 30, "the failure took " + seconds + " s");
            assertEquals("08006", e.getSQLState(), e.getMessage());
            assertTrue(e.getMessage().contains("memory2"), "the error must name the node: " + e.getMessage());
        }
    }

    private static List<String> sortedAfterFirst(List<String> nodes) {
        List<String> rest = new ArrayList<>(nodes.subList(1, nodes.size()));
        rest.sort((a, b) -> a.startsWith("memory") == b.startsWith("memory") ? a.compareTo(b)
                : a.startsWith("memory") ? -1 : 1);
        List<String> out = new ArrayList<>(List.of(nodes.get(0)));
        out.addAll(rest);
        return out;
    }

    private void awaitFragmentsRunning() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            while (true) {
                try (ResultSet rs = s.executeQuery("SELECT SUM(fragments_running) FROM sys.nodes WHERE state = 'up'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                assertTrue(System.nanoTime() < deadline, "the compute servers never started the slow query");
                Thread.sleep(100);
            }
        }
    }

    private Connection connect() throws SQLException {
        return driver.connect("jdbc:ferry://127.0.0.1:" + port, new Properties());
    }

    /** Starts service {@code name} of the layout in its container on the network. */
    private void container(String name, List<String> options, String... ferryArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of("podman", "run", "-d", "--name", PREFIX + name,
                "--hostname", PREFIX + name, "--network", NETWORK));
        command.addAll(options);
        command.add(IMAGE);
        command.addAll(List.of(ferryArgs));
        containers.add(PREFIX + name);
        run(Duration.ofMinutes(1), command.toArray(String[]::new));
    }

    private void awaitLog(String name, String line, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String log = podman(Duration.ofSeconds(30), "logs", PREFIX + name);
            if (log.contains(line)) {
                return;
            }
            Thread.sleep(500);
        }
        fail(name + " did not log '" + line + "' within " + timeout + ":\n"
                + podman(Duration.ofSeconds(30), "logs", "--tail", "40", PREFIX + name));
    }

    private void saveLog(String name) throws IOException, InterruptedException {
        Files.createDirectories(LOGS);
        Files.writeString(LOGS.resolve("container-" + name + ".log"), podman(Duration.ofSeconds(30), "logs", name));
    }

    /** Whatever an earlier run left (its containers, its network): removed, ignoring what is not there. */
    private void removeLeftovers() throws IOException, InterruptedException {
        for (String name : List.of("coordinator", "memory1", "memory2", "compute1", "compute2")) {
            podman(Duration.ofMinutes(1), "rm", "-f", "-t", "2", PREFIX + name);
        }
        podman(Duration.ofMinutes(1), "network", "rm", "-f", NETWORK);
    }

    /** The ids of the images no tag names. */
    private List<String> dangling() throws IOException, InterruptedException {
        return podman(Duration.ofMinutes(1), "images", "-q", "--filter", "dangling=true").lines()
                .map(String::trim).filter(l -> !l.isEmpty()).toList();
    }

    private static boolean podmanRuns() {
        try {
            return new ProcessBuilder("podman", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** {@code podman args}, whatever its exit status: its output. */
    private String podman(Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        return exec(timeout, false, command);
    }

    /** Runs {@code command} (podman's settings from containers.conf); fails the test unless it exits 0. */
    private String run(Duration timeout, String... command) throws IOException, InterruptedException {
        return exec(timeout, true, List.of(command));
    }

    private String exec(Duration timeout, boolean check, List<String> command) throws IOException,
            InterruptedException {
        Path out = Files.createTempFile("podman", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            pb.environment().put("CONTAINERS_CONF", conf.toString());
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                fail(String.join(" ", command) + " did not finish within " + timeout);
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            if (check && p.exitValue() != 0) {
                fail(String.join(" ", command) + " failed (" + p.exitValue() + "):\n" + output);
            }
            return output;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
