package io.ferry.server.cli;

import picocli.CommandLine.Option;

/** The Arrow Flight SQL endpoint of {@code ferry local} and {@code ferry coordinator}: off unless a port is given. */
final class FlightOptions {
    @Option(names = "--flight-port", paramLabel = "PORT",
            description = "Also serve Arrow Flight SQL on PORT (e.g. 8815; 0 for any free port), with the same "
                    + "host, users and TLS keystore as JDBC. Clients: ADBC's Flight SQL driver, pyarrow.flight, the "
                    + "Arrow Flight SQL JDBC driver.")
    Integer port;
}
