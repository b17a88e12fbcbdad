package io.ferry.server.cli;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.ferry.server.cluster.Coordinator;
import io.ferry.server.cluster.ControlTls;
import io.ferry.server.cluster.DataNode;
import io.ferry.server.cluster.Role;
import io.ferry.sql.EngineConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code ferry memory | compute | worker}: a data node that joins a coordinator and serves until Ctrl-C. */
abstract class DataNodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--coordinator", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + Coordinator.DEFAULT_CONTROL_PORT,
            description = "The coordinator's control plane (default: ${DEFAULT-VALUE}).")
    String coordinator;

    @Option(names = "--coordinator-truststore", paramLabel = "FILE",
            description = "Join over TLS, trusting the coordinator's certificate by this truststore (from bin/ferry "
                    + "cert): for a coordinator started with --control-tls.")
    Path coordinatorTruststore;

    @Option(names = "--name", paramLabel = "NAME", description = "This node's name in sys.nodes (default: role-PID; "
            + "in a container, where every process is PID 1, role-HOSTNAME).")
    String name;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address this node's fabric endpoint listens on (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--threads", paramLabel = "N", description = "Cores this node may use (default: all).")
    Integer threads;

    @Mixin
    FabricOptions fabric;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "How long any wait on another node may take (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--query-memory", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Memory one fragment's operators may take (default: half the heap).")
    Long queryMemory;

    @Option(names = "--spill-dir", paramLabel = "DIR",
            description = "Where a fragment's hash aggregations, sorts and hash joins spill once they pass half of "
                    + "--query-memory; 'none' to fail with 53200 instead (default: the JVM's temporary directory).")
    String spillDir;

    abstract Role role();

    /** Block memory to offer; 0 for compute servers. */
    abstract long memory();

    @Override
    public Integer call() throws InterruptedException {
        int cores = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (cores < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be at least 1");
        }
        String nodeName = name == null ? defaultName() : name;
        long perQuery = queryMemory == null ? Math.max(256L << 20, Runtime.getRuntime().maxMemory() / 2) : queryMemory;
        DataNode node = DataNode.start(new DataNode.Options(role(), nodeName, host, fabric.port, fabric.advertise,
                parse(coordinator), cores, memory(), perQuery, fabric.kind(), Duration.ofSeconds(timeoutSeconds),
                fabric.secret(), coordinatorTruststore == null ? null : ControlTls.client(coordinatorTruststore),
                spillDir == null ? EngineConfig.defaultSpillDirectory() : EngineOptions.spillDirectory(spillDir)));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(ShutdownDeadline.hook(() -> {
            node.close();
            stopped.countDown();
        }));
        PrintWriter out = spec.commandLine().getOut();
        out.println("Ferry " + role().label() + " " + nodeName + " is running; it joins the coordinator at "
                + coordinator + " (see SELECT * FROM sys.nodes). Stop with Ctrl-C.");
        out.flush();
        stopped.await();
        return 0;
    }

    private String defaultName() {
        long pid = ProcessHandle.current().pid();
        if (pid == 1) {
            try {
                return role().label() + "-" + InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                // fall through: a name that is at least valid
            }
        }
        return role().label() + "-" + pid;
    }

    private InetSocketAddress parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try {
            if (colon <= 0) {
                throw new NumberFormatException();
            }
            return InetSocketAddress.createUnresolved(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--coordinator must be HOST:PORT, got '"
                    + hostPort + "'");
        }
    }

    /** A role that holds blocks: it offers block memory. */
    abstract static class Holding extends DataNodeCommand {
        @Option(names = "--memory", paramLabel = "BYTES", converter = ByteSizeConverter.class, defaultValue = "4g",
                description = "Block memory to offer (default: ${DEFAULT-VALUE}).")
        long memory;

        @Override
        long memory() {
            return memory;
        }
    }

    @Command(name = "memory", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Start a memory server: holds table blocks in registered memory, runs no query code.")
    static final class Memory extends Holding {
        @Override
        Role role() {
            return Role.MEMORY;
        }
    }

    @Command(name = "compute", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Start a compute server: runs fragments over blocks it streams from memory servers.")
    static final class Compute extends DataNodeCommand {
        @Override
        Role role() {
            return Role.COMPUTE;
        }

        @Override
        long memory() {
            return 0;
        }
    }

    @Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Start a worker: holds blocks and runs fragments on them (function shipping), or lets the "
                    + "coordinator read them (data shipping).")
    static final class Worker extends Holding {
        @Override
        Role role() {
            return Role.WORKER;
        }
    }
}
