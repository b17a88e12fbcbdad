package io.ferry.server.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.ferry.fabric.Fabric;
import io.ferry.fabric.Fabrics;
import io.ferry.fabric.rdma.RdmaSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ferry fabric}: which fabric this machine would use and why, proven by opening it. Answers "does RDMA work
 * here?" before a cluster is started.
 */
@Command(name = "fabric", mixinStandardHelpOptions = true,
        description = "Show whether RDMA is usable here, which provider --fabric picks, and open it once to prove it.")
final class FabricCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--fabric", paramLabel = "auto|local|tcp|rdma", defaultValue = "auto",
            description = "the setting to resolve (default: ${DEFAULT-VALUE})")
    private String fabric;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "the address to listen on; for rdma, an address of the RDMA device (default: ${DEFAULT-VALUE})")
    private String host;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RdmaSupport.Availability rdma = RdmaSupport.probe();
        out.println("rdma:   " + (rdma.available() ? "available: " : "unavailable: ") + rdma.reason());
        Fabrics.Kind setting = Fabrics.Kind.parse(fabric);
        out.println("fabric=" + setting + " resolves to " + Fabrics.choose(setting));
        try (Fabric f = Fabrics.open(setting, host, 0, 1)) {
            out.println("opened: " + f.provider() + " fabric listening at " + f.address());
        }
        out.flush();
        return 0;
    }
}
