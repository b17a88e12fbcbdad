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
    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String origin = request.getHeader("Origin");
        String site = request.getHeader("Sec-Fetch-Site");
        if (origin == null && (site == null || site.equals("none"))) {
            return; // not from a web page: the endpoints decide
        }
        baseRequest.setHandled(true);
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("text/plain;charset=utf-8");
        response.getWriter().println("requests from web pages are refused (Origin " + (origin == null ? "unknown"
                : origin.replaceAll("[^\\x20-\\x7e]", "?")) + "): connect with a JDBC driver, phoenixdb or bin/ferry");
    }
}
