package io.ferry.server.metrics;

import java.io.IOException;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * {@code GET /metrics} on the JDBC port, for Prometheus to scrape: behind the same authentication as JDBC (HTTP
 * Basic; Prometheus' {@code basic_auth}) when the server has users.
 */
public final class MetricsEndpoint extends AbstractHandler {
    public static final String PATH = "/metrics";

    private final FerryMetrics metrics;

    public MetricsEndpoint(FerryMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (!PATH.equals(target)) {
            return;
        }
        baseRequest.setHandled(true);
        if (!"GET".equals(request.getMethod())) {
            response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            response.setHeader("Allow", "GET");
            return;
        }
        response.setContentType(metrics.contentType());
        metrics.write(response.getOutputStream());
    }
}
