package io.ferry.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.ferry.bench.NodeProcess;
import io.ferry.core.durable.DataDirectory;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;

/**
 * Tables survive a process killed while it changes them (docs/storage.md): {@code bin/ferry local} with a data
 * directory is halted, as by {@code kill -9}, at each step of a change — after its data file is written, after the
 * next manifest is written, after it replaced the current one — for INSERT, DELETE, CREATE TABLE AS and DROP TABLE;
 * restarted, it has each table exactly as before the change or exactly as after, as the step implies, never half;
 * a data directory killed in the middle of loading the demo data restarts with whole tables only; and a cluster's
 * coordinator killed part-way through an INSERT restarts with the table as before or after it, adopted in place.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrashRecoveryIT {
    /** What a table's rows add up to: count, sum of ids, sum of text lengths. */
    private static final String STATE = "SELECT COUNT(*), COALESCE(SUM(id), 0), COALESCE(SUM(CHAR_LENGTH(v)), 0) FROM ";

    @TempDir
    static Path work;
    private Path baseline;
    private Driver driver;

    /** A data directory with table t of 4096 rows, written by a process that was then killed. */
    @BeforeAll
    void makeBaseline() throws Exception {
        driver = FerryDriverLoader.load();
        baseline = work.resolve("baseline");
        try (Server server = start("baseline", baseline, null)) {
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR)");
                s.execute("INSERT INTO t VALUES (1, 'row 1')");
                for (int i = 0; i < 12; i++) {
                    s.execute("INSERT INTO t SELECT id + (SELECT MAX(id) FROM t), 'row ' || CAST(id AS VARCHAR) "
                            + "FROM t");
                }
                assertEquals("4096", state(s, "t").split(",")[0]);
            }
            server.process().kill(); // committed is committed: no clean stop is needed
        }
    }

    private record Server(NodeProcess process, int port, Driver driver) implements AutoCloseable {
        Connection connect() throws SQLException {
            return driver.connect("jdbc:ferry://127.0.0.1:" + port, new Properties());
        }

        @Override
        public void close() {
            process.close();
        }
    }

    private Server start(String name, Path data, String crashAt, String... more) throws InterruptedException {
        int port = NodeProcess.freePort();
        List<String> args = new ArrayList<>(List.of("local", "--data-dir", data.toString(), "--port",
                String.valueOf(port), "--no-planner-warmup"));
        args.addAll(List.of(more));
        List<String> command = new ArrayList<>(NodeProcess.serverCommand(Path.of(System.getProperty(
                "ferry.server.jar")), "1g", "1g", args));
        if (crashAt != null) {
            command.add(1, "-Dferry.test.crash-at=" + crashAt);
        }
        NodeProcess p = NodeProcess.start(name, command, Path.of("target", "it-logs"));
        p.await("is ready", Duration.ofSeconds(120));
        return new Server(p, port, driver);
    }

    private static String state(Statement s, String table) throws SQLException {
        return state(s.executeQuery(STATE + table));
    }

    private static String state(ResultSet rs) throws SQLException {
        try (rs) {
            assertTrue(rs.next());
            return rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getLong(3);
        }
    }

    private static boolean exists(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.getConnection().getMetaData().getTables(null, null, table, null)) {
            return rs.next();
        }
    }

    @ParameterizedTest(name = "{1} killed at {0}: as {2}")
    @CsvSource({
        "file-written,       INSERT, before",
        "manifest-written,   INSERT, before",
        "manifest-renamed,   INSERT, after",
        "manifest-renamed,   DELETE, after",
        "manifest-renamed:1, CTAS,   before",
        "manifest-renamed:2, CTAS,   after",
        "manifest-written,   DROP,   before",
        "manifest-renamed,   DROP,   after"})
    void aChangeKilledPartWayRestartsAsBeforeOrAfterIt(String point, String change, String expected) throws Exception {
        Path data = work.resolve(change + "-" + point.replace(':', '-'));
        copy(baseline, data);
        String table = change.equals("CTAS") ? "c" : "t";
        String before;
        String after;
        try (Server server = start("crash-" + change + "-" + point.replace(':', '-'), data, point)) {
            Connection c = server.connect();
            Statement s = c.createStatement();
            before = change.equals("CTAS") ? null : state(s, "t");
            after = switch (change) {
                case "INSERT" -> state(s.executeQuery(STATE + "(SELECT id, v FROM t UNION ALL SELECT id + 100000, v "
                        + "FROM t)"));
                case "DELETE" -> state(s.executeQuery(STATE + "t WHERE id % 3 <> 0"));
                case "CTAS" -> state(s, "t");
                default -> null;
            };
            String sql = switch (change) {
                case "INSERT" -> "INSERT INTO t SELECT id + 100000, v FROM t";
                case "DELETE" -> "DELETE FROM t WHERE id % 3 = 0";
                case "CTAS" -> "CREATE TABLE c AS SELECT * FROM t";
                default -> "DROP TABLE t";
            };
            assertThrows(SQLException.class, () -> s.execute(sql), "the server dies in the middle of " + sql);
            assertEquals(137, server.process().exitStatus(Duration.ofSeconds(30)), "halted at " + point);
            abandon(c);
        }
        try (Server server = start("restart-" + change + "-" + point.replace(':', '-'), data, null);
                Connection c = server.connect(); Statement s = c.createStatement()) {
            String want = expected.equals("before") ? before : after;
            if (want == null) {
                assertFalse(exists(s, table), table + " should not exist " + expected + " " + change);
            } else {
                assertTrue(exists(s, table), table + " should exist " + expected + " " + change);
                assertEquals(want, state(s, table), "rows of " + table + " " + expected + " " + change);
            }
            // the restarted table takes changes again, and the primary key holds against what was restored
            if (exists(s, "t")) {
                assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (1, 'again')"));
                s.execute("INSERT INTO t VALUES (-1, 'new')");
            }
        }
        assertEquals(namedFiles(data), filesOf(data), "no file is left that the manifest does not name");
    }

    /**
     * A cluster's coordinator keeping a data directory (docs/storage.md, "A cluster's tables"), killed part-way
     * through an INSERT while its memory server runs on: after its data file was written, the restarted coordinator
     * has the table as before (the blocks the INSERT had placed are no one's, their slots free again); after the
     * manifest naming them replaced the old one, as after, those blocks adopted with the others. Every data file is
     * adopted where its blocks are, nothing read from disk.
     */
    @Test
    void aCoordinatorKilledPartWayThroughAnInsertRestartsWithTheTableAsBeforeOrAfterIt() throws Exception {
        Path data = work.resolve("cluster");
        int control = NodeProcess.freePort();
        try (NodeProcess memory = NodeProcess.start("cluster-memory", NodeProcess.serverCommand(Path.of(
                System.getProperty("ferry.server.jar")), "256m", "1g", List.of("memory", "--name", "m1",
                "--coordinator", "127.0.0.1:" + control, "--memory", "256m")), Path.of("target", "it-logs"))) {
            String before;
            try (Server server = coordinator("cluster-load", data, control, null)) {
                Connection c = server.connect();
                Statement s = c.createStatement();
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR)");
                s.execute("INSERT INTO t SELECT generate_series, 'row ' || CAST(generate_series AS VARCHAR) "
                        + "FROM generate_series(1, 3000)");
                s.execute("INSERT INTO t VALUES (-5, 'ünïcode ✓')");
                before = state(s, "t");
                server.process().kill(); // committed is committed: no clean stop is needed
                abandon(c);
            }
            String after = null;
            for (String point : List.of("file-written", "manifest-renamed")) {
                try (Server server = coordinator("cluster-crash-" + point, data, control, point)) {
                    Connection c = server.connect();
                    Statement s = c.createStatement();
                    assertEquals(before, state(s, "t"), "restarted after " + point);
                    after = state(s.executeQuery(STATE + "(SELECT id, v FROM t UNION ALL SELECT id + 100000, v "
                            + "FROM t)"));
                    assertThrows(SQLException.class, () -> s.execute("INSERT INTO t SELECT id + 100000, v FROM t"));
                    assertEquals(137, server.process().exitStatus(Duration.ofSeconds(30)), "halted at " + point);
                    abandon(c);
                }
            }
            try (Server server = coordinator("cluster-restarted", data, control, null);
                    Connection c = server.connect(); Statement s = c.createStatement()) {
                assertEquals(after, state(s, "t"), "restarted after the manifest naming the INSERT's rows");
                assertTrue(server.process().output().matches("(?s).*([0-9]+) of \\1 data files adopted.*"),
                        "every data file adopted: " + server.process().output());
                assertThrows(SQLException.class, () -> s.execute("INSERT INTO t VALUES (1, 'again')"));
                s.execute("INSERT INTO t VALUES (0, 'new')");
                assertEquals(after.split(",")[0], String.valueOf(Long.parseLong(state(s, "t").split(",")[0]) - 1));
            }
        }
    }

    private Server coordinator(String name, Path data, int control, String crashAt) throws InterruptedException {
        int port = NodeProcess.freePort();
        List<String> command = new ArrayList<>(NodeProcess.serverCommand(Path.of(System.getProperty(
                "ferry.server.jar")), "1g", "1g", List.of("coordinator", "--data-dir", data.toString(), "--port",
                String.valueOf(port), "--control-port", String.valueOf(control), "--no-planner-warmup")));
        if (crashAt != null) {
            command.add(1, "-Dferry.test.crash-at=" + crashAt);
        }
        NodeProcess p = NodeProcess.start(name, command, Path.of("target", "it-logs"));
        p.await("is ready", Duration.ofSeconds(120));
        return new Server(p, port, driver);
    }

    /** Killed at a random moment while it generates the demo data, a node restarts with complete tables only. */
    @Test
    void killedWhileLoadingTheDemoDataItRestartsWithWholeTablesOnly() throws Exception {
        Path data = work.resolve("demo");
        double scale = 0.2;
        int port = NodeProcess.freePort();
        NodeProcess loading = NodeProcess.start("demo-killed", NodeProcess.serverCommand(Path.of(System.getProperty(
                "ferry.server.jar")), "1g", "1g", List.of("local", "--data-dir", data.toString(), "--port",
                String.valueOf(port), "--no-planner-warmup", "--demo", "--scale", String.valueOf(scale), "--rows",
                "2000000")), Path.of("target", "it-logs"));
        try {
            loading.await("lineorder: started", Duration.ofSeconds(60));
            Thread.sleep(500);
        } finally {
            loading.kill();
        }
        SsbGenerator ssb = new SsbGenerator(scale);
        Map<String, Long> rows = new HashMap<>();
        for (String table : SsbGenerator.TABLES) {
            long[] n = {0};
            ssb.generate(table, b -> n[0] += b.rowCount(), ProgressListener.NONE);
            rows.put(table, n[0]);
        }
        try (Server server = start("demo-restarted", data, null); Connection c = server.connect();
                Statement s = c.createStatement()) {
            assertTrue(exists(s, "r"), "the paper table was committed before lineorder began");
            for (String table : SsbGenerator.TABLES) {
                if (exists(s, table)) {
                    assertEquals(rows.get(table), count(s, table), table + " is whole if it is there");
                }
            }
            assertFalse(exists(s, "lineorder"), "lineorder was being generated when the process was killed");
        }
        // and --demo then loads what is missing, keeping what is there
        try (Server server = start("demo-completed", data, null, "--demo", "--scale", String.valueOf(scale),
                "--rows", "2000000"); Connection c = server.connect(); Statement s = c.createStatement()) {
            for (String table : SsbGenerator.TABLES) {
                assertEquals(rows.get(table), count(s, table), table);
            }
        }
    }

    private static long count(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A connection to a server that died: closing it can only fail. */
    private static void abandon(Connection c) {
        try {
            c.close();
        } catch (SQLException expected) {
            // the server is gone
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.resolve(DataDirectory.TABLES));
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(from.relativize(f).toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static List<String> namedFiles(Path data) throws IOException {
        return DataDirectory.readManifest(data).fileNames().stream().sorted().toList();
    }

    private static List<String> filesOf(Path data) throws IOException {
        try (Stream<Path> files = Files.list(data.resolve(DataDirectory.TABLES))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
