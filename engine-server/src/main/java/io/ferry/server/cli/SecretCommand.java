package io.ferry.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;

import io.ferry.fabric.auth.ClusterSecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry secret}: a new cluster secret for {@code --cluster-secret}. */
@Command(name = "secret", mixinStandardHelpOptions = true,
        description = "Make a cluster secret (32 random bytes, readable by its owner only) for --cluster-secret; "
                + "give every process of the cluster a copy of the same file.")
final class SecretCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The file to write (not replaced).")
    private Path out;

    @Override
    public void run() {
        ClusterSecret.create(out);
        PrintWriter w = spec.commandLine().getOut();
        w.println("wrote a cluster secret to " + out + "; start the coordinator and every node with "
                + "--cluster-secret " + out);
        w.flush();
    }
}
