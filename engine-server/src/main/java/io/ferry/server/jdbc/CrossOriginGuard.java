package io.ferry.server.jdbc;

import java.io.IOException;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * Refuses every request a web browser makes on a page's behalf, before any endpoint sees it. Ferry's HTTP port
 * serves JDBC drivers, Python clients and {@code bin/ferry}, none of which sends an {@code Origin} header; a browser
 * sends one with every cross-origin request, and with every POST. Without this guard, any web page a user of the
 * server's machine opened could POST {@code text/plain} (a request a browser sends without asking first) to
 * {@code /ferry/load} or to the JDBC endpoint, and run statements: DROP a table. No CORS header is ever sent, so a
 * browser also keeps every answer from the page. The refusal is 403 with one line.
 */
final class CrossOriginGuard extends AbstractHandler {
    private final String host;
    private final boolean authenticated;

    /**
     * @param host          the name or address the server listens on
     * @param authenticated whether every request must carry a user's credentials
     */
    CrossOriginGuard(String host, boolean authenticated) {
        this.host = host;
        this.authenticated = authenticated;
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String origin = request.getHeader("Origin");
        String site = request.getHeader("Sec-Fetch-Site");
        if (origin == null && (site == null || site.equals("none"))) {
            return; // not from a web page: the endpoints decide
        }
        if (isConsole(target) && sameOrigin(request, origin, site)) {
            return; // the web console's own page asking its server
        }
        baseRequest.setHandled(true);
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("text/plain;charset=utf-8");
        response.getWriter().println("requests from web pages are refused (Origin " + (origin == null ? "unknown"
                : origin.replaceAll("[^\\x20-\\x7e]", "?")) + "): connect with a JDBC driver, phoenixdb or bin/ferry");
    }

    private static boolean isConsole(String target) {
        return target.equals("/ui") || target.startsWith("/ui/");
    }

    /**
     * Whether the page that sent the request was served by this server: the browser says so (Sec-Fetch-Site), or
     * sends the server's own origin (a POST), and the name the page was loaded under is this server's. On a server
     * without users, that name must be an address, localhost or the name it listens on: a page of another site that
     * made its own name point at this server (DNS rebinding) would otherwise count as the same origin. With users,
     * such a page never has the credentials the browser keeps for this server's origin.
     */
    private boolean sameOrigin(HttpServletRequest request, String origin, String site) {
        if (site != null && !site.equals("same-origin")) {
            return false;
        }
        String hostHeader = request.getHeader("Host");
        if (hostHeader == null) {
            return false;
        }
        if (origin != null && !origin.equalsIgnoreCase(request.getScheme() + "://" + hostHeader)) {
            return false;
        }
        if (authenticated) {
            return true;
        }
        String name = hostHeader.startsWith("[") ? hostHeader.substring(1, Math.max(1, hostHeader.indexOf(']')))
                : hostHeader.contains(":") ? hostHeader.substring(0, hostHeader.lastIndexOf(':')) : hostHeader;
        return name.equalsIgnoreCase("localhost") || name.equalsIgnoreCase(host) || name.contains(":")
                || name.matches("[0-9.]+");
    }
}
