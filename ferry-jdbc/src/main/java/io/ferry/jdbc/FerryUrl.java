package io.ferry.jdbc;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A parsed {@code jdbc:ferry://host[:port][/][?option=value&...]}. The host may be a name, an IPv4 address or a
 * bracketed IPv6 address; the port defaults to the server's default, 8765. The option {@code tls=true} selects
 * HTTPS; every other option is a connection property (percent-encoded values are decoded).
 */
record FerryUrl(String host, int port, boolean tls, Map<String, String> options) {
    static final String PREFIX = "jdbc:ferry://";
    static final int DEFAULT_PORT = 8765;
    private static final String SHAPE = "expected jdbc:ferry://host[:port][?option=value&...]";

    FerryUrl {
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    static FerryUrl parse(String url) throws SQLException {
        if (!accepts(url)) {
            throw invalid(url, SHAPE);
        }
        URI uri;
        try {
            uri = new URI("http://" + url.substring(PREFIX.length()));
        } catch (URISyntaxException e) {
            throw invalid(url, e.getReason() + "; " + SHAPE);
        }
        if (uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw invalid(url, SHAPE);
        }
        String path = uri.getRawPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            throw invalid(url, "a Ferry server has no databases to name after the port; " + SHAPE);
        }
        Map<String, String> options = new LinkedHashMap<>();
        String query = uri.getRawQuery();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw invalid(url, "option '" + pair + "' has no value; " + SHAPE);
                }
                options.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        boolean tls = Boolean.parseBoolean(options.remove("tls"));
        int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
        return new FerryUrl(uri.getHost(), port, tls, options);
    }

    /** The server's Avatica endpoint. */
    String endpoint() {
        return (tls ? "https" : "http") + "://" + host + ":" + port;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static SQLException invalid(String url, String why) {
        // 08001: the client could not establish a connection — here because it cannot tell where to.
        return new SQLException("malformed Ferry URL '" + url + "': " + why, "08001");
    }
}
