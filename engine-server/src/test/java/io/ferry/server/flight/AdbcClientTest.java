package io.ferry.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.ferry.server.LocalNode;
import io.ferry.server.ServerSecurity;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.jdbc.TestPythons;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.access.AccessControl;

/**
 * A Python user on Ferry's Flight SQL endpoint with ADBC's Flight SQL driver and pyarrow
 * ({@code src/test/python/adbc_session.py}): logging in (and a wrong password refused), queries into Arrow tables,
 * a reused cursor, parameters, DDL, executemany, an error and the session going on after it, the catalog
 * (get_objects, a table's schema), and a reader dropped half way through a large result.
 *
 * <p>The Python comes from {@code FERRY_FLIGHT_PYTHON}, else from the venv {@code setup-flightsql.sh} makes.
 */
class AdbcClientTest {
    private static final int ROWS = 5000;

    @TempDir
    static Path dir;
    private static LocalNode node;

    @BeforeAll
    static void start() throws Exception {
        Path users = dir.resolve("users");
        AccessControl.addToFile(users, "analyst", "analyst password".toCharArray(), true);
        node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(256L << 20), "127.0.0.1", 0, null, List.of(dir), new ServerSecurity(users, false)),
                ProgressListener.NONE);
        node.serveFlight(0);
        try (Connection c = node.engine().connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (k BIGINT NOT NULL, g INTEGER, s VARCHAR, p DECIMAL(10, 2), dt DATE)");
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < ROWS; i++) {
                values.append(i == 0 ? "" : ", ").append("(").append(i).append(", ").append(i % 7).append(", ")
                        .append(i % 10 == 0 ? "NULL" : "'row " + i + "'").append(", ").append(i).append(".25, ")
                        .append("DATE '").append(java.time.LocalDate.of(2024, 1, 1).plusDays(i % 300)).append("')");
            }
            s.execute("INSERT INTO t VALUES " + values);
        }
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void anAdbcSessionGetsWhatItAsks() throws Exception {
        String python = TestPythons.withModule("FERRY_FLIGHT_PYTHON", "flightsql-venv", "adbc_driver_flightsql",
                "FERRY_REQUIRE_PYTHON_CLIENT", "setup-flightsql.sh");
        Map<String, JsonNode> steps = run(python);
        JsonNode wrong = steps.get("wrong password").get("error");
        assertFalse(wrong.isNull(), "a wrong password is refused");
        assertTrue(wrong.get("message").asText().contains("28P01"), wrong.toString());
        // SUM of a BIGINT is a DECIMAL (as in PostgreSQL), which Python holds as a Decimal
        assertEquals("[[" + ROWS + ",\"" + (long) ROWS * (ROWS - 1) / 2 + "\"]]", steps.get("count").get("rows")
                .toString());
        JsonNode table = steps.get("arrow table");
        assertEquals(ROWS, table.get("rows").asInt());
        assertEquals("[\"int64\",\"int32\",\"string\",\"decimal128(10, 2)\",\"date32[day]\"]",
                table.get("types").toString());
        assertEquals(ROWS / 10, table.get("nulls").asInt());
        assertEquals("[[0,715],[1,715],[2,714]]", steps.get("second query").get("rows").toString());
        assertEquals("[[0],[1],[2]]", steps.get("parameters").get("rows").toString());
        assertEquals("[[0],[1]]", steps.get("parameters again").get("rows").toString());
        assertEquals("[[2]]", steps.get("plain after prepared").get("rows").toString());
        // 2024-01-02 03:00 minus 2024-01-01 and 2024-01-02: 27 and 3 hours
        assertEquals("[\"int64\",\"duration[ms]\",\"month_interval\"]",
                steps.get("intervals").get("types").toString());
        assertEquals("[97200.0,10800.0]", steps.get("intervals").get("seconds").toString());
        assertEquals("[[1,\"a\"],[2,\"ü\"],[3,null]]", steps.get("executemany").get("rows").toString());
        JsonNode unknown = steps.get("unknown table").get("error");
        assertTrue(unknown.get("message").asText().contains("42P01"), unknown.toString());
        assertEquals("[[2]]", steps.get("after an error").get("rows").toString());
        assertTrue(steps.get("get_objects").get("tables").toString().contains("\"t\""),
                steps.get("get_objects").toString());
        assertEquals("[\"int64\",\"int32\",\"string\",\"decimal128(10, 2)\",\"date32[day]\"]",
                steps.get("table schema").get("schema").toString());
        assertTrue(steps.get("walk away").get("batch_rows").asInt() > 0);
        assertTrue(steps.get("pyarrow.flight").get("authenticated").asBoolean());
        assertTrue(steps.containsKey("closed"));
    }

    private static Map<String, JsonNode> run(String python) throws IOException, InterruptedException {
        return TestPythons.steps(python, "adbc_session.py", "grpc://127.0.0.1:" + node.flight().port(), "analyst",
                "analyst password");
    }
}
