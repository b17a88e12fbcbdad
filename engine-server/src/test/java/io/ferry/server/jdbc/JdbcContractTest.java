package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.apache.calcite.avatica.AvaticaSqlException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * What JDBC promises and a client found broken (issue 16): every row whatever the fetch size, maxRows on prepared
 * statements, auto-commit, batches that fail as BatchUpdateExceptions, {@code getObject(i, type)}, and metadata name
 * patterns with {@code _}. Through the stock Avatica driver and through ferry-jdbc; where the stock driver cannot do
 * what JDBC says (it decides on its own side), the test says what it does instead.
 */
class JdbcContractTest {
    private static final int ROWS = 10_000;
    private static ServedEngine served;
    private static FerryEngine engine;
    private static JdbcServer server;

    @BeforeAll
    static void start() throws SQLException {
        served = ServedEngine.start(ROWS, true);
        engine = served.engine();
        server = served.server();
    }

    @AfterAll
    static void stop() {
        if (served != null) {
            served.close();
        }
    }

    static Stream<String> urls() {
        return Stream.of(server.avaticaUrl(), server.ferryUrl());
    }

    private static boolean ferryDriver(String url) {
        return url.equals(server.ferryUrl());
    }

    /** Fetch size 0 is the driver's choice: Avatica's server read it as "no rows" and cut results short silently. */
    @ParameterizedTest
    @MethodSource("urls")
    void everyRowComesBackWhateverTheFetchSize(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            for (int fetchSize : new int[] {0, 1, 7, 100, 5000}) {
                try (Statement s = c.createStatement()) {
                    s.setFetchSize(fetchSize);
                    assertEquals(ROWS, count(s.executeQuery("SELECT a FROM r")), "plain, fetch size " + fetchSize);
                }
                try (PreparedStatement p = c.prepareStatement("SELECT a FROM r WHERE a >= ?")) {
                    p.setFetchSize(fetchSize);
                    p.setLong(1, Long.MIN_VALUE);
                    assertEquals(ROWS, count(p.executeQuery()), "prepared, fetch size " + fetchSize);
                }
            }
        }
    }

    /**
     * Rows are made as the client fetches them: the first frame comes back before the last block is read, so a
     * division by zero in the last block fails a later fetch, with its SQLSTATE, after the rows before it arrived.
     * Made at once, the whole result would have failed at executeQuery. Three inserts make three blocks, and the
     * first frame needs at most the two the first wave reads.
     */
    @ParameterizedTest
    @MethodSource("urls")
    void rowsAreMadeAsTheClientFetchesThem(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE late (x INTEGER)");
            try {
                s.execute("INSERT INTO late SELECT 1 FROM r");
                s.execute("INSERT INTO late SELECT 2 FROM r");
                s.execute("INSERT INTO late VALUES (0)");
                s.setFetchSize(100);
                int read = 0;
                Exception failed = null;
                try (ResultSet rs = s.executeQuery("SELECT 10 / x FROM late")) {
                    while (rs.next()) {
                        read++;
                    }
                } catch (SQLException | RuntimeException e) {
                    failed = e; // the stock driver throws its fetch errors unchecked
                }
                assertTrue(read >= 100 && read <= 2 * ROWS, "rows before the failure: " + read);
                assertTrue(failed != null && String.valueOf(failed.getMessage()).contains("by zero"),
                        String.valueOf(failed));
                if (failed instanceof SQLException e) {
                    assertEquals("22012", e.getSQLState(), e.getMessage());
                }
            } finally {
                s.execute("DROP TABLE late");
            }
        }
    }

    /** The stock driver keeps a prepared statement's maxRows on its side and sends it nowhere (Avatica's protocol). */
    @ParameterizedTest
    @MethodSource("urls")
    void maxRowsLimitsPreparedStatements(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                PreparedStatement p = c.prepareStatement("SELECT a FROM r")) {
            s.setMaxRows(5);
            assertEquals(5, count(s.executeQuery("SELECT a FROM r")));
            p.setMaxRows(5);
            assertEquals(ferryDriver(url) ? 5 : ROWS, count(p.executeQuery()));
            p.setMaxRows(0);
            assertEquals(ROWS, count(p.executeQuery()));
        }
    }

    /**
     * Auto-commit is always on. Ferry's driver refuses to turn it off and fails commit and rollback as JDBC says; the
     * stock driver sends them to the server, which keeps auto-commit on, accepts a commit (there is nothing left to
     * commit; Python's DB-API expects it to work) and fails a rollback.
     */
    @ParameterizedTest
    @MethodSource("urls")
    void autoCommitIsOnAndCannotBeTurnedOff(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            assertTrue(c.getAutoCommit());
            c.setAutoCommit(true);
            if (ferryDriver(url)) {
                SQLException off = assertThrows(SQLFeatureNotSupportedException.class, () -> c.setAutoCommit(false));
                assertEquals("0A000", off.getSQLState());
                assertEquals("2D000", assertThrows(SQLException.class, c::commit).getSQLState());
                assertEquals("2D000", assertThrows(SQLException.class, c::rollback).getSQLState());
                assertEquals("2D000", assertThrows(SQLException.class, c::setSavepoint).getSQLState());
            } else {
                c.setAutoCommit(false); // held by the driver; the server keeps auto-commit on, and says so
                assertTrue(c.getAutoCommit());
                assertEquals(ROWS, count(c.createStatement().executeQuery("SELECT a FROM r")));
                c.commit();
                RuntimeException rollback = assertThrows(RuntimeException.class, c::rollback);
                assertTrue(rollback.getMessage().contains("auto-commit mode"), rollback.getMessage());
            }
            assertTrue(c.getAutoCommit());
        }
    }

    @Test
    void anEmbeddedConnectionIsInAutoCommitMode() throws SQLException {
        try (Connection c = engine.connect()) {
            assertTrue(c.getAutoCommit());
            assertEquals("0A000", assertThrows(SQLFeatureNotSupportedException.class,
                    () -> c.setAutoCommit(false)).getSQLState());
            assertEquals("2D000", assertThrows(SQLException.class, c::commit).getSQLState());
            assertEquals("2D000", assertThrows(SQLException.class, c::rollback).getSQLState());
        }
    }

    /** A batch stops at its first failing statement; those before it stay applied, and the error says how many. */
    @ParameterizedTest
    @MethodSource("urls")
    void aFailingBatchSaysWhatItApplied(String url) throws SQLException {
        String table = ferryDriver(url) ? "batch_ferry" : "batch_avatica";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (a INTEGER PRIMARY KEY)");
            s.addBatch("INSERT INTO " + table + " VALUES (1)");
            s.addBatch("INSERT INTO " + table + " VALUES (2)");
            s.addBatch("INSERT INTO " + table + " VALUES (1)");
            s.addBatch("INSERT INTO " + table + " VALUES (3)");
            Exception plain = assertThrows(Exception.class, s::executeBatch);
            assertTrue(plain.getMessage().contains("statement 3 of the batch of 4 failed"), plain.getMessage());
            assertEquals(List.of(1, 2), ints(s.executeQuery("SELECT a FROM " + table + " ORDER BY a")));
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?)")) {
                for (int v : new int[] {4, 2, 5}) {
                    p.setInt(1, v);
                    p.addBatch();
                }
                SQLException prepared = assertThrows(SQLException.class, p::executeBatch);
                assertEquals("23505", prepared.getSQLState());
                assertTrue(prepared.getMessage().contains("statement 2 of the batch of 3 failed"));
                if (ferryDriver(url)) {
                    BatchUpdateException batch = (BatchUpdateException) prepared;
                    assertArrayEquals(new int[] {Statement.SUCCESS_NO_INFO}, batch.getUpdateCounts());
                    BatchUpdateException first = (BatchUpdateException) plain;
                    assertEquals("23505", first.getSQLState());
                    assertEquals(2, first.getUpdateCounts().length);
                }
                p.setInt(1, 6);
                p.addBatch();
                p.setInt(1, 7);
                p.addBatch();
                assertArrayEquals(new int[] {1, 1}, p.executeBatch());
            }
            assertEquals(List.of(1, 2, 4, 6, 7), ints(s.executeQuery("SELECT a FROM " + table + " ORDER BY a")));
        }
    }

    /** JDBC 4.2's Java types through ferry-jdbc; old dates in the proleptic calendar, as everywhere in Ferry. */
    @Test
    void getObjectReadsJavaTimeAndNumbers() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.ferryUrl()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT DATE '1500-03-01' d, TIMESTAMP '2020-01-02 03:04:05.250' t, "
                        + "CAST(12.25 AS DECIMAL(10, 2)) n, CAST(5000000000 AS BIGINT) b, 'x' s, "
                        + "CAST(NULL AS DATE) nd, '42' digits")) {
            rs.next();
            assertEquals(LocalDate.of(1500, 3, 1), rs.getObject(1, LocalDate.class));
            assertEquals(LocalDate.of(1500, 3, 1).atStartOfDay(), rs.getObject("d", LocalDateTime.class));
            LocalDateTime t = LocalDateTime.of(2020, 1, 2, 3, 4, 5, 250_000_000);
            assertEquals(t, rs.getObject(2, LocalDateTime.class));
            assertEquals(t.atOffset(ZoneOffset.UTC), rs.getObject(2, OffsetDateTime.class));
            assertEquals(t.toInstant(ZoneOffset.UTC), rs.getObject(2, Instant.class));
            assertEquals(new BigDecimal("12.25"), rs.getObject(3, BigDecimal.class));
            assertEquals(5_000_000_000L, rs.getObject(4, Long.class));
            assertEquals("x", rs.getObject(5, String.class));
            assertNull(rs.getObject(6, LocalDate.class));
            assertEquals(42, rs.getObject(7, Integer.class));
            assertEquals("22023", assertThrows(SQLException.class, () -> rs.getObject(1, Long.class)).getSQLState());
            assertEquals("22018", assertThrows(SQLException.class, () -> rs.getObject(5, Long.class)).getSQLState());
        }
    }

    /** getFunctions lists the functions of the four function lists (FunctionListsTest runs each), by pattern. */
    @Test
    void getFunctionsListsWhatRuns() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.ferryUrl())) {
            java.sql.DatabaseMetaData md = c.getMetaData();
            java.util.Set<String> listed = new java.util.TreeSet<>();
            for (String list : List.of(md.getStringFunctions(), md.getNumericFunctions(), md.getTimeDateFunctions(),
                    md.getSystemFunctions())) {
                for (String name : list.split(",")) {
                    listed.add(name.trim());
                }
            }
            assertTrue(listed.size() > 50, listed.toString());
            assertEquals(List.copyOf(listed), names(md.getFunctions(null, null, "%"), 3));
            assertEquals(List.of("ABS"), names(md.getFunctions(null, null, "_bs"), 3));
            String first = md.getStringFunctions().split(",")[0].trim();
            try (ResultSet f = md.getFunctions(null, null, first)) {
                assertTrue(f.next(), first);
                assertTrue(f.getString("REMARKS").contains("string function"), f.getString("REMARKS"));
                assertEquals(java.sql.DatabaseMetaData.functionNoTable, f.getInt("FUNCTION_TYPE"));
                assertEquals(first, f.getString("SPECIFIC_NAME"));
            }
            assertEquals(List.of(), names(md.getFunctions(null, null, "no_such_function"), 3));
        }
    }

    /** A query's ResultSetMetaData and getColumns say the same of each column, prepared or not. */
    @ParameterizedTest
    @MethodSource("urls")
    void resultMetadataAgreesWithGetColumns(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (String table : List.of("lineorder", "customer", "r")) {
                List<String> described = new ArrayList<>();
                try (ResultSet cols = c.getMetaData().getColumns(null, "ferry", table, null)) {
                    while (cols.next()) {
                        described.add(cols.getString("COLUMN_NAME") + " " + cols.getInt("DATA_TYPE") + " "
                                + cols.getInt("COLUMN_SIZE") + " " + cols.getInt("DECIMAL_DIGITS") + " "
                                + cols.getInt("NULLABLE"));
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " LIMIT 1");
                        PreparedStatement p = c.prepareStatement("SELECT * FROM " + table)) {
                    assertEquals(described, columns(rs.getMetaData()), table);
                    assertEquals(described, columns(p.getMetaData()), table + ", prepared");
                }
            }
        }
    }

    private static List<String> columns(java.sql.ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnName(i) + " " + md.getColumnType(i) + " " + md.getPrecision(i) + " " + md.getScale(i)
                    + " " + md.isNullable(i));
        }
        return out;
    }

    /** {@code _} stands for one character and {@code \} escapes, as getSearchStringEscape says. */
    @ParameterizedTest
    @MethodSource("urls")
    void metadataPatternsMatchOneCharacterAndEscape(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals("\\", c.getMetaData().getSearchStringEscape());
            assertEquals(List.of("customer"), names(c.getMetaData().getTables(null, "ferry", "_ustomer", null), 3));
            assertEquals(List.of("customer"), names(c.getMetaData().getTables(null, "f_rry", "cust_mer", null), 3));
            assertEquals(List.of("c_name"), names(c.getMetaData().getColumns(null, null, "customer", "c_n_me"), 4));
            assertEquals(List.of(), names(c.getMetaData().getColumns(null, null, "customer", "c\\_n\\_me"), 4));
            assertEquals(List.of("lo_orderdate", "lo_orderkey", "lo_orderpriority"),
                    names(c.getMetaData().getColumns(null, null, "lineorder", "lo\\_order%"), 4).stream().sorted()
                            .toList());
            assertEquals(List.of("customer"), names(c.getMetaData().getTables(null, null, "CUST_MER", null), 3));
        }
    }

    /**
     * A failure reaches the client as its SQLSTATE and sentence, without the server's stack trace; bytes that are no
     * Avatica request get a 400 that says so, a GET a 405 (Avatica's handler answered both with a Java stack).
     */
    @Test
    void errorsCarryNoServerStackTraces() throws Exception {
        try (Connection c = DriverManager.getConnection(server.avaticaUrl()); Statement s = c.createStatement()) {
            for (String bad : List.of("SELECT * FROM no_such_table", "SELEC 1", "SELECT 1 / 0",
                    "SELECT CAST('x' AS INTEGER)", "INSERT INTO r VALUES ('x', 'y', 'z')")) {
                AvaticaSqlException e = assertThrows(AvaticaSqlException.class, () -> s.execute(bad));
                assertEquals(List.of(), e.getStackTraces(), bad);
                assertTrue(e.getSQLState() != null && !e.getSQLState().equals("XX000"), bad + ": " + e.getSQLState());
            }
        }
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> garbage = http.send(HttpRequest.newBuilder(server.endpoint())
                .POST(HttpRequest.BodyPublishers.ofString("garbage")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, garbage.statusCode());
        assertTrue(garbage.body().contains("not an Avatica protobuf request"), garbage.body());
        assertFalse(garbage.body().contains("Exception") || garbage.body().contains("\tat "), garbage.body());
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(server.endpoint()).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode());
    }

    /** The server-wide query timeout (--query-timeout) stops a statement through either driver, 57014. */
    @Test
    @org.junit.jupiter.api.Timeout(120)
    void theServersQueryTimeoutStopsAStatement() throws SQLException {
        try (FerryEngine limited = FerryEngine.start(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(1L << 30).withQueryMemoryLimit(256L << 20)
                .withQueryTimeout(java.time.Duration.ofSeconds(1)))) {
            PaperTable.load(limited.catalog(), "big", 40_000, 100, ProgressListener.NONE);
            JdbcServer quick = JdbcServer.start(limited, "127.0.0.1", 0, List.of());
            try {
                for (String url : List.of(quick.avaticaUrl(), quick.ferryUrl())) {
                    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                        // a nested-loop join of 1.6e9 pairs: about 20 s on two cores
                        SQLException e = assertThrows(SQLException.class, () -> count(s.executeQuery(
                                "SELECT COUNT(*) FROM big x JOIN big y ON x.a * y.a = 7 OR x.a + y.a < 0")));
                        assertEquals("57014", e.getSQLState(), e.getMessage());
                        assertTrue(e.getMessage().contains("query timeout of 1 s"), e.getMessage());
                        assertEquals(1, count(s.executeQuery("SELECT 1")));
                    }
                }
            } finally {
                quick.close();
            }
        }
    }

    /**
     * A web page in a user's browser cannot reach the server: every request carrying a browser's Origin (or a
     * cross-site Sec-Fetch-Site) is refused with 403 before any endpoint reads it, the JDBC endpoint as the load
     * endpoint, and nothing it asked for happens; a driver's request, which carries neither, is served.
     */
    @Test
    void requestsFromWebPagesAreRefused() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (Connection c = DriverManager.getConnection(server.ferryUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE victim (x INTEGER)");
            try {
                for (String path : List.of("/", "/ferry/load?table=victim&mode=replace", "/ferry/cancel")) {
                    for (String[] header : List.of(new String[] {"Origin", "http://evil.example"},
                            new String[] {"Sec-Fetch-Site", "cross-site"})) {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.endpoint().resolve(path))
                                .header("Content-Type", "text/plain").header(header[0], header[1])
                                .POST(HttpRequest.BodyPublishers.ofString("DROP TABLE victim")).build(),
                                HttpResponse.BodyHandlers.ofString());
                        assertEquals(403, r.statusCode(), path + " " + header[0] + ": " + r.body());
                        assertTrue(r.body().contains("web pages are refused"), r.body());
                        assertFalse(r.headers().firstValue("Access-Control-Allow-Origin").isPresent());
                    }
                }
                assertEquals(0, count(s.executeQuery("SELECT x FROM victim")));
            } finally {
                s.execute("DROP TABLE victim");
            }
        }
    }

    /** A request whose body stops arriving ends with a one-line 408 once the idle timeout passes. */
    @Test
    void anIncompleteRequestTimesOut() throws Exception {
        try (JdbcServer quick = JdbcServer.start(engine, "127.0.0.1", 0, List.of(), java.time.Duration.ofSeconds(1));
                java.net.Socket socket = new java.net.Socket("127.0.0.1", quick.port())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nhello"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.endsWith("the request did not arrive whole within 1 s\n"), answer);
        }
    }

    private static int count(ResultSet rs) throws SQLException {
        int n = 0;
        try (rs) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }

    private static List<Integer> ints(ResultSet rs) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    private static List<String> names(ResultSet rs, int column) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(column));
            }
        }
        return out;
    }
}
