package io.ferry.server.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import io.ferry.server.load.LoadEndpoint;
import io.ferry.server.load.LoadPolicy;
import io.ferry.server.load.ServerLoad;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * A web page a user of the server's machine opens in a real browser (headless Chromium, driven by Selenium) tries
 * what the issue found possible: a {@code text/plain} POST to {@code /ferry/load}, which a browser sends without
 * asking the server first, to load a server file into a new table. The page is served from another origin, as an
 * attacker's page would be. The server refuses it ({@link CrossOriginGuard}), so no table appears; the same request
 * sent by a program (no Origin) loads the file, so the refusal is what stopped the page.
 *
 * <p>The browser's Python comes from {@code FERRY_BROWSER_PYTHON}, else from the venv {@code setup-browser.sh} makes
 * by default. Without one the test is skipped, unless {@code FERRY_REQUIRE_BROWSER=1} (CI sets it).
 */
class BrowserAttackTest {
    @Test
    void aWebPageCannotLoadAServerFileIntoATable(@TempDir Path dir) throws Exception {
        String python = TestPythons.withModule("FERRY_BROWSER_PYTHON", "browser-venv", "selenium",
                "FERRY_REQUIRE_BROWSER", "setup-browser.sh");
        Path secret = Files.writeString(dir.resolve("secret.csv"), "token\nhunter2\n");
        try (FerryEngine engine = FerryEngine.start(EngineConfig.defaults().withThreads(2).withMemoryLimit(1L << 30));
                JdbcServer server = JdbcServer.start(engine, "127.0.0.1", 0,
                        List.of(new LoadEndpoint(new ServerLoad(engine, LoadPolicy.of(List.of(), true)))))) {
            String load = "{\"table\":\"%s\",\"path\":\"" + secret + "\",\"create\":true}";
            String page = "<!doctype html><title>loading</title><script>"
                    + "fetch('http://127.0.0.1:" + server.port() + "/ferry/load', {method: 'POST', mode: 'no-cors', "
                    + "headers: {'Content-Type': 'text/plain'}, body: '" + load.formatted("stolen") + "'})"
                    + ".catch(() => null).finally(() => { document.title = 'done'; });</script>";
            HttpServer attacker = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            attacker.createContext("/", exchange -> {
                byte[] body = page.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            attacker.start();
            try {
                visit(python, "http://127.0.0.1:" + attacker.getAddress().getPort() + "/");
            } finally {
                attacker.stop(0);
            }
            try (Connection c = DriverManager.getConnection(server.ferryUrl())) {
                assertFalse(exists(c, "stolen"), "the page loaded the server's file into a table");
                // the same request from a program is served: the browser's was refused for being one
                HttpResponse<String> direct = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + LoadEndpoint.PATH))
                        .header("Content-Type", "text/plain")
                        .POST(HttpRequest.BodyPublishers.ofString(load.formatted("loaded"))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, direct.statusCode(), direct.body());
                assertTrue(exists(c, "loaded"));
            }
        }
    }

    /** Whether {@code table} exists: a query of it runs, or fails as one of an unknown table (42P01). */
    private static boolean exists(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            return rs.next();
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    private static void visit(String python, String url) throws IOException, InterruptedException {
        Path script = Path.of("src/test/python/browser_visit.py").toAbsolutePath();
        Process p = new ProcessBuilder(python, script.toString(), url, "60").redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the browser did not finish within 120 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "the browser failed:\n" + out);
    }
}
