package io.ferry.server.cli;

import java.nio.file.Path;

import io.ferry.fabric.Fabrics;
import io.ferry.fabric.auth.ClusterSecret;
import picocli.CommandLine.Option;

/** The fabric endpoint's options, which the coordinator and every data node share. */
final class FabricOptions {
    @Option(names = "--fabric", paramLabel = "auto|local|tcp|rdma", defaultValue = "auto",
            description = "Fabric provider (default: ${DEFAULT-VALUE}: rdma when usable, else tcp).")
    String fabric;

    @Option(names = "--fabric-port", paramLabel = "PORT", defaultValue = "0",
            description = "Port of the fabric endpoint (default: any free port; fix it to publish it from a container).")
    int port;

    @Option(names = "--advertise", paramLabel = "HOST",
            description = "Name or address other nodes reach this one's fabric at, when --host is 0.0.0.0 or "
                    + "container-local (tcp fabric; default: --host).")
    String advertise;

    @Option(names = "--cluster-secret", paramLabel = "FILE",
            description = "A secret every process of the cluster shares (bin/ferry secret --out FILE makes one): "
                    + "nodes and the coordinator connect only to processes that prove they hold it.")
    Path secretFile;

    /** The cluster's secret, or null when none was given. */
    ClusterSecret secret() {
        return secretFile == null ? null : ClusterSecret.load(secretFile);
    }

    Fabrics.Kind kind() {
        return Fabrics.Kind.parse(fabric);
    }
}
