package io.ferry.server.ui;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.ferry.core.types.Column;
import io.ferry.server.jdbc.AuthenticationGuard;
import io.ferry.sql.FerryEngine;
import io.ferry.sql.QueryLog;
import io.ferry.sql.access.Principal;
import io.ferry.sql.schema.SystemTable;

/**
 * The web console at {@code /ui} on the JDBC port, behind its authentication (docs/deploy.md, "Web console"): one
 * page that shows the statements running and run lately, the nodes and the tables, as the logged-in user may see them
 * in {@code sys.queries}, {@code sys.nodes}, {@code sys.tables} (and {@code sys.fragments} on a cluster: the
 * shipping mode and bytes of each statement's fragments), read straight from those tables so that watching adds no
 * statements of its own; the EXPLAIN of a statement; and a button that cancels a running one (a user their own, an
 * admin anyone's).
 *
 * <ul>
 *   <li>{@code GET /ui}: the page;</li>
 *   <li>{@code GET /ui/api/state}: {@code {"user", "queries", "nodes", "tables", "fragments"}}, each table as
 *       {@code {"columns": [...], "rows": [[...], ...]}};</li>
 *   <li>{@code GET /ui/api/explain?id=N}: the plan statement N would have now ({@code EXPLAIN PLAN FOR});</li>
 *   <li>{@code POST /ui/api/cancel?id=N}: cancels statement N.</li>
 * </ul>
 */
public final class WebConsole extends AbstractHandler {
    public static final String PATH = "/ui";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Statements the page lists, newest first. */
    private static final int SHOWN = 200;

    private final FerryEngine engine;
    private final byte[] page;

    public WebConsole(FerryEngine engine) {
        this.engine = engine;
        try (InputStream in = WebConsole.class.getResourceAsStream("console.html")) {
            this.page = in.readAllBytes();
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the web console's page is missing from the server jar", e);
        }
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!target.equals(PATH) && !target.startsWith(PATH + "/")) {
            return;
        }
        baseRequest.setHandled(true);
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline' 'self'; "
                + "style-src 'unsafe-inline' 'self'; frame-ancestors 'none'");
        Principal user = AuthenticationGuard.principalOf(request);
        if (user == null) {
            error(response, HttpServletResponse.SC_UNAUTHORIZED, "the request was not authenticated");
            return;
        }
        String method = request.getMethod();
        switch (target) {
            case PATH, PATH + "/" -> {
                if (get(method, response)) {
                    response.setContentType("text/html;charset=utf-8");
                    response.getOutputStream().write(page);
                }
            }
            case PATH + "/api/state" -> {
                if (get(method, response)) {
                    json(response, state(user));
                }
            }
            case PATH + "/api/explain" -> {
                if (get(method, response)) {
                    explain(user, id(request), response);
                }
            }
            case PATH + "/api/cancel" -> {
                if (!"POST".equals(method)) {
                    response.setHeader("Allow", "POST");
                    error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, target + " takes a POST");
                } else {
                    cancel(user, id(request), response);
                }
            }
            default -> error(response, HttpServletResponse.SC_NOT_FOUND, "no such page: " + target);
        }
    }

    private Map<String, Object> state(Principal user) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("user", user.isOwner() ? null : user.user());
        out.put("admin", engine.access().isAdmin(user));
        for (String table : List.of("queries", "nodes", "tables", "fragments")) {
            SystemTable t = engine.systemTables().get(table);
            if (t != null) {
                List<Object[]> rows = t.rows(user);
                if (table.equals("queries")) {
                    rows = newestFirst(rows);
                }
                Map<String, Object> view = new LinkedHashMap<>();
                view.put("columns", t.columns().stream().map(Column::name).toList());
                view.put("rows", rows);
                out.put(table, view);
            }
        }
        return out;
    }

    private static List<Object[]> newestFirst(List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(Math.min(rows.size(), SHOWN));
        for (int i = rows.size() - 1; i >= 0 && out.size() < SHOWN; i--) {
            out.add(rows.get(i));
        }
        return out;
    }

    /** Plans statement {@code id}'s text again, as its user would see it now; the plan's text, or why not. */
    private void explain(Principal user, long id, HttpServletResponse response) throws IOException {
        String sql = statement(user, id);
        if (sql == null) {
            error(response, HttpServletResponse.SC_NOT_FOUND, "no statement " + id + " of yours is kept");
            return;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = engine.connect(user); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            StringBuilder plan = new StringBuilder();
            while (rs.next()) {
                plan.append(rs.getString(1));
            }
            out.put("plan", plan.toString());
        } catch (SQLException e) {
            out.put("error", e.getSQLState() + ": " + e.getMessage());
        }
        json(response, out);
    }

    /** The text of kept statement {@code id}, if {@code user} may see it. */
    private String statement(Principal user, long id) {
        SystemTable queries = engine.systemTables().get("queries");
        for (Object[] row : queries.rows(user)) {
            if (((Number) row[0]).longValue() == id) {
                return (String) row[1];
            }
        }
        return null;
    }

    private void cancel(Principal user, long id, HttpServletResponse response) throws IOException {
        QueryLog.Cancel done = engine.queries().cancel(id, user, engine.access().isAdmin(user));
        switch (done) {
            case CANCELLED -> json(response, Map.of("cancelled", id));
            case UNKNOWN -> error(response, HttpServletResponse.SC_NOT_FOUND, "no statement " + id + " is kept");
            case NOT_RUNNING -> error(response, HttpServletResponse.SC_CONFLICT, "statement " + id + " is not running");
            case NOT_ALLOWED -> error(response, HttpServletResponse.SC_FORBIDDEN, "statement " + id + " is another "
                    + "user's; only an admin cancels other users' statements");
        }
    }

    private static long id(HttpServletRequest request) {
        try {
            return Long.parseLong(request.getParameter("id"));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean get(String method, HttpServletResponse response) throws IOException {
        if ("GET".equals(method)) {
            return true;
        }
        response.setHeader("Allow", "GET");
        error(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "this page takes a GET");
        return false;
    }

    private static void json(HttpServletResponse response, Object value) throws IOException {
        response.setContentType("application/json;charset=utf-8");
        JSON.writeValue(response.getOutputStream(), value);
    }

    private static void error(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        json(response, Map.of("error", message));
    }
}
