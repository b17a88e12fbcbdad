package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.fabric.auth.ClusterSecret;
import io.ferry.fabric.tcp.TcpFabric;

/**
 * The tcp fabric of a cluster with a secret: the whole contract between two nodes that hold it (every connection
 * passes the handshake first), and no byte of registered memory for a node with another secret or none.
 */
class TcpFabricSecretTest extends FabricContract {
    @TempDir
    static Path dir;
    private static ClusterSecret secret;
    private static ClusterSecret other;

    @BeforeAll
    static void secrets() {
        ClusterSecret.create(dir.resolve("secret"));
        ClusterSecret.create(dir.resolve("other"));
        secret = ClusterSecret.load(dir.resolve("secret"));
        other = ClusterSecret.load(dir.resolve("other"));
    }

    @Override
    protected Fabric newNode() {
        return new TcpFabric("127.0.0.1", 0, 1, "127.0.0.1", secret);
    }

    @Test
    void aNodeWithoutTheSecretReadsNothing() {
        for (ClusterSecret wrong : new ClusterSecret[] {other, null}) {
            try (Fabric outsider = new TcpFabric("127.0.0.1", 0, 1, "127.0.0.1", wrong);
                    ArrowBuf remote = allocator.buffer(4096); ArrowBuf local = allocator.buffer(4096);
                    Region remoteRegion = owner.register(remote, 0, 4096);
                    Region localRegion = outsider.register(local, 0, 4096)) {
                remote.setLong(0, 0x5EC12E7L);
                local.setLong(0, 0);
                Peer peer = outsider.connect(owner.address(), TIMEOUT);
                try {
                    assertThrows(RuntimeException.class, () -> Completions.await(peer.read(remoteRegion.descriptor(),
                            0, localRegion, 0, 4096), TIMEOUT, "read"));
                } finally {
                    peer.close();
                }
                assertEquals(0, local.getLong(0), "no byte of the owner's memory arrived");
            }
        }
    }

    @Test
    void aSecretFileMustHoldASecret() {
        assertThrows(FabricException.class, () -> ClusterSecret.load(dir.resolve("missing")));
        assertThrows(FabricException.class, () -> ClusterSecret.create(dir.resolve("secret")));
    }
}
