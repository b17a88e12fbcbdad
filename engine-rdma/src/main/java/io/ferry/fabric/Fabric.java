package io.ferry.fabric;

import java.time.Duration;

import org.apache.arrow.memory.ArrowBuf;

/**
 * Registered memory and one-sided reads and writes between nodes (DESIGN.md, "The fabric"). Providers: {@code local}
 * (in-process), {@code tcp} and {@code rdma}; all have the same semantics and completion model, so every test and
 * benchmark runs without RDMA hardware.
 */
public interface Fabric extends AutoCloseable {
    /** The provider's name: local, tcp or rdma. */
    String provider();

    /** Where peers reach this node. */
    NodeAddress address();

    /**
     * Registers {@code length} bytes of {@code buffer} from {@code offset} (under 2 GiB). The buffer must stay
     * allocated until the region is closed.
     */
    Region register(ArrowBuf buffer, long offset, int length);

    /**
     * Regions registered here and not yet closed: what a query leaves behind shows as this count above its idle
     * value (sys.nodes {@code regions}).
     */
    int registeredRegions();

    /** Connects to another node's endpoint; fails with a {@link FabricException} after {@code timeout}. */
    Peer connect(NodeAddress node, Duration timeout);

    @Override
    void close();
}
