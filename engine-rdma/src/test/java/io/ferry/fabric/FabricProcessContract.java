package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ferry.core.SqlStates;
import io.ferry.fabric.tools.BlockServer;
import io.ferry.fabric.tools.BlockServerProcess;

/** A fabric between two JVMs: a separate serving process, streamed from here, killed mid-stream. */
abstract class FabricProcessContract {
    protected static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** A JVM starts in seconds, but in the soft-RoCE VM's software emulation it may take many. */
    private static final Duration STARTUP = Duration.ofSeconds(90);
    protected static final int BLOCK = 64 * 1024;
    private static final int BLOCKS = 256;
    private static final long SEED = 42;

    protected BufferAllocator allocator;
    protected Fabric fabric;
    protected BlockServerProcess server;

    /** The provider under test: tcp or rdma. */
    protected abstract Fabrics.Kind kind();

    /** The address both processes listen on. */
    protected abstract String host();

    @BeforeEach
    void start() throws Exception {
        allocator = new RootAllocator();
        fabric = Fabrics.open(kind(), host(), 0, 1);
        server = BlockServerProcess.start(host(), BLOCK * BLOCKS, SEED, kind().toString(), STARTUP);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        fabric.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    protected List<BlockStream.BlockRef> blocks() {
        List<BlockStream.BlockRef> refs = new ArrayList<>();
        for (int b = 0; b < BLOCKS; b++) {
            refs.add(new BlockStream.BlockRef(server.region(), (long) b * BLOCK, BLOCK));
        }
        return refs;
    }

    protected static void assertPattern(ArrowBuf block, long offset) {
        for (int i = 0; i < block.capacity(); i += 8) {
            if (block.getLong(i) != BlockServer.word(SEED, (offset + i) / 8)) {
                throw new AssertionError("word " + i / 8 + " of the block at " + offset + " differs");
            }
        }
    }

    @Test
    void streamsEveryBlockOfAnotherProcessByteForByte() {
        try (Peer peer = fabric.connect(server.region().node(), TIMEOUT);
                BlockStream stream = new BlockStream(fabric, peer, allocator, blocks(), 10, BLOCK, TIMEOUT)) {
            for (BlockStream.BlockRef ref : blocks()) {
                assertPattern(stream.next(), ref.offset());
            }
        }
    }

    @Test
    void aKilledServerFailsTheStreamPromptlyWithItsAddress() throws Exception {
        try (Peer peer = fabric.connect(server.region().node(), TIMEOUT);
                BlockStream stream = new BlockStream(fabric, peer, allocator, blocks(), 10, BLOCK, TIMEOUT)) {
            assertPattern(stream.next(), 0);
            server.kill();
            long start = System.nanoTime();
            FabricException e = assertThrows(FabricException.class, () -> {
                while (stream.next() != null) {
                    // blocks that arrived before the kill are still handed out
                }
            });
            assertEquals(SqlStates.CONNECTION_FAILURE, e.sqlState());
            assertTrue(e.getMessage().contains(server.region().node().toString()), e.getMessage());
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "took until the timeout");
        }
    }

    @Test
    void connectingToANodeThatIsNotThereFailsWithinTheTimeout() throws Exception {
        NodeAddress gone = server.region().node();
        server.kill();
        FabricException e = assertThrows(FabricException.class, () -> fabric.connect(gone, Duration.ofSeconds(3)));
        assertEquals(SqlStates.UNABLE_TO_CONNECT, e.sqlState());
        assertTrue(e.getMessage().contains(gone.toString()), e.getMessage());
    }
}
