package io.ferry.server.jdbc;

import java.io.IOException;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * {@code POST /ferry/cancel?connection=ID&statement=N}: stops a running statement. Avatica's protocol has no cancel
 * request, and its client's {@code Statement.cancel()} and query timeout act only on the client's side; Ferry's
 * driver calls this endpoint so that both stop the query on the server and on every node running its fragments.
 * The connection id (a random UUID the client got when it connected) is what entitles a caller to cancel.
 */
final class CancelEndpoint extends AbstractHandler {
    static final String PATH = "/ferry/cancel";

    private final FerryMeta meta;

    CancelEndpoint(FerryMeta meta) {
        this.meta = meta;
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!PATH.equals(target)) {
            return;
        }
        baseRequest.setHandled(true);
        response.setContentType("text/plain;charset=utf-8");
        if (!"POST".equals(request.getMethod())) {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            response.getWriter().println("use POST " + PATH + "?connection=ID&statement=N");
            return;
        }
        String connection = request.getParameter("connection");
        int statement;
        try {
            statement = Integer.parseInt(String.valueOf(request.getParameter("statement")));
        } catch (NumberFormatException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.getWriter().println("statement must be a statement id");
            return;
        }
        boolean found = connection != null && meta.cancel(connection, statement);
        response.setStatus(found ? HttpServletResponse.SC_OK : HttpServletResponse.SC_NOT_FOUND);
        response.getWriter().println(found ? "cancelled" : "no such statement on that connection");
    }
}
