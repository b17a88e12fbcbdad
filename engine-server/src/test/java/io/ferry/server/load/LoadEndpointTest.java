package io.ferry.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.core.FerryException;
import io.ferry.core.types.FerryType;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.data.RecordingProgress;
import io.ferry.server.jdbc.JdbcServer;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/** The CSV load endpoint through its client, as {@code ferry load} uses it. */
class LoadEndpointTest {
    @TempDir
    static Path dir;

    private static FerryEngine engine;
    private static JdbcServer server;
    private static Path people;

    @BeforeAll
    static void start() throws IOException {
        engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(256L << 20)
                .withQueryMemoryLimit(64L << 20));
        server = JdbcServer.start(engine, "127.0.0.1", 0,
                List.of(new LoadEndpoint(new ServerLoad(engine, LoadPolicy.of(List.of(), true)))));
        people = write("people.csv", "id,name,born\n1,Ann,1990-01-02\n2,\"Bo, Jr.\",\n3,\"\",2001-12-31\n");
    }

    @AfterAll
    static void stop() {
        server.close();
        engine.close();
    }

    @Test
    void createInfersTheColumnsAndLoadsEveryRow() throws Exception {
        RecordingProgress progress = new RecordingProgress();
        LoadClient.Result result = LoadClient.load(server.endpoint(),
                LoadRequest.of("people_inferred", people.toString()).withCreate(true), progress);
        assertEquals(new LoadClient.Result("people_inferred", 3, result.millis()), result);
        assertEquals(FerryType.BIGINT, engine.catalog().require("people_inferred").schema().type(0));
        assertEquals(FerryType.DATE, engine.catalog().require("people_inferred").schema().type(2));
        assertEquals(List.of("start load people_inferred " + Files.size(people) + " BYTES",
                "update " + Files.size(people), "finish"), progress.calls);
        assertEquals(List.of("3", "Bo, Jr.", "null"),
                row("SELECT COUNT(*), MAX(name), MIN(CASE WHEN id = 2 THEN born END) FROM people_inferred"));
    }

    @Test
    void aSchemaGivesTheColumnTypesAndAnExistingTableGetsTheRowsAdded() throws Exception {
        LoadRequest request = LoadRequest.of("people_typed", people.toString())
                .withSchema("id INTEGER NOT NULL, name VARCHAR(20), born DATE");
        assertEquals(3, LoadClient.load(server.endpoint(), request, ProgressListener.NONE).rows());
        assertEquals(FerryType.INTEGER, engine.catalog().require("people_typed").schema().type(0));
        assertEquals(FerryType.varchar(20), engine.catalog().require("people_typed").schema().type(1));

        LoadRequest again = LoadRequest.of("people_typed", people.toString());
        assertEquals(3, LoadClient.load(server.endpoint(), again, ProgressListener.NONE).rows());
        assertEquals(List.of("6"), row("SELECT COUNT(*) FROM people_typed"));
    }

    @Test
    void optionsReachTheLoader() throws Exception {
        Path tsv = write("pipes.tsv", "1\tNA\n2\tx\n");
        LoadRequest request = LoadRequest.of("pipes", tsv.toString()).withHeader(false).withDelimiter('\t')
                .withNullString("NA").withSchema("k BIGINT, v VARCHAR");
        assertEquals(2, LoadClient.load(server.endpoint(), request, ProgressListener.NONE).rows());
        assertEquals(List.of("1", "x"), row("SELECT COUNT(v), MAX(v) FROM pipes"));
    }

    /** {@code ferry load --generate skew:…}: the server makes the skew paper's four tables, all or none. */
    @Test
    void generatesTheSkewWorkloadsTables() throws Exception {
        assertState("22023", LoadRequest.generating("skew:distribution=zipf"));
        assertState("22023", LoadRequest.generating("tpch:rows=10"));
        assertNull(engine.catalog().get("a"));
        LoadClient.Result result = LoadClient.load(server.endpoint(),
                LoadRequest.generating("skew:rows=5000,distribution=zipf,partitions=4"), ProgressListener.NONE);
        assertEquals(new LoadClient.Result("the tables of skew:rows=5000,distribution=zipf,partitions=4", 20000,
                result.millis()), result);
        assertEquals(List.of("5000", "5000"), row("SELECT COUNT(*), COUNT(DISTINCT pk) FROM d"));
        assertEquals(List.of("5000"), row("SELECT COUNT(*) FROM a JOIN b ON a.fk = b.pk"));
        assertEquals(4, engine.catalog().require("a").partitioning().partitions());
        assertState("42P07", LoadRequest.generating("skew:rows=10"));
        for (String t : List.of("a", "b", "c", "d")) {
            engine.catalog().drop(t, false);
        }
    }

    @Test
    void aMissingTableNeedsCreate() {
        assertState("42P01", LoadRequest.of("nowhere", people.toString()));
        assertNull(engine.catalog().get("nowhere"));
    }

    @Test
    void createRefusesAnExistingTable() throws Exception {
        LoadClient.load(server.endpoint(), LoadRequest.of("twice", people.toString()).withCreate(true),
                ProgressListener.NONE);
        assertState("42P07", LoadRequest.of("twice", people.toString()).withCreate(true));
        assertEquals(List.of("3"), row("SELECT COUNT(*) FROM twice"));
    }

    @Test
    void aFailedLoadLeavesNoTableBehind() {
        assertState("22018", LoadRequest.of("typed_wrong", people.toString())
                .withSchema("id INTEGER, name INTEGER, born DATE"));
        assertNull(engine.catalog().get("typed_wrong"));
        assertState("0A000", LoadRequest.of("typed_bad", people.toString()).withSchema("id FOO"));
        assertNull(engine.catalog().get("typed_bad"));
    }

    @Test
    void pathsAreCheckedOnTheServer() {
        assertState("58P01", LoadRequest.of("t", dir.resolve("missing.csv").toString()).withCreate(true));
        assertState("58P01", LoadRequest.of("t", dir.toString()).withCreate(true));
        assertState("22023", LoadRequest.of("t", "relative.csv").withCreate(true));
        assertState("22023", new LoadRequest("t", people.toString(), true, ";;", "\"", "", true, null, null, null, null, null,
                null));
    }

    @Test
    void malformedRequestsAreRefused() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI endpoint = server.endpoint().resolve(LoadEndpoint.PATH);
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(endpoint).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode());
        assertTrue(get.body().contains("\"error\""), get.body());
        for (String body : new String[] {"{not json", "{\"table\":\"t\",\"path\":\"/x\",\"typo\":1}"}) {
            HttpResponse<String> bad = http.send(HttpRequest.newBuilder(endpoint)
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, bad.statusCode(), body);
            assertTrue(bad.body().contains("\"sqlState\":\"22023\""), bad.body());
        }
        // The JDBC side of the port is untouched by the load endpoint.
        try (Connection c = DriverManager.getConnection(server.avaticaUrl()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1")) {
            assertTrue(rs.next());
        }
    }

    @Test
    void noServerIsAConnectionError() {
        FerryException e = assertThrows(FerryException.class, () -> LoadClient.load(URI.create("http://127.0.0.1:1"),
                LoadRequest.of("t", people.toString()), ProgressListener.NONE));
        assertEquals("08001", e.sqlState());
    }

    private static void assertState(String state, LoadRequest request) {
        FerryException e = assertThrows(FerryException.class,
                () -> LoadClient.load(server.endpoint(), request, ProgressListener.NONE));
        assertEquals(state, e.sqlState(), e.getMessage());
    }

    private static List<String> row(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.avaticaUrl()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.add(String.valueOf(rs.getObject(i)));
            }
            return out;
        }
    }

    private static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }
}
