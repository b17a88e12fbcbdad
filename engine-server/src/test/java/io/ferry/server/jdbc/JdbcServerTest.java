package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.PreparedStatement;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.ferry.server.StartupException;
import io.ferry.server.data.PaperTable;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.SsbGenerator;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/** The JDBC server as a BI tool sees it: through Avatica's stock remote driver and through ferry-jdbc. */
class JdbcServerTest {
    private static FerryEngine engine;
    private static JdbcServer server;

    @BeforeAll
    static void start() throws SQLException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(1L << 30)
                .withQueryMemoryLimit(256L << 20));
        PaperTable.load(engine.catalog(), "r", 10_000, 100, ProgressListener.NONE);
        new SsbGenerator(0.001).load(engine.catalog(), ProgressListener.NONE);
        try (Connection c = engine.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE typed (d DECIMAL(15, 2), v VARCHAR(25) NOT NULL, s VARCHAR, t TIMESTAMP, dt DATE, "
                    + "x DOUBLE, f BOOLEAN, i INTEGER)");
        }
        server = JdbcServer.start(engine, "127.0.0.1", 0, List.of());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            // Throws if any Arrow buffer outlived the connections the server closed.
            engine.close();
            assertEquals(0, engine.allocator().getAllocatedMemory());
        }
    }

    static Stream<String> urls() {
        return Stream.of(server.avaticaUrl(), server.ferryUrl());
    }

    @ParameterizedTest
    @MethodSource("urls")
    void catalogsAndSchemas(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            // Ferry has no catalogs: TABLE_CAT is NULL everywhere, so there is none to list.
            assertEquals(List.of(), column(md.getCatalogs(), "TABLE_CAT"));
            // sys holds what the engine tells about itself (queries), information_schema the SQL standard's catalog.
            assertEquals(List.of("ferry", "information_schema", "sys"), column(md.getSchemas(), "TABLE_SCHEM"));
            assertEquals(List.of("ferry"), column(md.getSchemas(null, "fer%"), "TABLE_SCHEM"));
            assertEquals(List.of(), column(md.getSchemas(null, "meta%"), "TABLE_SCHEM"));
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void tables(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            Map<String, String> all = tableTypes(md.getTables(null, null, null, null));
            for (String t : List.of("r", "lineorder", "customer", "supplier", "part", "dwdate")) {
                assertEquals("TABLE", all.get(t), t + " in " + all);
            }
            assertEquals(Set.of("lineorder"), tableTypes(md.getTables(null, null, "line%", null)).keySet());
            Map<String, String> tables = tableTypes(md.getTables(null, "ferry", null, new String[] {"TABLE"}));
            // JDBC orders tables by type, catalog, schema and name.
            assertEquals(List.of("customer", "dwdate", "lineorder", "part", "r", "supplier", "typed"),
                    new ArrayList<>(tables.keySet()));
            assertTrue(tableTypes(md.getTables(null, null, "no_such%", null)).isEmpty());
            assertTrue(column(md.getTableTypes(), "TABLE_TYPE").contains("TABLE"));
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void columns(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, null, "r", null)) {
                assertTrue(rs.next());
                assertEquals("ferry", rs.getString("TABLE_SCHEM"));
                assertEquals("r", rs.getString("TABLE_NAME"));
                assertEquals("a", rs.getString("COLUMN_NAME"));
                assertEquals(Types.BIGINT, rs.getInt("DATA_TYPE"));
                assertEquals("BIGINT", rs.getString("TYPE_NAME"));
                assertEquals(DatabaseMetaData.columnNoNulls, rs.getInt("NULLABLE"));
                assertEquals("NO", rs.getString("IS_NULLABLE"));
                assertEquals(1, rs.getInt("ORDINAL_POSITION"));
                assertTrue(rs.next());
                assertEquals("b", rs.getString("COLUMN_NAME"));
                assertEquals(2, rs.getInt("ORDINAL_POSITION"));
                assertFalse(rs.next());
            }
            Map<String, Integer> lineorder = new LinkedHashMap<>();
            try (ResultSet rs = md.getColumns(null, "ferry", "lineorder", "lo_%")) {
                while (rs.next()) {
                    lineorder.put(rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"));
                }
            }
            assertEquals(SsbGenerator.schema("lineorder").size(), lineorder.size(), lineorder.toString());
            assertEquals(Types.INTEGER, lineorder.get("lo_orderdate"), lineorder.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void columnSizesAndDigitsFollowJdbc(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            Map<String, List<Object>> typed = new LinkedHashMap<>();
            try (ResultSet rs = c.getMetaData().getColumns(null, "ferry", "typed", null)) {
                while (rs.next()) {
                    typed.put(rs.getString("COLUMN_NAME"), List.of(rs.getString("TYPE_NAME"), rs.getInt("DATA_TYPE"),
                            rs.getInt("COLUMN_SIZE"), String.valueOf(rs.getObject("DECIMAL_DIGITS")),
                            String.valueOf(rs.getObject("NUM_PREC_RADIX")), rs.getInt("NULLABLE")));
                }
            }
            assertEquals(List.of("DECIMAL", Types.DECIMAL, 15, "2", "10", DatabaseMetaData.columnNullable),
                    typed.get("d"));
            assertEquals(List.of("VARCHAR", Types.VARCHAR, 25, "null", "null", DatabaseMetaData.columnNoNulls),
                    typed.get("v"));
            assertEquals(List.of("VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, "null", "null",
                    DatabaseMetaData.columnNullable), typed.get("s"));
            assertEquals(List.of("TIMESTAMP", Types.TIMESTAMP, 23, "3", "null", DatabaseMetaData.columnNullable),
                    typed.get("t"));
            assertEquals(List.of("DATE", Types.DATE, 10, "null", "null", DatabaseMetaData.columnNullable),
                    typed.get("dt"));
            assertEquals(List.of("DOUBLE", Types.DOUBLE, 15, "null", "10", DatabaseMetaData.columnNullable),
                    typed.get("x"));
            assertEquals(List.of("BOOLEAN", Types.BOOLEAN, 1, "null", "null", DatabaseMetaData.columnNullable),
                    typed.get("f"));
            assertEquals(List.of("INTEGER", Types.INTEGER, 10, "0", "10", DatabaseMetaData.columnNullable),
                    typed.get("i"));
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void typeInfoListsWhatFerryStores(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            List<String> types = column(c.getMetaData().getTypeInfo(), "TYPE_NAME");
            assertTrue(types.containsAll(List.of("BOOLEAN", "INTEGER", "BIGINT", "DOUBLE", "DECIMAL", "DATE",
                    "TIMESTAMP", "VARCHAR")), types.toString());
            assertFalse(types.stream().anyMatch(t -> t.startsWith("INTERVAL") || t.equals("ARRAY")), types.toString());
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void primaryKeysAreAnEmptyResultWithTheStandardColumns(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                ResultSet rs = c.getMetaData().getPrimaryKeys(null, "ferry", "r")) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                names.add(md.getColumnName(i).toUpperCase());
            }
            assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"), names);
            assertFalse(rs.next());
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void errorsCarryTheirSqlStateOverTheWire(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertState("42601", s, "SELEC 1");
            assertState("42P01", s, "SELECT * FROM no_such_table");
            assertState("42703", s, "SELECT no_such_column FROM r");
            assertState("42P01", () -> c.prepareStatement("SELECT * FROM no_such_table"));
            // The connection and the server keep serving after errors.
            try (ResultSet rs = s.executeQuery("SELECT 1 + 1")) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("urls")
    void queriesAnswer(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT b) FROM r")) {
            assertTrue(rs.next());
            assertEquals(10_000, rs.getLong(1));
            assertEquals(100, rs.getLong(2));
        }
    }

    /**
     * r's key a rises with the load order, so SYSTEM sampling with a GROUP BY or WHERE on it can miss groups: the
     * statement says so with a warning (ship-or-not section II-B.2). BERNOULLI, and a column spread over the blocks,
     * give none; a new execution replaces the warnings of the last.
     */
    @Test
    void aSampleThatCanMissGroupsWarns() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.ferryUrl()); Statement s = c.createStatement()) {
            drain(s.executeQuery("SELECT a, COUNT(*) FROM r TABLESAMPLE SYSTEM(50) REPEATABLE(1) GROUP BY a"));
            SQLWarning w = s.getWarnings();
            assertNotNull(w, "a warning for GROUP BY on the ordered column");
            assertEquals("01000", w.getSQLState());
            assertTrue(w.getMessage().contains("GROUP BY a") && w.getMessage().contains("BERNOULLI"), w.getMessage());
            assertNull(w.getNextWarning());
            assertSame(w, s.getWarnings(), "asked once per execution");
            drain(s.executeQuery("SELECT a, COUNT(*) FROM r TABLESAMPLE BERNOULLI(50) GROUP BY a"));
            assertNull(s.getWarnings(), "BERNOULLI has no such bias");
            drain(s.executeQuery("SELECT b, COUNT(*) FROM r TABLESAMPLE SYSTEM(50) GROUP BY b"));
            assertNull(s.getWarnings(), "b is spread over the blocks");
            drain(s.executeQuery("SELECT COUNT(*) FROM r TABLESAMPLE SYSTEM(50) WHERE a < 100"));
            assertTrue(s.getWarnings().getMessage().startsWith("WHERE a"), s.getWarnings().getMessage());
            s.clearWarnings();
            assertNull(s.getWarnings());
            try (PreparedStatement p = c.prepareStatement("SELECT a, SUM(b) FROM r TABLESAMPLE SYSTEM(20) "
                    + "WHERE b > 3 GROUP BY a")) {
                drain(p.executeQuery());
                assertNotNull(p.getWarnings(), "prepared statements warn too");
            }
        }
    }

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    /**
     * The Ferry driver reports the identifier rules Ferry applies (unquoted names lower case), so a tool that folds
     * a name as the driver says before a metadata call finds the table (sqlline's {@code !describe lineorder}).
     */
    @Test
    void theFerryDriverReportsLowerCaseIdentifiers() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.ferryUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS CaseProbe (Some_Column INTEGER)");
            DatabaseMetaData md = c.getMetaData();
            assertTrue(md.storesLowerCaseIdentifiers());
            assertFalse(md.storesUpperCaseIdentifiers());
            assertTrue(md.storesMixedCaseQuotedIdentifiers() || md.supportsMixedCaseQuotedIdentifiers());
            String folded = md.storesLowerCaseIdentifiers() ? "caseprobe" : "CASEPROBE";
            try (ResultSet rs = md.getColumns(null, null, folded, null)) {
                assertTrue(rs.next(), "the table is found under the name the driver's casing rule gives");
                assertEquals("some_column", rs.getString("COLUMN_NAME"));
            }
            s.execute("DROP TABLE CaseProbe");
        }
    }

    @Test
    void theFerryDriverNamesTheProduct() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.ferryUrl())) {
            assertEquals("Ferry", c.getMetaData().getDatabaseProductName());
            assertEquals("Ferry JDBC Driver", c.getMetaData().getDriverName());
        }
    }

    @Test
    void clientPropertiesOtherThanUserAndPasswordStayOnTheClient() throws SQLException {
        // "model" would make Calcite read a file on the server; the server must not pass it on.
        try (Connection c = DriverManager.getConnection(server.ferryUrl() + "?user=ann&model=/etc/passwd");
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertTrue(rs.next());
        }
    }

    @Test
    void aTakenPortIsAStartupErrorNamingTheOption() {
        StartupException e = assertThrows(StartupException.class,
                () -> JdbcServer.start(engine, "127.0.0.1", server.port(), List.of()));
        assertTrue(e.getMessage().contains("--port"), e.getMessage());
    }

    @Test
    void anUnknownHostIsAStartupErrorNamingTheOption() {
        StartupException e = assertThrows(StartupException.class,
                () -> JdbcServer.start(engine, "no-such-host.invalid", 0, List.of()));
        assertTrue(e.getMessage().contains("--host"), e.getMessage());
    }

    @Test
    void urlsNameTheBoundAddress() {
        assertEquals("jdbc:ferry://127.0.0.1:" + server.port(), server.ferryUrl());
        assertEquals("jdbc:avatica:remote:url=http://127.0.0.1:" + server.port() + ";serialization=PROTOBUF",
                server.avaticaUrl());
        assertNotNull(server.endpoint());
    }

    private interface SqlAction {
        void run() throws SQLException;
    }

    private static void assertState(String state, Statement s, String sql) {
        assertState(state, () -> s.executeQuery(sql).close());
    }

    private static void assertState(String state, SqlAction action) {
        SQLException e = assertThrows(SQLException.class, action::run);
        assertEquals(state, e.getSQLState(), e.getMessage());
    }

    private static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(name));
            }
        }
        return out;
    }

    private static Map<String, String> tableTypes(ResultSet rs) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (rs) {
            while (rs.next()) {
                out.put(rs.getString("TABLE_NAME"), rs.getString("TABLE_TYPE"));
            }
        }
        return out;
    }
}
