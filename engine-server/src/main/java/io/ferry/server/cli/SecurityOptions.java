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

    @Option(names = "--tls-keystore", paramLabel = "FILE",
            description = "Serve HTTPS with the key and certificate of this PKCS #12 keystore (bin/ferry cert makes "
                    + "one); clients then connect with tls=true (ferry-jdbc), https:// URLs, or --tls.")
    Path tlsKeystore;

    @Option(names = "--tls-password-file", paramLabel = "FILE",
            description = "The keystore's password (default: ferry-keystore.password beside the keystore).")
    Path tlsPasswordFile;

    ServerSecurity security() {
        return new ServerSecurity(usersFile, insecure, tlsKeystore, tlsPasswordFile);
    }
}
