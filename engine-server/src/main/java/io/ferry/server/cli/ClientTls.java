package io.ferry.server.cli;

import java.net.URI;
import java.nio.file.Path;

import io.ferry.server.tls.TlsKeys;
import picocli.CommandLine.Option;

/** How a client command reaches a server that serves HTTPS: {@code --tls} and the certificate to trust. */
final class ClientTls {
    @Option(names = "--tls", description = "The server serves HTTPS (started with --tls-keystore).")
    boolean tls;

    @Option(names = "--truststore", paramLabel = "FILE",
            description = "Trust the certificate in this PKCS #12 truststore (bin/ferry cert's ferry-truststore.p12; "
                    + "implies --tls); without it, the JVM's own trusted authorities.")
    Path truststore;

    boolean on() {
        return tls || truststore != null;
    }

    /** {@code endpoint} with https when TLS is on. */
    URI endpoint(URI endpoint) {
        return on() ? URI.create("https" + endpoint.toString().substring(endpoint.getScheme().length())) : endpoint;
    }

    /** What an Avatica URL adds for the truststore: nothing without one. */
    String avaticaOptions() {
        return truststore == null ? "" : ";truststore=" + truststore.toAbsolutePath() + ";truststore_password="
                + TlsKeys.TRUSTSTORE_PASSWORD;
    }
}
