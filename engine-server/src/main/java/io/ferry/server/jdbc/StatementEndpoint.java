package io.ferry.server.jdbc;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

import io.ferry.sql.access.Principal;

/**
 * What Avatica's protocol lacks for a statement, which Ferry's driver asks for here:
 * <ul>
 *   <li>{@code POST /ferry/cancel?connection=ID&statement=N} stops a running statement. Avatica's client's
 *       {@code Statement.cancel()} and query timeout act only on the client's side; this stops the query on the
 *       server and on every node running its fragments.</li>
 *   <li>{@code GET /ferry/warnings?connection=ID&statement=N} returns the warnings of the statement's last execution,
 *       one per line, for {@code Statement.getWarnings()}.</li>
 * </ul>
 * Only the user who opened the connection may do either; on a server without users, whoever knows the connection id
 * (a random UUID the client got when it connected).
 */
final class StatementEndpoint extends AbstractHandler {
    static final String CANCEL = "/ferry/cancel";
    static final String WARNINGS = "/ferry/warnings";

    private final FerryMeta meta;

    StatementEndpoint(FerryMeta meta) {
        this.meta = meta;
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        boolean cancel = CANCEL.equals(target);
        if (!cancel && !WARNINGS.equals(target)) {
            return;
        }
        baseRequest.setHandled(true);
        response.setContentType("text/plain;charset=utf-8");
        PrintWriter out = response.getWriter();
        String method = cancel ? "POST" : "GET";
        if (!method.equals(request.getMethod())) {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            out.println("use " + method + " " + target + "?connection=ID&statement=N");
            return;
        }
        String connection = request.getParameter("connection");
        Principal user = AuthenticationGuard.principalOf(request);
        if (connection != null && (user == null || !meta.ownedBy(connection, user))) {
            // as for a connection that does not exist: the caller learns nothing of others' connections
            connection = null;
        }
        int statement;
        try {
            statement = Integer.parseInt(String.valueOf(request.getParameter("statement")));
        } catch (NumberFormatException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            out.println("statement must be a statement id");
            return;
        }
        if (cancel) {
            boolean found = connection != null && meta.cancel(connection, statement);
            response.setStatus(found ? HttpServletResponse.SC_OK : HttpServletResponse.SC_NOT_FOUND);
            out.println(found ? "cancelled" : "no such statement on that connection");
            return;
        }
        List<String> warnings = connection == null ? null : meta.warnings(connection, statement);
        if (warnings == null) {
            response.setStatus(HttpServletResponse.SC_NOT_FOUND);
            out.println("no such statement on that connection");
            return;
        }
        for (String w : warnings) {
            out.println(w.replace('\n', ' '));
        }
    }
}
