package io.ferry.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ferry.server.LocalNode;
import io.ferry.server.ServerSecurity;
import io.ferry.server.cluster.TwoWorkerCluster;
import io.ferry.server.data.ProgressListener;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.access.AccessControl;

/**
 * Scrapes {@code /metrics} as Prometheus would, over HTTP with Basic authentication, before and after statements
 * run: the counters and histograms move by what ran, the gauges read what the node holds, and on a cluster the
 * coordinator's fabric counts the bytes a data-shipped query read.
 */
class MetricsEndpointTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path dir;

    @Test
    void aLocalNodeCountsItsStatements() throws Exception {
        Path users = dir.resolve("users");
        AccessControl.addToFile(users, "ops", "ops password".toCharArray(), true);
        try (LocalNode node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(256L << 20), "127.0.0.1", 0, null, List.of(dir), new ServerSecurity(users, false)),
                ProgressListener.NONE)) {
            String url = "http://127.0.0.1:" + node.server().port() + MetricsEndpoint.PATH;
            HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, anonymous.statusCode(), "metrics are behind the JDBC port's authentication");

            try (Connection c = node.engine().connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE m (k BIGINT, v VARCHAR)");
                s.execute("INSERT INTO m SELECT x, 'value ' || x FROM (VALUES (1), (2), (3)) t(x)");
                Map<String, Double> before = scrape(url, "ops", "ops password");
                for (int i = 0; i < 5; i++) {
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM m WHERE k > " + i)) {
                        rs.next();
                    }
                }
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM no_such_table"));
                // SOUNDEX has no kernel in Ferry: the row engine computes it
                try (ResultSet rs = s.executeQuery("SELECT SOUNDEX(v) FROM m")) {
                    while (rs.next()) {
                        rs.getString(1);
                    }
                }
                Map<String, Double> after = scrape(url, "ops", "ops password");
                assertEquals(1, delta(before, after, "ferry_row_engine_statements_total"));
                assertEquals(6, delta(before, after, "ferry_statements_total{outcome=\"finished\"}"));
                assertEquals(1, delta(before, after, "ferry_statements_total{outcome=\"failed\"}"));
                assertEquals(6, delta(before, after, "ferry_statement_execution_seconds_count"));
                assertEquals(7, delta(before, after, "ferry_statement_planning_seconds_count"));
                assertTrue(after.get("ferry_arrow_allocated_bytes") > 0, after.toString());
                assertTrue(after.get("ferry_stored_bytes") > 0, after.toString());
                assertEquals(0, after.get("ferry_statements_active"));
                assertEquals(0, after.get("ferry_spilled_bytes_total"));
                assertTrue(after.keySet().stream().anyMatch(k -> k.startsWith("jvm_memory_used_bytes")),
                        "the JVM's metrics too");
                assertTrue(!after.containsKey("ferry_fabric_read_bytes_total"), "a local node has no fabric");
            }
        }
    }

    @Test
    void aCoordinatorCountsWhatItsFabricReads() throws Exception {
        try (TwoWorkerCluster cluster = TwoWorkerCluster.start()) {
            String url = "http://127.0.0.1:" + cluster.coordinator().jdbc().port() + MetricsEndpoint.PATH;
            try (Statement s = cluster.ferry().createStatement()) {
                s.execute("CREATE TABLE fm AS SELECT x AS k, x * 2 AS v FROM (VALUES (1), (2), (3), (4)) t(x)");
                s.execute("INSERT INTO fm SELECT k + 4, v FROM fm");
                s.execute("SET shipping = 'data'");
                Map<String, Double> before = scrape(url, null, null);
                try (ResultSet rs = s.executeQuery("SELECT SUM(v) FROM fm")) {
                    rs.next();
                    assertEquals(40, rs.getLong(1));
                }
                Map<String, Double> after = scrape(url, null, null);
                String read = "ferry_fabric_read_bytes_total{provider=\"tcp\"}";
                assertTrue(delta(before, after, read) > 0, "data shipping reads the workers' blocks: " + after);
                assertTrue(after.containsKey("ferry_fabric_registered_bytes{provider=\"tcp\"}"), after.toString());
                assertEquals(1.0, after.get("ferry_block_replicas"), "one copy of each block by default");
                assertEquals(0.0, after.get("ferry_blocks_short_of_copies"), after.toString());
                // the web console's view of the same cluster: the coordinator among the nodes, and the query's
                // fragments with their shipping mode
                HttpResponse<String> console = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + cluster.coordinator().jdbc().port() + "/ui/api/state")).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, console.statusCode(), console.body());
                JsonNode state = new ObjectMapper().readTree(console.body());
                assertEquals("coordinator", state.get("nodes").get("rows").get(0).get(2).asText(), console.body());
                assertEquals(3, state.get("nodes").get("rows").size(), console.body());
                // the query's fragments name its statement (sys.queries), with the mode they ran in
                long statement = -1;
                for (JsonNode q : state.get("queries").get("rows")) {
                    if (q.get(1).asText().equals("SELECT SUM(v) FROM fm")) {
                        statement = q.get(0).asLong();
                    }
                }
                int columns = state.get("fragments").get("columns").size();
                assertEquals("statement_id", state.get("fragments").get("columns").get(1).asText());
                boolean found = false;
                for (JsonNode f : state.get("fragments").get("rows")) {
                    found |= f.get(1).asLong() == statement && f.get(4).asText().equals("data");
                }
                assertTrue(columns > 4 && found, "fragments of statement " + statement + ": " + console.body());
            }
        }
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String key) {
        assertTrue(after.containsKey(key), key + " in " + after.keySet());
        return after.get(key) - before.getOrDefault(key, 0.0);
    }

    /** The samples of a scrape, by name and labels as the text format writes them. */
    private static Map<String, Double> scrape(String url, String user, String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                    .getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        Map<String, Double> samples = new HashMap<>();
        for (String line : response.body().split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }
}
