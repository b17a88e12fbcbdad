package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.load.LoadClient;
import io.ferry.server.load.LoadEndpoint;
import io.ferry.server.load.LoadPolicy;
import io.ferry.server.load.LoadRequest;
import io.ferry.server.load.ServerLoad;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.access.AccessControl;

/**
 * Users, passwords and grants on a real JDBC server with a users file, through ferry-jdbc, Avatica's stock driver,
 * raw HTTP and the load endpoint: each attack the front door must stop, and what a granted user may do.
 */
class AccessControlOverJdbcTest {
    private static final String ROOT_PASSWORD = "root password 1";

    @TempDir
    static Path dir;
    private static Path usersFile;
    private static FerryEngine engine;
    private static JdbcServer server;

    @BeforeAll
    static void start() throws SQLException {
        usersFile = dir.resolve("users");
        AccessControl.addToFile(usersFile, "root", ROOT_PASSWORD.toCharArray(), true);
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(256L << 20));
        engine.setAccess(AccessControl.load(usersFile));
        server = JdbcServer.start(engine, "127.0.0.1", 0,
                List.of(new LoadEndpoint(new ServerLoad(engine, LoadPolicy.of(List.of(dir), true)))));
        try (Connection c = connect("root", ROOT_PASSWORD); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (k INTEGER, v VARCHAR)");
            s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
            s.execute("CREATE TABLE secret (k INTEGER)");
            s.execute("INSERT INTO secret VALUES (42)");
            s.execute("CREATE VIEW t_view AS SELECT k FROM t WHERE k > 1");
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
            assertEquals(0, engine.allocator().getAllocatedMemory());
        }
    }

    private static Connection connect(String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return DriverManager.getConnection(server.ferryUrl(), p);
    }

    private static Connection stockAvatica(String user, String password) throws SQLException {
        return DriverManager.getConnection(server.avaticaUrl() + ";authentication=BASIC;avatica_user=" + user
                + ";avatica_password=" + password);
    }

    /** A user made by root, with a fresh name per test so the tests stay independent. */
    private static String newUser(String name, String... grants) throws SQLException {
        try (Connection c = connect("root", ROOT_PASSWORD); Statement s = c.createStatement()) {
            s.execute("CREATE USER " + name + " WITH PASSWORD '" + name + "-password'");
            for (String g : grants) {
                s.execute(g + " TO " + name);
            }
        }
        return name;
    }

    private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    private static String stateOf(Connection c, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }, sql);
        return e.getSQLState();
    }

    @Test
    void noCredentialsAndWrongPasswordsAreRefused() {
        SQLException none = assertThrows(SQLException.class, () -> DriverManager.getConnection(server.ferryUrl()));
        assertEquals("28000", none.getSQLState(), none.getMessage());
        assertEquals("28P01", assertThrows(SQLException.class, () -> connect("root", "wrong")).getSQLState());
        assertEquals("28P01", assertThrows(SQLException.class, () -> connect("nobody", "wrong")).getSQLState());
        // Avatica's stock driver lets the server's error escape unchecked, with its SQLSTATE
        AvaticaClientRuntimeException stock = assertThrows(AvaticaClientRuntimeException.class,
                () -> stockAvatica("root", "wrong"));
        assertEquals("28P01", stock.getSqlState(), stock.getMessage());
        assertFalse(stock.getMessage().contains("at io.ferry"), stock.getMessage());
    }

    @Test
    void theStockDriverAndFerryJdbcLogIn() throws SQLException {
        try (Connection c = stockAvatica("root", ROOT_PASSWORD)) {
            assertEquals(List.of(List.of(2L)), rows(c, "SELECT COUNT(*) FROM t"));
        }
        try (Connection c = connect("root", ROOT_PASSWORD)) {
            assertEquals("root", c.getMetaData().getUserName());
        }
    }

    @Test
    void grantsDecideWhatAUserMayDo() throws SQLException {
        String reader = newUser("reader1", "GRANT SELECT ON t");
        try (Connection c = connect(reader, reader + "-password")) {
            assertEquals(List.of(List.of(1, "one"), List.of(2, "two")), rows(c, "SELECT k, v FROM t ORDER BY k"));
            assertEquals("42501", stateOf(c, "SELECT * FROM secret"));
            assertEquals("42501", stateOf(c, "SELECT * FROM t JOIN secret ON t.k = secret.k"));
            assertEquals("42501", stateOf(c, "SELECT k FROM t WHERE k IN (SELECT k FROM secret)"));
            assertEquals("42501", stateOf(c, "INSERT INTO t VALUES (3, 'three')"));
            assertEquals("42501", stateOf(c, "DELETE FROM t"));
            assertEquals("42501", stateOf(c, "TRUNCATE TABLE t"));
            assertEquals("42501", stateOf(c, "DROP TABLE t"));
            assertEquals("42501", stateOf(c, "CREATE TABLE mine (k INTEGER)"));
            assertEquals("42501", stateOf(c, "CREATE USER sneaky WITH PASSWORD 'sneaky-password'"));
            assertEquals("42501", stateOf(c, "GRANT SELECT ON secret TO " + reader));
            assertEquals("42501", stateOf(c, "EXPLAIN PLAN FOR SELECT * FROM secret"));
            assertEquals("42501", stateOf(c, "COPY t TO '" + dir.resolve("out.csv") + "'"));
        }
        try (Connection root = connect("root", ROOT_PASSWORD)) {
            assertEquals(List.of(List.of(2L)), rows(root, "SELECT COUNT(*) FROM t"), "nothing the reader tried "
                    + "changed the table");
            try (Statement s = root.createStatement()) {
                s.execute("GRANT INSERT ON t TO " + reader);
            }
        }
        try (Connection c = connect(reader, reader + "-password"); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (3, 'three')"));
            assertEquals("42501", stateOf(c, "DELETE FROM t WHERE k = 3"));
        }
        try (Connection root = connect("root", ROOT_PASSWORD); Statement s = root.createStatement()) {
            assertEquals(1, s.executeUpdate("DELETE FROM t WHERE k = 3"));
        }
    }

    @Test
    void listingsShowTheTablesAUserHoldsAPrivilegeOn() throws SQLException {
        String browser = newUser("browser1", "GRANT SELECT ON t");
        for (Connection c : List.of(connect(browser, browser + "-password"),
                stockAvatica(browser, browser + "-password"))) {
            try (c) {
                assertEquals(List.of("t"), names(c.getMetaData().getTables(null, "ferry", "%", null), "TABLE_NAME"));
                assertEquals(List.of("k", "v"), names(c.getMetaData().getColumns(null, "ferry", "%", "%"),
                        "COLUMN_NAME"), "no column of secret or t_view");
                assertEquals(List.of(List.of("t")), rows(c, "SELECT table_name FROM information_schema.tables "
                        + "WHERE table_schema = 'ferry'"));
                assertEquals(List.of(), rows(c, "SELECT * FROM information_schema.columns WHERE table_name = "
                        + "'secret'"));
                assertEquals(1, rows(c, "SHOW TABLES").size());
            }
        }
        try (Connection root = connect("root", ROOT_PASSWORD)) {
            List<String> all = names(root.getMetaData().getTables(null, "ferry", "%", null), "TABLE_NAME");
            assertTrue(all.containsAll(List.of("t", "secret", "t_view")), all.toString());
        }
    }

    private static List<String> names(ResultSet rs, String column) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                out.add(rs.getString(column));
            }
        }
        return out;
    }

    @Test
    void aViewIsReadWithItsOwnGrant() throws SQLException {
        String viewer = newUser("viewer1", "GRANT SELECT ON t_view");
        try (Connection c = connect(viewer, viewer + "-password")) {
            assertEquals(List.of(List.of(2)), rows(c, "SELECT k FROM t_view ORDER BY k"));
            assertEquals("42501", stateOf(c, "SELECT k FROM t"));
        }
    }

    @Test
    void aRevokeStopsAPreparedStatementAtItsNextRun() throws SQLException {
        String user = newUser("revoked1", "GRANT SELECT ON t");
        try (Connection c = connect(user, user + "-password");
                PreparedStatement p = c.prepareStatement("SELECT COUNT(*) FROM t WHERE k > ?")) {
            p.setInt(1, 0);
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
            }
            try (Connection root = connect("root", ROOT_PASSWORD); Statement s = root.createStatement()) {
                s.execute("REVOKE ALL ON t FROM " + user);
            }
            SQLException e = assertThrows(SQLException.class, () -> p.executeQuery().close());
            assertEquals("42501", e.getSQLState());
            // the plan cache does not remember a plan past a revoke either
            assertEquals("42501", stateOf(c, "SELECT COUNT(*) FROM t WHERE k > 0"));
        }
    }

    @Test
    void droppedUsersAndChangedPasswordsTakeEffectAtOnce() throws SQLException {
        String user = newUser("changing1", "GRANT SELECT ON t");
        try (Connection c = connect(user, user + "-password"); Statement s = c.createStatement()) {
            // a user may change no one else's password, and their own; a connection that logged in with the old one
            // may then only close what it opened (a leaked password stops working everywhere once it is changed)
            assertEquals("42501", stateOf(c, "ALTER USER root WITH PASSWORD 'taken over!'"));
            s.execute("ALTER USER " + user + " WITH PASSWORD 'a new password'");
            assertEquals("28P01", assertThrows(SQLException.class, () -> rows(c, "SELECT COUNT(*) FROM t"))
                    .getSQLState());
        }
        assertEquals("28P01", assertThrows(SQLException.class, () -> connect(user, user + "-password"))
                .getSQLState());
        try (Connection c = connect(user, "a new password"); Connection root = connect("root", ROOT_PASSWORD);
                Statement s = root.createStatement()) {
            s.execute("DROP USER " + user);
            // the password no longer opens anything: the user is gone
            assertEquals("28P01", assertThrows(SQLException.class, () -> rows(c, "SELECT k FROM t")).getSQLState());
        }
    }

    @Test
    void theUsersFileKeepsHashesNotPasswordsAndSurvivesARestart() throws Exception {
        String user = newUser("kept1", "GRANT SELECT, INSERT ON t");
        String text = Files.readString(usersFile, StandardCharsets.UTF_8);
        assertFalse(text.contains("kept1-password"), text);
        assertFalse(text.contains(ROOT_PASSWORD), text);
        assertTrue(text.contains("pbkdf2-sha256$600000$"), text);
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(usersFile));
        AccessControl reread = AccessControl.load(usersFile);
        assertEquals("kept1", reread.authenticate(user, "kept1-password".toCharArray()).user());
        assertTrue(reread.grants(io.ferry.sql.access.Principal.owner()).stream()
                .anyMatch(g -> g.user().equals(user) && g.table().equals("t") && g.privilege().sql().equals("INSERT")));
    }

    @Test
    void passwordsNeverReachTheQueryLogAndUsersSeeTheirOwnQueriesOnly() throws SQLException {
        String user = newUser("logged1");
        try (Connection c = connect(user, user + "-password")) {
            rows(c, "SELECT 41 + 1");
            List<List<Object>> seen = rows(c, "SELECT statement, user_name FROM sys.queries");
            assertFalse(seen.isEmpty());
            for (List<Object> row : seen) {
                assertEquals(user, row.get(1), "another user's statement is visible: " + row);
            }
        }
        try (Connection root = connect("root", ROOT_PASSWORD)) {
            List<List<Object>> all = rows(root, "SELECT statement FROM sys.queries");
            assertTrue(all.stream().anyMatch(row -> row.get(0).toString().contains("names a password")), all.toString());
            for (List<Object> row : all) {
                assertFalse(row.get(0).toString().contains("-password"), row.toString());
            }
            assertEquals(List.of(List.of(user, false)), rows(root, "SELECT user_name, admin FROM sys.users WHERE "
                    + "user_name = '" + user + "'"));
        }
    }

    @Test
    void aConnectionOrStatementOfAnotherUserCannotBeUsed() throws Exception {
        String user = newUser("thief1");
        try (Connection root = connect("root", ROOT_PASSWORD); Statement s = root.createStatement()) {
            s.setFetchSize(1);
            try (ResultSet rs = s.executeQuery("SELECT k FROM secret")) {
                String connectionId = root.unwrap(AvaticaConnection.class).id;
                ProtobufTranslationImpl protobuf = new ProtobufTranslationImpl();
                for (int statementId = 0; statementId < 4; statementId++) {
                    byte[] fetch = protobuf.serializeRequest(new Service.FetchRequest(connectionId, statementId, 0,
                            100));
                    HttpResponse<byte[]> answer = post(fetch, user, user + "-password");
                    Service.Response response = protobuf.parseResponse(answer.body());
                    assertTrue(response instanceof Service.ErrorResponse, response.toString());
                    assertEquals("42501", ((Service.ErrorResponse) response).sqlState, response.toString());
                }
                assertTrue(rs.next(), "the owner still reads its result");
            }
        }
        // on its own connection, a statement number not made yet: it could be another user's by the time it ran
        try (Connection own = connect(user, user + "-password")) {
            String id = own.unwrap(AvaticaConnection.class).id;
            ProtobufTranslationImpl protobuf = new ProtobufTranslationImpl();
            byte[] run = protobuf.serializeRequest(new Service.PrepareAndExecuteRequest(id, 1_000_000,
                    "SELECT k FROM secret", 100));
            Service.Response response = protobuf.parseResponse(post(run, user, user + "-password").body());
            assertTrue(response instanceof Service.ErrorResponse, response.toString());
            assertEquals("42501", ((Service.ErrorResponse) response).sqlState, response.toString());
        }
    }

    @Test
    void aUserDroppedAndMadeAgainIsANewUser() throws SQLException {
        String user = newUser("reborn1");
        try (Connection old = connect(user, user + "-password")) {
            try (Connection root = connect("root", ROOT_PASSWORD); Statement s = root.createStatement()) {
                s.execute("DROP USER " + user);
                s.execute("CREATE USER " + user + " WITH PASSWORD '" + user + "-password' ADMIN");
            }
            // the old connection is not the new user's: refused as another user's (42501) or a gone user's (28000)
            String state = assertThrows(SQLException.class, () -> rows(old, "SELECT k FROM t")).getSQLState();
            assertTrue(state.equals("42501") || state.equals("28000"), state);
        }
        try (Connection fresh = connect(user, user + "-password")) {
            assertEquals(List.of(List.of(2L)), rows(fresh, "SELECT COUNT(*) FROM t"));
        }
    }

    private static HttpResponse<byte[]> post(byte[] body, String user, String password) throws Exception {
        String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void loadsNeedTheInsertGrantAndCreatingATableAnAdmin() throws Exception {
        String user = newUser("loader1", "GRANT SELECT ON t");
        Path csv = dir.resolve("rows.csv");
        Files.writeString(csv, "k,v\n7,seven\n");
        String basic = "Basic " + Base64.getEncoder().encodeToString((user + ":" + user + "-password")
                .getBytes(StandardCharsets.UTF_8));
        FerryException denied = assertThrows(FerryException.class, () -> LoadClient.load(server.endpoint(),
                LoadRequest.of("t", csv.toString()), basic, null, ProgressListener.NONE));
        assertEquals("42501", denied.sqlState(), denied.getMessage());
        assertEquals("42501", assertThrows(FerryException.class, () -> LoadClient.load(server.endpoint(),
                LoadRequest.of("fresh", csv.toString()).withCreate(true), basic, null, ProgressListener.NONE)).sqlState());
        assertEquals("28000", assertThrows(FerryException.class, () -> LoadClient.load(server.endpoint(),
                LoadRequest.of("t", csv.toString()), ProgressListener.NONE)).sqlState());
        try (Connection root = connect("root", ROOT_PASSWORD); Statement s = root.createStatement()) {
            s.execute("GRANT INSERT ON t TO " + user);
        }
        assertEquals(1, LoadClient.load(server.endpoint(), LoadRequest.of("t", csv.toString()), basic, null,
                ProgressListener.NONE).rows());
        try (Connection root = connect("root", ROOT_PASSWORD); Statement s = root.createStatement()) {
            assertEquals(1, s.executeUpdate("DELETE FROM t WHERE k = 7"));
        }
    }

    /** phoenixdb (src/test/python/phoenixdb_login.py), skipped like PythonClientTest when no Python client is set up. */
    @Test
    void aPythonClientLogsIn() throws Exception {
        String python = TestPythons.withModule("FERRY_PYTHON", "phoenixdb-venv", "phoenixdb",
                "FERRY_REQUIRE_PYTHON_CLIENT", "setup-phoenixdb.sh");
        String user = newUser("python1", "GRANT SELECT ON t");
        Path script = Path.of("src/test/python/phoenixdb_login.py").toAbsolutePath();
        Process p = new ProcessBuilder(python, script.toString(), server.endpoint() + "/", user, user + "-password")
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the phoenixdb session did not finish");
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), stdout + stderr);
        Map<String, JsonNode> steps = new HashMap<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : stdout.split("\n")) {
            if (!line.isBlank()) {
                JsonNode step = json.readTree(line);
                steps.put(step.get("step").asText(), step);
            }
        }
        assertTrue(steps.get("wrong password").get("error").toString().contains("28P01"), stdout);
        assertEquals("[[1],[2]]", steps.get("granted").get("rows").toString());
        assertEquals("42501", steps.get("not granted").get("error").get("sqlstate").asText(), stdout);
        assertEquals("[[2]]", steps.get("after the refusal").get("rows").toString());
        assertTrue(steps.containsKey("closed"));
    }

    @Test
    void theLastAdminStays() throws SQLException {
        try (Connection root = connect("root", ROOT_PASSWORD)) {
            assertEquals("2BP01", stateOf(root, "DROP USER root"));
            assertEquals("22023", stateOf(root, "REVOKE ADMIN FROM root"));
            assertEquals("22023", stateOf(root, "CREATE USER shorty WITH PASSWORD 'short'"));
            assertEquals("42P01", stateOf(root, "GRANT SELECT ON no_such_table TO root"));
            assertEquals("42710", stateOf(root, "CREATE USER root WITH PASSWORD 'long enough'"));
        }
    }
}
