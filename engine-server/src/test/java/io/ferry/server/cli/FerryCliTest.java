package io.ferry.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.server.LocalNode;
import io.ferry.server.ServerSecurity;
import io.ferry.server.StartupException;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.EngineConfig;
import picocli.CommandLine;

/** The commands as a user runs them, against a local node on a free port. */
class FerryCliTest {
    @TempDir
    static Path dir;

    private static LocalNode node;
    private static String port;

    @BeforeAll
    static void start() {
        node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(512L << 20).withQueryMemoryLimit(128L << 20), "127.0.0.1", 0, null, List.of()),
                ProgressListener.NONE);
        port = String.valueOf(node.server().port());
    }

    @AfterAll
    static void stop() {
        // Throws if the loads or queries leaked Arrow memory.
        node.close();
    }

    /** What one run of the command line printed and returned. */
    private record Run(int exitCode, String out, String err) {
    }

    private static Run ferry(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = FerryCli.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void fabricReportsWhatAutoPicksAndOpensIt() {
        Run auto = ferry("fabric");
        assertEquals(0, auto.exitCode(), auto.err());
        assertTrue(auto.out().startsWith("rdma:   "), auto.out());
        assertTrue(auto.out().contains("fabric=auto resolves to "), auto.out());
        Run tcp = ferry("fabric", "--fabric", "tcp", "--host", "127.0.0.1");
        assertEquals(0, tcp.exitCode(), tcp.err());
        assertTrue(tcp.out().contains("opened: tcp fabric listening at 127.0.0.1:"), tcp.out());
        Run bad = ferry("fabric", "--fabric", "infiniband");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains("error [22023]: unknown fabric 'infiniband'"), bad.err());
    }

    @Test
    void genThenLoadThePaperTable() throws IOException {
        Path out = dir.resolve("paper");
        Run gen = ferry("gen", "--dataset", "paper", "--rows", "5000", "--distinct", "7", "--out", out.toString());
        assertEquals(0, gen.exitCode(), gen.err());
        Path csv = out.resolve("r.csv");
        List<String> lines = Files.readAllLines(csv);
        assertEquals("a,b", lines.get(0));
        assertEquals(5001, lines.size());
        assertTrue(gen.out().contains("wrote " + csv), gen.out());

        Run load = ferry("load", "--port", port, "--table", "paper_r", "--csv", csv.toString(), "--create");
        assertEquals(0, load.exitCode(), load.err());
        assertTrue(load.out().contains("loaded 5,000 rows into paper_r"), load.out());
        assertEquals(5000, node.engine().catalog().require("paper_r").rowCount());

        Run again = ferry("load", "--port", port, "--table", "paper_r", "--csv", csv.toString(), "--create");
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("error [42P07]"), again.err());
        assertEquals(5000, node.engine().catalog().require("paper_r").rowCount());
    }

    @Test
    void genThenLoadSsbWithASchema() throws IOException {
        Path out = dir.resolve("ssb");
        Run gen = ferry("gen", "--dataset", "ssb", "--scale", "0.001", "--out", out.toString());
        assertEquals(0, gen.exitCode(), gen.err());
        for (String table : SsbGenerator.TABLES) {
            assertTrue(Files.size(out.resolve(table + ".csv")) > 0, table);
        }
        Run load = ferry("load", "--port", port, "--table", "ssb_supplier", "--csv",
                out.resolve("supplier.csv").toString(), "--schema", "s_suppkey INTEGER NOT NULL, s_name VARCHAR, "
                        + "s_address VARCHAR, s_city VARCHAR, s_nation VARCHAR, s_region VARCHAR, s_phone VARCHAR");
        assertEquals(0, load.exitCode(), load.err());
        assertEquals(new SsbGenerator(0.001).rowCount("supplier"),
                node.engine().catalog().require("ssb_supplier").rowCount());
    }

    @Test
    void loadsParquetAsItLoadsCsv() throws Exception {
        Path parquet = dir.resolve("kv.parquet");
        try (java.sql.Connection duck = java.sql.DriverManager.getConnection("jdbc:duckdb:");
                java.sql.Statement s = duck.createStatement()) {
            s.execute("COPY (SELECT i AS k, CASE WHEN i % 2 = 0 THEN 'v' || i END AS v FROM range(3000) t(i)) TO '"
                    + parquet + "' (FORMAT parquet)");
        }
        Run load = ferry("load", "--port", port, "--table", "pq_kv", "--parquet", parquet.toString(), "--create");
        assertEquals(0, load.exitCode(), load.err());
        assertTrue(load.out().contains("loaded 3,000 rows into pq_kv"), load.out());
        assertEquals(3000, node.engine().catalog().require("pq_kv").rowCount());

        Path csv = Files.writeString(dir.resolve("not-parquet.csv"), "k,v\n1,x\n", StandardCharsets.UTF_8);
        Run wrong = ferry("load", "--port", port, "--table", "pq_bad", "--parquet", csv.toString(), "--create");
        assertEquals(1, wrong.exitCode());
        assertTrue(wrong.err().contains("error [22P04]") && wrong.err().contains("not-parquet.csv"), wrong.err());
        assertNull(node.engine().catalog().get("pq_bad"));
        Run both = ferry("load", "--port", port, "--table", "t", "--csv", csv.toString(), "--parquet",
                parquet.toString());
        assertEquals(2, both.exitCode(), "--csv and --parquet exclude each other");
        Run csvOption = ferry("load", "--port", port, "--table", "pq_kv", "--parquet", parquet.toString(),
                "--no-header");
        assertEquals(1, csvOption.exitCode());
        assertTrue(csvOption.err().contains("error [22023]"), csvOption.err());
    }

    @Test
    void loadPartitionsATableItCreates() throws IOException {
        Path out = dir.resolve("ssb-partitioned");
        assertEquals(0, ferry("gen", "--dataset", "ssb", "--scale", "0.001", "--out", out.toString()).exitCode());
        Run load = ferry("load", "--port", port, "--table", "lo_p", "--csv", out.resolve("lineorder.csv").toString(),
                "--create", "--partition-by", "custkey:4,partkey:2", "--placement", "partition");
        assertEquals(0, load.exitCode(), load.err());
        var table = node.engine().catalog().require("lo_p");
        assertEquals("lo_custkey=custkey:4, lo_partkey=partkey:2", table.partitioning().describe(table.schema()));
        assertEquals(new SsbGenerator(0.001).rowCount("lineorder") > 0, table.rowCount() > 0);
        Run notCreating = ferry("load", "--port", port, "--table", "lo_p", "--csv",
                out.resolve("lineorder.csv").toString(), "--partition-by", "custkey:4");
        assertEquals(1, notCreating.exitCode());
        assertTrue(notCreating.err().contains("error [22023]"), notCreating.err());
        Run badKey = ferry("load", "--port", port, "--table", "lo_bad", "--csv",
                out.resolve("lineorder.csv").toString(), "--create", "--partition-by", "planetkey:4");
        assertEquals(1, badKey.exitCode());
        assertTrue(badKey.err().contains("error [42703]"), badKey.err());
        assertNull(node.engine().catalog().get("lo_bad"), "a failed load leaves no table");
    }

    @Test
    void loadErrorsCarryTheirSqlStateAndExitNonZero() throws IOException {
        Path csv = Files.writeString(dir.resolve("bad.csv"), "k,v\n1,x\n2\n", StandardCharsets.UTF_8);
        Run missing = ferry("load", "--port", port, "--table", "nothere", "--csv", csv.toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("error [42P01]"), missing.err());
        Run malformed = ferry("load", "--port", port, "--table", "bad", "--csv", csv.toString(), "--create");
        assertEquals(1, malformed.exitCode());
        assertTrue(malformed.err().contains("error [22P04]"), malformed.err());
        assertNull(node.engine().catalog().get("bad"));
        Run noServer = ferry("load", "--port", "1", "--table", "t", "--csv", csv.toString(), "--create");
        assertEquals(1, noServer.exitCode());
        assertTrue(noServer.err().contains("error [08001]"), noServer.err());
        Run badDelimiter = ferry("load", "--port", port, "--table", "t", "--csv", csv.toString(), "--delimiter", "ab");
        assertEquals(2, badDelimiter.exitCode());
    }

    @Test
    void sqlRunsStatementsAndStopsAtTheFirstError() throws IOException {
        Path csv = Files.writeString(dir.resolve("kv.csv"), "k,v\n1,one\n2,two\n", StandardCharsets.UTF_8);
        assertEquals(0, ferry("load", "--port", port, "--table", "kv", "--csv", csv.toString(), "--create")
                .exitCode());
        Captured ok = sql("--port", port, "-e", "SELECT k, v FROM kv ORDER BY k -- both rows\n; SELECT 'a;b' AS s");
        assertEquals(0, ok.exitCode(), ok.err());
        assertEquals("\"k\",\"v\"\n\"1\",\"one\"\n\"2\",\"two\"\n\"s\"\n\"a;b\"\n", ok.out());

        Captured failed = sql("--port", port, "-e", "SELECT * FROM nope; SELECT 2 AS never");
        assertEquals(1, failed.exitCode());
        assertTrue(failed.err().contains("42P01"), failed.err());
        assertTrue(!failed.out().contains("never"), failed.out());

        Path script = Files.writeString(dir.resolve("s.sql"), "SELECT COUNT(*) AS n FROM kv;\nSELEC 1;\n");
        Captured file = sql("--port", port, "-f", script.toString());
        assertEquals(1, file.exitCode());
        assertTrue(file.out().contains("\"2\""), file.out());
        assertTrue(file.err().contains("42601"), file.err());

        Captured noServer = sql("--port", "1", "-e", "SELECT 1");
        assertEquals(1, noServer.exitCode());
        assertTrue(noServer.err().contains("error [08001]"), noServer.err());
    }

    /**
     * sqlline's metadata commands, as a user browses a schema in {@code ferry sql}: through Avatica's stock driver,
     * which tells sqlline that names are stored in upper case, so it asks for KV; the server finds kv.
     */
    @Test
    void sqllineBrowsesTheSchema() throws IOException {
        Path csv = Files.writeString(dir.resolve("browse.csv"), "k,v\n1,one\n", StandardCharsets.UTF_8);
        assertEquals(0, ferry("load", "--port", port, "--table", "browse", "--csv", csv.toString(), "--create")
                .exitCode());
        Path script = Files.writeString(dir.resolve("browse.sql"), "!tables\n!describe browse\n!columns browse\n");
        Captured browse = sql("--port", port, "-f", script.toString());
        assertEquals(0, browse.exitCode(), browse.err());
        String out = browse.out();
        assertTrue(out.contains("\"ferry\",\"browse\",\"TABLE\""), out);
        assertTrue(out.contains("\"sys\",\"queries\",\"SYSTEM TABLE\""), out);
        // !describe and !columns: each column of browse, with its type
        assertEquals(2, out.split("\"browse\",\"k\",\"-5\",\"BIGINT\"", -1).length - 1, out);
        assertEquals(2, out.split("\"browse\",\"v\",\"12\",\"VARCHAR\"", -1).length - 1, out);
    }

    @Test
    void usersLogInFromTheCommandLine() throws IOException {
        Path users = dir.resolve("cli-users");
        Path password = dir.resolve("boss-password");
        Files.writeString(password, "boss password\n");
        Path wrong = dir.resolve("wrong-password");
        Files.writeString(wrong, "not the password\n");
        Run add = ferry("user", "add", "boss", "--admin", "--users", users.toString(), "--password-file",
                password.toString());
        assertEquals(0, add.exitCode(), add.err());
        assertFalse(Files.readString(users).contains("boss password"));
        try (LocalNode secured = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(256L << 20), "127.0.0.1", 0, null, List.of(dir),
                new ServerSecurity(users, false)), ProgressListener.NONE)) {
            String at = String.valueOf(secured.server().port());
            Captured anonymous = sql("--port", at, "-e", "SELECT 1");
            assertEquals(1, anonymous.exitCode());
            assertTrue(anonymous.err().contains("[28000]") && anonymous.err().contains("--user"), anonymous.err());
            Captured refused = sql("--port", at, "--user", "boss", "--password-file", wrong.toString(), "-e",
                    "SELECT 1");
            assertEquals(1, refused.exitCode());
            assertTrue(refused.err().contains("[28P01]"), refused.err());
            Captured boss = sql("--port", at, "--user", "boss", "--password-file", password.toString(), "-e",
                    "CREATE TABLE q (k INTEGER); INSERT INTO q VALUES (5); SELECT k * 2 AS twice FROM q");
            assertEquals(0, boss.exitCode(), boss.err());
            assertTrue(boss.out().contains("\"twice\"\n\"10\""), boss.out());
            Path csv = dir.resolve("q.csv");
            Files.writeString(csv, "k\n6\n");
            assertEquals(1, ferry("load", "--port", at, "--table", "q", "--csv", csv.toString()).exitCode());
            Run load = ferry("load", "--port", at, "--user", "boss", "--password-file", password.toString(),
                    "--table", "q", "--csv", csv.toString());
            assertEquals(0, load.exitCode(), load.err());
            assertEquals(2, secured.engine().catalog().require("q").rowCount());
        }
    }

    @Test
    void anAddressOtherThanLoopbackNeedsUsersOrInsecure() {
        StartupException e = assertThrows(StartupException.class, () -> LocalNode.start(new LocalNode.Options(
                EngineConfig.defaults().withThreads(1).withMemoryLimit(64L << 20), "0.0.0.0", 0, null, List.of()),
                ProgressListener.NONE).close());
        assertTrue(e.getMessage().contains("--users") && e.getMessage().contains("--insecure"), e.getMessage());
        try (LocalNode open = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(1)
                .withMemoryLimit(64L << 20), "0.0.0.0", 0, null, List.of(), new ServerSecurity(null, true)),
                ProgressListener.NONE)) {
            assertFalse(open.engine().access().required());
        }
    }

    @Test
    void versionAndUsage() {
        Run version = ferry("--version");
        assertEquals(0, version.exitCode());
        assertTrue(version.out().startsWith("Ferry "), version.out());
        Run none = ferry();
        assertEquals(2, none.exitCode());
        assertTrue(none.err().contains("local, coordinator, memory, compute, worker, sql, gen, load, user, cert, secret or fabric"),
                none.err());
        assertEquals(2, ferry("local", "--memory", "lots").exitCode());
        Run both = ferry("local", "--in-memory", "--data-dir", "/tmp/nowhere");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("--data-dir and --in-memory contradict each other"), both.err());
        assertTrue(ferry("local", "--help").out().contains("--data-dir"));
    }

    /** What sqlline printed: it writes to System.out and System.err themselves. */
    private record Captured(int exitCode, String out, String err) {
    }

    private static Captured sql(String... args) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StringWriter cliErr = new StringWriter();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            String[] all = new String[args.length + 1];
            all[0] = "sql";
            System.arraycopy(args, 0, all, 1, args.length);
            code = FerryCli.commandLine().setErr(new PrintWriter(cliErr, true)).execute(all);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Captured(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8) + cliErr);
    }
}
