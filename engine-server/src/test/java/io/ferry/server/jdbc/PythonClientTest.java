package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A Python user's session through phoenixdb, Avatica's Python client (src/test/python/phoenixdb_session.py), against
 * a real JDBC server: every row comes back (phoenixdb leaves the row limit unset, which Avatica's server read as "no
 * rows"), a cursor runs a plain statement after a prepared one, types and errors arrive whole, and commit and
 * rollback behave as Ferry's auto-commit says.
 *
 * <p>The Python comes from {@code FERRY_PYTHON}, else from the venv {@code setup-phoenixdb.sh} makes by default.
 * Without one the test is skipped, unless {@code FERRY_REQUIRE_PYTHON_CLIENT=1} (CI sets it after running the setup
 * script), where it fails instead.
 */
class PythonClientTest {
    private static final int ROWS = 10_000;
    private static ServedEngine served;
    private static JdbcServer server;

    @BeforeAll
    static void start() throws SQLException {
        served = ServedEngine.start(ROWS, false);
        server = served.server();
    }

    @AfterAll
    static void stop() {
        if (served != null) {
            served.close();
        }
    }

    @Test
    void aPhoenixdbSessionGetsWhatItAsks() throws Exception {
        Map<String, JsonNode> steps = run(TestPythons.withModule("FERRY_PYTHON", "phoenixdb-venv", "phoenixdb",
                "FERRY_REQUIRE_PYTHON_CLIENT", "setup-phoenixdb.sh"));
        assertEquals("[[10000]]", steps.get("count").get("rows").toString());
        assertEquals("[[0,100],[1,100],[2,100]]", steps.get("second query").get("rows").toString());
        assertEquals(ROWS, steps.get("iterate").get("count").asInt());
        assertEquals("[[1],[2]]", steps.get("parameters").get("rows").toString());
        assertEquals("[[2]]", steps.get("plain after prepared").get("rows").toString());
        assertEquals("[\"1500-03-01\",\"2020-01-02T03:04:05\",\"12.25\",\"Zürich ✓ 東京\",null,true,1.5,"
                + "9223372036854775807]", steps.get("types").get("values").toString());
        JsonNode unknown = steps.get("unknown table").get("error");
        assertEquals("42P01", unknown.get("sqlstate").asText(), unknown.toString());
        assertEquals("[[2]]", steps.get("after an error").get("rows").toString());
        assertEquals("[[1,\"a\"],[2,\"ü\"],[3,null]]", steps.get("executemany").get("rows").toString());
        JsonNode batch = steps.get("failing batch").get("error");
        assertEquals("23505", batch.get("sqlstate").asText(), batch.toString());
        assertTrue(batch.get("message").asText().contains("statement 2 of the batch of 3 failed"), batch.toString());
        assertEquals("[[4]]", steps.get("after the failing batch").get("rows").toString());
        assertEquals("2D000", steps.get("rollback").get("error").get("sqlstate").asText());
        assertTrue(steps.containsKey("closed"));
    }

    private static Map<String, JsonNode> run(String python) throws IOException, InterruptedException {
        return TestPythons.steps(python, "phoenixdb_session.py", "http://127.0.0.1:" + server.port() + "/");
    }
}
