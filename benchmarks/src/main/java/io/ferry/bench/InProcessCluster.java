package io.ferry.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.fabric.Fabrics;
import io.ferry.server.cluster.Coordinator;
import io.ferry.server.cluster.DataNode;
import io.ferry.server.cluster.Role;
import io.ferry.sql.EngineConfig;
import io.ferry.sql.FerryEngine;

/**
 * A coordinator and its nodes in this JVM, joined over real sockets with the tcp fabric: what the fuzzer and the
 * TPC-DS harness run a cluster's plans on without starting processes. Every node's Arrow memory is checked on
 * close, as a node's own close does.
 */
public final class InProcessCluster implements AutoCloseable {
    /** A node: its role and name, threads, block memory (memory servers, workers) and query memory. */
    public record Node(Role role, String name, int threads, long memory, long queryMemory) {
    }

    private final Coordinator coordinator;
    private final List<DataNode> nodes;

    private InProcessCluster(Coordinator coordinator, List<DataNode> nodes) {
        this.coordinator = coordinator;
        this.nodes = nodes;
    }

    /** Starts the coordinator with {@code config}, then {@code nodes}, and waits until all have joined. */
    public static InProcessCluster start(EngineConfig config, List<Node> nodes, Duration timeout) {
        Coordinator coordinator = Coordinator.start(new Coordinator.Options(config, "127.0.0.1", 0, 0, 0, null,
                Fabrics.Kind.TCP, timeout, List.of()));
        List<DataNode> started = new ArrayList<>();
        try {
            InetSocketAddress control = coordinator.cluster().address();
            for (Node n : nodes) {
                started.add(DataNode.start(new DataNode.Options(n.role(), n.name(), "127.0.0.1", 0, null, control,
                        n.threads(), n.memory(), n.queryMemory(), Fabrics.Kind.TCP, timeout)));
            }
            if (!coordinator.cluster().awaitNodes(nodes.size(), Duration.ofSeconds(60))) {
                throw new IllegalStateException("the " + nodes.size() + " nodes did not join the coordinator within "
                        + "60 s");
            }
            return new InProcessCluster(coordinator, started);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            new InProcessCluster(coordinator, started).close();
            throw new IllegalStateException("interrupted while the nodes joined", e);
        } catch (RuntimeException e) {
            new InProcessCluster(coordinator, started).close();
            throw e;
        }
    }

    public Coordinator coordinator() {
        return coordinator;
    }

    public FerryEngine engine() {
        return coordinator.engine();
    }

    /** Closes the coordinator, then every node; the first failure is thrown once all are closed. */
    @Override
    public void close() {
        RuntimeException first = null;
        try {
            coordinator.close();
        } catch (RuntimeException e) {
            first = e;
        }
        for (DataNode n : nodes) {
            try {
                n.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
