package io.ferry.server.metrics;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.apache.arrow.memory.ArrowBuf;

import io.ferry.fabric.Fabric;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;

/**
 * A fabric that counts what crosses it, for the node's metrics: bytes this node read from others and wrote to them
 * with one-sided operations, and the memory it has registered now. It hands out its own regions and peers, which
 * hand the provider's own back to it (a provider reads its registration from the region it is given).
 */
public final class MeteredFabric implements Fabric {
    private final Fabric fabric;
    private final LongAdder read = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder registered = new LongAdder();

    public MeteredFabric(Fabric fabric) {
        this.fabric = fabric;
    }

    /** Bytes read from other nodes' registered memory. */
    public long bytesRead() {
        return read.sum();
    }

    /** Bytes written into other nodes' registered memory. */
    public long bytesWritten() {
        return written.sum();
    }

    /** Bytes of this node's memory registered now. */
    public long registeredBytes() {
        return registered.sum();
    }

    @Override
    public String provider() {
        return fabric.provider();
    }

    @Override
    public NodeAddress address() {
        return fabric.address();
    }

    @Override
    public Region register(ArrowBuf buffer, long offset, int length) {
        Region region = fabric.register(buffer, offset, length);
        registered.add(length);
        return new MeteredRegion(region, length);
    }

    @Override
    public int registeredRegions() {
        return fabric.registeredRegions();
    }

    @Override
    public Peer connect(NodeAddress node, Duration timeout) {
        return new MeteredPeer(fabric.connect(node, timeout));
    }

    @Override
    public void close() {
        fabric.close();
    }

    private static Region own(Region region) {
        return region instanceof MeteredRegion m ? m.region : region;
    }

    private final class MeteredRegion implements Region {
        private final Region region;
        private final int length;
        private final AtomicBoolean closed = new AtomicBoolean();

        MeteredRegion(Region region, int length) {
            this.region = region;
            this.length = length;
        }

        @Override
        public RegionDescriptor descriptor() {
            return region.descriptor();
        }

        @Override
        public ArrowBuf buffer() {
            return region.buffer();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                registered.add(-length);
            }
            region.close();
        }
    }

    private final class MeteredPeer implements Peer {
        private final Peer peer;

        MeteredPeer(Peer peer) {
            this.peer = peer;
        }

        @Override
        public NodeAddress address() {
            return peer.address();
        }

        @Override
        public CompletableFuture<Void> read(RegionDescriptor remote, long remoteOffset, Region local, long localOffset,
                int length) {
            return counted(peer.read(remote, remoteOffset, own(local), localOffset, length), read, length);
        }

        @Override
        public CompletableFuture<Void> write(Region local, long localOffset, RegionDescriptor remote, long remoteOffset,
                int length) {
            return counted(peer.write(own(local), localOffset, remote, remoteOffset, length), written, length);
        }

        /** The provider's own future (a caller may cancel it), counted once it succeeds. */
        private static CompletableFuture<Void> counted(CompletableFuture<Void> op, LongAdder bytes, int length) {
            op.thenRun(() -> bytes.add(length));
            return op;
        }

        @Override
        public CompletableFuture<Long> compareAndSwap(RegionDescriptor remote, long remoteOffset, long expect,
                long update) {
            return peer.compareAndSwap(remote, remoteOffset, expect, update);
        }

        @Override
        public CompletableFuture<Long> fetchAndAdd(RegionDescriptor remote, long remoteOffset, long delta) {
            return peer.fetchAndAdd(remote, remoteOffset, delta);
        }

        @Override
        public void close() {
            peer.close();
        }
    }
}
