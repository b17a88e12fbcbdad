package io.ferry.fabric.local;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;

import io.ferry.core.SqlStates;
import io.ferry.fabric.Fabric;
import io.ferry.fabric.FabricException;
import io.ferry.fabric.FabricRegion;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.WordAtomics;

/**
 * The in-process fabric: nodes in one JVM (local mode, tests) reach each other's registered regions directly, and
 * a READ or WRITE is one memory copy, complete when it returns. Node addresses are {@code local:N}.
 */
public final class LocalFabric implements Fabric {
    private static final Map<NodeAddress, LocalFabric> NODES = new ConcurrentHashMap<>();
    private static final AtomicInteger IDS = new AtomicInteger();

    private final NodeAddress address = new NodeAddress("local", IDS.incrementAndGet());
    private final Map<Integer, LocalRegion> regions = new ConcurrentHashMap<>();
    private final AtomicInteger keys = new AtomicInteger();
    private volatile boolean closed;

    public LocalFabric() {
        NODES.put(address, this);
    }

    @Override
    public String provider() {
        return "local";
    }

    @Override
    public NodeAddress address() {
        return address;
    }

    @Override
    public int registeredRegions() {
        return regions.size();
    }

    @Override
    public Region register(ArrowBuf buffer, long offset, int length) {
        if (closed) {
            throw new IllegalStateException("fabric " + address + " is closed");
        }
        LocalRegion r = new LocalRegion(this,
                RegionDescriptor.of(address, buffer, offset, length, keys.incrementAndGet()), buffer);
        regions.put(r.descriptor().key(), r);
        return r;
    }

    @Override
    public Peer connect(NodeAddress node, Duration timeout) {
        if (!NODES.containsKey(node)) {
            throw new FabricException(SqlStates.UNABLE_TO_CONNECT, "no in-process node " + node + " is running");
        }
        return new LocalPeer(node);
    }

    @Override
    public void close() {
        closed = true;
        NODES.remove(address);
        regions.clear();
    }

    /** The absolute address of {@code [offset, offset + length)} of a region registered here, checked. */
    private long resolve(RegionDescriptor d, long offset, int length) {
        LocalRegion r = regions.get(d.key());
        if (r == null || r.descriptor().address() != d.address()) {
            throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE, "region " + d.key() + " is not registered at "
                    + address + " (deregistered, or a stale descriptor)");
        }
        r.descriptor().checkRange(offset, length);
        return d.address() + offset;
    }

    private static final class LocalRegion extends FabricRegion<LocalFabric> {
        LocalRegion(LocalFabric fabric, RegionDescriptor descriptor, ArrowBuf buffer) {
            super(fabric, descriptor, buffer);
        }

        @Override
        public void close() {
            fabric.regions.remove(descriptor().key(), this);
        }
    }

    private final class LocalPeer implements Peer {
        private final NodeAddress node;
        private volatile boolean closed;

        LocalPeer(NodeAddress node) {
            this.node = node;
        }

        @Override
        public NodeAddress address() {
            return node;
        }

        private LocalFabric remote() {
            LocalFabric f = NODES.get(node);
            if (f == null || closed) {
                throw FabricException.connectionLost(node, closed ? "the connection was closed" : "the node stopped");
            }
            return f;
        }

        @Override
        public CompletableFuture<Void> read(RegionDescriptor remote, long remoteOffset, Region local, long localOffset,
                int length) {
            return copy(() -> {
                long from = remote().resolve(remote, remoteOffset, length);
                long to = resolve(local.descriptor(), localOffset, length);
                MemoryUtil.copyMemory(from, to, length);
            });
        }

        @Override
        public CompletableFuture<Void> write(Region local, long localOffset, RegionDescriptor remote, long remoteOffset,
                int length) {
            return copy(() -> {
                long from = resolve(local.descriptor(), localOffset, length);
                long to = remote().resolve(remote, remoteOffset, length);
                MemoryUtil.copyMemory(from, to, length);
            });
        }

        @Override
        public CompletableFuture<Long> compareAndSwap(RegionDescriptor remote, long remoteOffset, long expect,
                long update) {
            try {
                WordAtomics.checkWord(node, remote, remoteOffset);
                return CompletableFuture.completedFuture(WordAtomics.compareAndSwap(
                        remote().resolve(remote, remoteOffset, 8), expect, update));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public CompletableFuture<Long> fetchAndAdd(RegionDescriptor remote, long remoteOffset, long delta) {
            try {
                WordAtomics.checkWord(node, remote, remoteOffset);
                return CompletableFuture.completedFuture(WordAtomics.fetchAndAdd(
                        remote().resolve(remote, remoteOffset, 8), delta));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        private CompletableFuture<Void> copy(Runnable op) {
            try {
                op.run();
                return CompletableFuture.completedFuture(null);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
