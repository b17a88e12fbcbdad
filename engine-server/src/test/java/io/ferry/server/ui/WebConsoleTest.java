package io.ferry.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ferry.server.LocalNode;
import io.ferry.server.ServerSecurity;
import io.ferry.server.data.ProgressListener;
import io.ferry.server.jdbc.TestPythons;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.access.AccessControl;

/**
 * The web console driven as an operator drives it, in headless Chromium ({@code src/test/python/web_console.py}):
 * the page lists a statement that is running, shows a plan, and cancels the statement, which then fails with 57014
 * for the client that ran it. Over plain HTTP: the console is behind the JDBC port's login, a user who is no admin
 * cannot cancel another's statement, and a request from another site's page is refused.
 */
class WebConsoleTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SLOW = "SELECT COUNT(*), SUM(x.a - y.a) FROM heavy x JOIN heavy y ON x.k = y.k "
            + "/* slow for the console */";

    @Test
    void anOperatorSeesARunningStatementAndCancelsIt(@TempDir Path dir) throws Exception {
        String python = TestPythons.withModule("FERRY_BROWSER_PYTHON", "browser-venv", "selenium",
                "FERRY_REQUIRE_BROWSER", "setup-browser.sh");
        Path users = dir.resolve("users");
        AccessControl.addToFile(users, "ops", "ops password".toCharArray(), true);
        AccessControl.addToFile(users, "viewer", "viewer password".toCharArray(), false);
        try (LocalNode node = LocalNode.start(new LocalNode.Options(EngineConfig.defaults().withThreads(2)
                .withMemoryLimit(512L << 20), "127.0.0.1", 0, null, List.of(dir), new ServerSecurity(users, false)),
                ProgressListener.NONE);
                Connection c = node.engine().connect(); Statement s = c.createStatement()) {
            String base = "http://127.0.0.1:" + node.server().port() + WebConsole.PATH;
            assertEquals(401, send(HttpRequest.newBuilder(URI.create(base)).GET()).statusCode(),
                    "the console is behind the JDBC port's login");
            s.execute("CREATE TABLE heavy AS SELECT generate_series AS a, generate_series % 50 AS k "
                    + "FROM generate_series(1, 600000)");
            CompletableFuture<SQLException> slow = CompletableFuture.supplyAsync(() -> {
                try (Statement running = c.createStatement()) {
                    running.executeQuery(SLOW).close();
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            long id = awaitRunning(base);

            HttpResponse<String> notTheirs = send(post(base + "/api/cancel?id=" + id, "viewer", "viewer password"));
            assertEquals(403, notTheirs.statusCode(), notTheirs.body());
            HttpResponse<String> fromAnotherSite = send(post(base + "/api/cancel?id=" + id, "ops", "ops password")
                    .header("Origin", "http://127.0.0.1:1").header("Sec-Fetch-Site", "same-site"));
            assertEquals(403, fromAnotherSite.statusCode(), fromAnotherSite.body());

            Map<String, JsonNode> steps = TestPythons.steps(python, "web_console.py", base, "ops", "ops password",
                    "slow for the console");
            assertEquals(Long.toString(id), steps.get("listed").get("id").asText());
            assertTrue(steps.get("listed").get("status").asText().contains("logged in as ops"),
                    steps.get("listed").toString());
            assertTrue(steps.get("listed").get("tables").toString().contains("heavy"), steps.get("listed").toString());
            assertTrue(steps.get("listed").get("nodes").toString().contains("local"), steps.get("listed").toString());
            assertTrue(steps.get("plan").get("plan").asText().contains("FerryJoin"), steps.get("plan").toString());
            assertTrue(steps.get("cancelled").get("state").asText().contains("57014"),
                    steps.get("cancelled").toString());
            SQLException failure = slow.get(30, TimeUnit.SECONDS);
            assertTrue(failure != null && "57014".equals(failure.getSQLState()), String.valueOf(failure));
        }
    }

    /** The id of the slow statement once sys.queries shows it running. */
    private static long awaitRunning(String base) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/api/state")).GET()
                    .header("Authorization", basic("ops", "ops password")));
            assertEquals(200, r.statusCode(), r.body());
            JsonNode queries = JSON.readTree(r.body()).get("queries");
            for (JsonNode row : queries.get("rows")) {
                if (row.get(1).asText().contains("slow for the console") && row.get(3).asText().equals("running")) {
                    return row.get(0).asLong();
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the slow statement never showed as running");
    }

    private static HttpRequest.Builder post(String url, String user, String password) {
        return HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody())
                .header("Authorization", basic(user, password));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
