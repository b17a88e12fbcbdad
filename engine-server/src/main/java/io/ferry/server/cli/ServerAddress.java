package io.ferry.server.cli;

import java.net.URI;

import io.ferry.server.jdbc.JdbcServer;
import picocli.CommandLine.Option;

/** Where a server listens: the --host and --port options every server and client command shares. */
final class ServerAddress {
    @Option(names = "--host", paramLabel = "HOST", defaultValue = JdbcServer.DEFAULT_HOST,
            description = "Server address (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + JdbcServer.DEFAULT_PORT,
            description = "Server port (default: ${DEFAULT-VALUE}).")
    int port;

    /** The server's HTTP endpoint, for clients. */
    URI endpoint() {
        String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port);
    }
}
