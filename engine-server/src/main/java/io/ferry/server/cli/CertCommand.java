package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ferry.server.tls.TlsKeys;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry cert}: a self-signed certificate for serving HTTPS ({@link TlsKeys}). */
@Command(name = "cert", mixinStandardHelpOptions = true,
        description = "Make a self-signed certificate for --tls-keystore: a keystore, its password file and a "
                + "truststore for clients, and print the certificate's SHA-256 fingerprint.")
final class CertCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the three files.")
    private Path out;

    @Option(names = "--host", paramLabel = "NAME",
            description = "A name or address clients use for the server (repeatable; localhost and 127.0.0.1 are "
                    + "always in).")
    private List<String> hosts = new ArrayList<>();

    @Override
    public void run() {
        TlsKeys.Made made = TlsKeys.make(out, hosts);
        PrintWriter w = spec.commandLine().getOut();
        w.println("keystore     " + made.keystore() + "   (the server's key: keep it private)");
        w.println("password     " + made.passwordFile());
        w.println("truststore   " + made.truststore() + "   (for clients; password " + TlsKeys.TRUSTSTORE_PASSWORD
                + ")");
        w.println("SHA-256      " + made.fingerprint());
        w.println();
        w.println("Serve HTTPS:  bin/ferry local --tls-keystore " + made.keystore());
        w.println("Connect:      bin/ferry sql --truststore " + made.truststore());
        w.println("              jdbc:ferry://HOST:8765?tls=true&truststore=" + made.truststore()
                + "&truststore_password=" + TlsKeys.TRUSTSTORE_PASSWORD);
        w.flush();
    }
}
