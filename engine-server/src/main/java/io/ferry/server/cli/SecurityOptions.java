package io.ferry.server.cli;

import java.nio.file.Path;

import io.ferry.server.ServerSecurity;
import picocli.CommandLine.Option;

/** Who may use a server: the --users and --insecure options of {@code ferry local} and {@code ferry coordinator}. */
final class SecurityOptions {
    @Option(names = "--users", paramLabel = "FILE",
            description = "Require clients to log in as a user of FILE (made with: ferry user add NAME --admin "
                    + "--users FILE); CREATE USER, GRANT and REVOKE keep it up to date.")
    Path usersFile;

    @Option(names = "--insecure",
            description = "Serve an address other than 127.0.0.1 without --users: anyone who can reach the port may "
                    + "read, change and drop every table. For a network you trust.")
    boolean insecure;

    ServerSecurity security() {
        return new ServerSecurity(usersFile, insecure);
    }
}
