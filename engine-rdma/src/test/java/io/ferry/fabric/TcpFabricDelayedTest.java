package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.Test;

import io.ferry.fabric.tcp.TcpFabric;

/**
 * The tcp fabric with an emulated link latency (experiments' {@code FERRY_FABRIC_READ_DELAY_US}, here its system
 * property): the whole contract still holds — every byte, every block in order, errors as before — and a read takes
 * at least the latency.
 */
class TcpFabricDelayedTest extends FabricContract {
    private static final long DELAY_US = 3_000;

    @Override
    protected Fabric newNode() {
        System.setProperty("ferry.fabric.readDelayUs", Long.toString(DELAY_US));
        try {
            return new TcpFabric("127.0.0.1", 0, 1);
        } finally {
            System.clearProperty("ferry.fabric.readDelayUs");
        }
    }

    @Test
    void aReadTakesAtLeastTheEmulatedLatency() {
        try (ArrowBuf remote = allocator.buffer(64); ArrowBuf local = allocator.buffer(64);
                Region remoteRegion = owner.register(remote, 0, 64);
                Region localRegion = reader.register(local, 0, 64);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            Completions.await(peer.read(remoteRegion.descriptor(), 0, localRegion, 0, 64), TIMEOUT, "warm-up read");
            long t0 = System.nanoTime();
            Completions.await(peer.read(remoteRegion.descriptor(), 0, localRegion, 0, 64), TIMEOUT, "read");
            long took = System.nanoTime() - t0;
            assertTrue(took >= TimeUnit.MICROSECONDS.toNanos(DELAY_US), "a read took " + took / 1000 + " µs");
        }
    }
}
