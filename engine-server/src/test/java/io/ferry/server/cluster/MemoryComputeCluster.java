package io.ferry.server.cluster;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.ferry.fabric.Fabrics;
import io.ferry.sql.EngineConfig;

/**
 * A coordinator with {@code memory} memory servers and {@code compute} compute servers in this JVM over the tcp
 * fabric (I-Store's layout), each node with {@code nodeMemory} bytes of block memory and 64 MiB per query. Closing
 * it stops the coordinator, then every node.
 */
final class MemoryComputeCluster implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Coordinator coordinator;
    private final List<DataNode> nodes = new ArrayList<>();

    private MemoryComputeCluster(Coordinator coordinator) {
        this.coordinator = coordinator;
    }

    static MemoryComputeCluster start(int memory, int compute, int threads, long nodeMemory)
            throws InterruptedException {
        return start(memory, compute, threads, nodeMemory, 64L << 20);
    }

    /** With {@code queryMemory} bytes for one fragment's operators on each node. */
    static MemoryComputeCluster start(int memory, int compute, int threads, long nodeMemory, long queryMemory)
            throws InterruptedException {
        return start(memory, compute, threads, nodeMemory, queryMemory, 0);
    }

    /**
     * With the first memory server a straggler: its fabric holds every READ reply back by {@code slowReadsMicros}
     * (the tcp fabric's emulated latency), so the units reading its blocks fall behind.
     */
    static MemoryComputeCluster start(int memory, int compute, int threads, long nodeMemory, long queryMemory,
            long slowReadsMicros) throws InterruptedException {
        return start(memory, compute, threads, nodeMemory, queryMemory, slowReadsMicros,
                EngineConfig.defaultSpillDirectory());
    }

    /** @param spill where the data nodes' fragments spill; null: they do not, and fail with 53200 */
    static MemoryComputeCluster start(int memory, int compute, int threads, long nodeMemory, long queryMemory,
            long slowReadsMicros, java.nio.file.Path spill) throws InterruptedException {
        EngineConfig config = EngineConfig.defaults().withThreads(2).withBlockSize(8 * 1024)
                .withMemoryLimit(256L << 20);
        MemoryComputeCluster cluster = new MemoryComputeCluster(Coordinator.start(new Coordinator.Options(config,
                "127.0.0.1", 0, 0, 0, null, Fabrics.Kind.TCP, TIMEOUT, List.of())));
        try {
            InetSocketAddress control = cluster.coordinator.cluster().address();
            for (int i = 0; i < memory + compute; i++) {
                Role role = i < memory ? Role.MEMORY : Role.COMPUTE;
                boolean slow = i == 0 && slowReadsMicros > 0;
                if (slow) {
                    System.setProperty("ferry.fabric.readDelayUs", Long.toString(slowReadsMicros));
                }
                try {
                    cluster.nodes.add(DataNode.start(new DataNode.Options(role, role.label() + i, "127.0.0.1", 0,
                            null, control, threads, nodeMemory, queryMemory, Fabrics.Kind.TCP, TIMEOUT)
                            .withSpillDirectory(spill)));
                } finally {
                    if (slow) {
                        System.clearProperty("ferry.fabric.readDelayUs");
                    }
                }
            }
            if (!cluster.coordinator.cluster().awaitNodes(memory + compute, Duration.ofSeconds(60))) {
                throw new IllegalStateException("the nodes did not join");
            }
            return cluster;
        } catch (InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    Coordinator coordinator() {
        return coordinator;
    }

    @Override
    public void close() {
        try {
            coordinator.close();
        } finally {
            for (DataNode n : nodes) {
                n.close();
            }
        }
    }
}
