package io.ferry.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.ferry.core.SqlStates;

/**
 * What every fabric provider must do, run against each: two nodes, one owning registered memory, the other
 * reading and writing it one-sidedly. Byte-for-byte equality, prefetching streams, bad ranges, dead peers, and
 * no Arrow memory left behind.
 */
public abstract class FabricContract {
    protected static final Duration TIMEOUT = Duration.ofSeconds(10);
    protected BufferAllocator allocator;
    protected Fabric owner;
    protected Fabric reader;

    /** A new node of the provider under test. */
    protected abstract Fabric newNode();

    @BeforeEach
    void start() {
        allocator = new RootAllocator();
        owner = newNode();
        reader = newNode();
    }

    @AfterEach
    void stop() {
        reader.close();
        owner.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory leaked");
        allocator.close();
    }

    /** Random bytes over the whole buffer (its last few bytes one at a time: a 2-byte buffer has no room for a long). */
    private static void fill(ArrowBuf buf, long seed) {
        Random rnd = new Random(seed);
        long i = 0;
        for (; i + 8 <= buf.capacity(); i += 8) {
            buf.setLong(i, rnd.nextLong());
        }
        for (; i < buf.capacity(); i++) {
            buf.setByte(i, rnd.nextInt());
        }
    }

    private static void assertSameBytes(ArrowBuf want, long wantOffset, ArrowBuf got, long gotOffset, int length) {
        for (int i = 0; i < length; i++) {
            if (want.getByte(wantOffset + i) != got.getByte(gotOffset + i)) {
                throw new AssertionError("byte " + i + " of " + length + " differs");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2048, 65536, 1 << 20})
    void readsAndWritesBlocksByteForByte(int size) {
        try (ArrowBuf remote = allocator.buffer(2L * size); ArrowBuf local = allocator.buffer(2L * size);
                Region remoteRegion = owner.register(remote, 0, 2 * size);
                Region localRegion = reader.register(local, 0, 2 * size);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            fill(remote, size);
            fill(local, -size);
            Completions.await(peer.read(remoteRegion.descriptor(), size, localRegion, 0, size), TIMEOUT, "read");
            assertSameBytes(remote, size, local, 0, size);
            Completions.await(peer.write(localRegion, size, remoteRegion.descriptor(), 0, size), TIMEOUT, "write");
            assertSameBytes(local, size, remote, 0, size);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 20})
    void aStreamKeepsReadsInFlightAndDeliversEveryBlockInOrder(int depth) {
        int blockSize = 64 * 1024;
        int blocks = 37;
        try (ArrowBuf remote = allocator.buffer((long) blocks * blockSize);
                Region region = owner.register(remote, 0, blocks * blockSize);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            fill(remote, depth);
            List<BlockStream.BlockRef> refs = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                // Blocks of varied length, read out of order, as a scan of several tables would.
                int at = (b * 7) % blocks;
                refs.add(new BlockStream.BlockRef(region.descriptor(), (long) at * blockSize, blockSize - b * 16));
            }
            try (BlockStream stream = new BlockStream(reader, peer, allocator, refs, depth, blockSize, TIMEOUT)) {
                for (BlockStream.BlockRef ref : refs) {
                    assertTrue(stream.inFlight() <= depth, "in flight: " + stream.inFlight());
                    ArrowBuf got = stream.next();
                    assertEquals(ref.length(), got.capacity());
                    assertSameBytes(remote, ref.offset(), got, 0, ref.length());
                }
                assertNull(stream.next());
            }
        }
    }

    /**
     * A feed whose blocks are known only later, as work stealing claims them over the network, and out of order: the
     * stream hands them out in the order it asked for them, each intact; blocks of this node's own memory come in
     * place, not copied; the end, found late, ends the stream.
     */
    @Test
    void aStreamFedLaterDeliversEveryBlockInOrderAndOwnBlocksInPlace() {
        int blockSize = 8 * 1024;
        int blocks = 40;
        ScheduledExecutorService claims = Executors.newSingleThreadScheduledExecutor();
        try (ArrowBuf remote = allocator.buffer((long) blocks * blockSize);
                ArrowBuf here = allocator.buffer((long) blocks * blockSize);
                Region region = owner.register(remote, 0, blocks * blockSize);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            fill(remote, 5);
            fill(here, 6);
            AtomicInteger asked = new AtomicInteger();
            BlockStream.BlockFeed feed = () -> {
                int b = asked.getAndIncrement();
                long at = (long) b * blockSize;
                BlockStream.BlockRef ref = b >= blocks ? null : b % 3 == 0
                        ? BlockStream.BlockRef.inPlace(here, at, blockSize, b)
                        : new BlockStream.BlockRef(region.descriptor(), at, blockSize, null, b);
                CompletableFuture<BlockStream.BlockRef> known = new CompletableFuture<>();
                claims.schedule(() -> known.complete(ref), 1 + (b * 7) % 4, TimeUnit.MILLISECONDS);
                return known;
            };
            try (BlockStream stream = new BlockStream(reader, node -> peer, allocator, feed, 5, blockSize, TIMEOUT)) {
                for (int b = 0; b < blocks; b++) {
                    try (BlockStream.Lease lease = stream.take()) {
                        assertEquals(b, lease.tag());
                        long at = (long) b * blockSize;
                        assertSameBytes(b % 3 == 0 ? here : remote, at, lease.bytes(), 0, blockSize);
                        if (b % 3 == 0) {
                            assertEquals(here.memoryAddress() + at, lease.bytes().memoryAddress(), "in place");
                        }
                    }
                }
                assertNull(stream.take());
                assertNull(stream.take());
            }
        } finally {
            claims.shutdownNow();
        }
    }

    /** Threads sharing a stream each take leases; every block is handed out once, intact, while others read on. */
    @Test
    void threadsSharingAStreamGetEveryBlockOnceWithItsBytesIntact() throws Exception {
        int blockSize = 16 * 1024;
        int blocks = 200;
        try (ArrowBuf remote = allocator.buffer((long) blocks * blockSize);
                Region region = owner.register(remote, 0, blocks * blockSize);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            fill(remote, 99);
            List<BlockStream.BlockRef> refs = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                refs.add(new BlockStream.BlockRef(region.descriptor(), (long) b * blockSize, blockSize));
            }
            boolean[] seen = new boolean[blocks];
            try (BlockStream stream = new BlockStream(reader, peer, allocator, refs, 5, blockSize, TIMEOUT)) {
                Runnable readerThread = () -> {
                    BlockStream.Lease lease;
                    while ((lease = stream.take()) != null) {
                        try (BlockStream.Lease held = lease) {
                            assertSameBytes(remote, (long) held.index() * blockSize, held.bytes(), 0, blockSize);
                            synchronized (seen) {
                                assertFalse(seen[held.index()], "block " + held.index() + " handed out twice");
                                seen[held.index()] = true;
                            }
                        }
                    }
                };
                List<java.util.concurrent.Future<?>> done = new ArrayList<>();
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
                try {
                    for (int t = 0; t < 4; t++) {
                        done.add(pool.submit(readerThread));
                    }
                    for (java.util.concurrent.Future<?> f : done) {
                        f.get(30, java.util.concurrent.TimeUnit.SECONDS);
                    }
                } finally {
                    pool.shutdownNow();
                }
            }
            for (int b = 0; b < blocks; b++) {
                assertTrue(seen[b], "block " + b + " never handed out");
            }
        }
    }

    @Test
    void aStreamClosedEarlyFreesItsStaging() {
        try (ArrowBuf remote = allocator.buffer(1 << 20); Region region = owner.register(remote, 0, 1 << 20);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            List<BlockStream.BlockRef> refs = new ArrayList<>();
            for (int b = 0; b < 16; b++) {
                refs.add(new BlockStream.BlockRef(region.descriptor(), b * 65536L, 65536));
            }
            try (BlockStream stream = new BlockStream(reader, peer, allocator, refs, 5, 65536, TIMEOUT)) {
                stream.next();
            }
        }
    }

    @Test
    void aReadOutsideTheRegionFailsAndTheNodeServesOn() {
        try (ArrowBuf remote = allocator.buffer(4096); ArrowBuf local = allocator.buffer(4096);
                Region remoteRegion = owner.register(remote, 0, 4096);
                Region localRegion = reader.register(local, 0, 4096);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            FabricException e = assertThrows(FabricException.class, () -> Completions.await(
                    peer.read(remoteRegion.descriptor(), 4000, localRegion, 0, 200), TIMEOUT, "read"));
            assertEquals(SqlStates.INVALID_PARAMETER_VALUE, e.sqlState());
            assertTrue(e.getMessage().contains("outside"), e.getMessage());
            fill(remote, 1);
            Completions.await(peer.read(remoteRegion.descriptor(), 0, localRegion, 0, 4096), TIMEOUT, "read");
            assertSameBytes(remote, 0, local, 0, 4096);
        }
    }

    @Test
    void aDeregisteredRegionCannotBeRead() {
        try (ArrowBuf remote = allocator.buffer(4096); ArrowBuf local = allocator.buffer(4096);
                Region localRegion = reader.register(local, 0, 4096);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            Region gone = owner.register(remote, 0, 4096);
            gone.close();
            FabricException e = assertThrows(FabricException.class, () -> Completions.await(
                    peer.read(gone.descriptor(), 0, localRegion, 0, 16), TIMEOUT, "read"));
            assertTrue(e.getMessage().contains("not registered"), e.getMessage());
        }
    }

    @Test
    void manyOutstandingReadsAllComplete() {
        int reads = 1000;
        int size = 4096;
        try (ArrowBuf remote = allocator.buffer((long) reads * size); ArrowBuf local = allocator.buffer((long) reads * size);
                Region remoteRegion = owner.register(remote, 0, reads * size);
                Region localRegion = reader.register(local, 0, reads * size);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            fill(remote, 7);
            List<CompletableFuture<Void>> posted = new ArrayList<>();
            for (int i = 0; i < reads; i++) {
                // Reversed placement, so each read must land where it was asked to.
                posted.add(peer.read(remoteRegion.descriptor(), (long) i * size, localRegion,
                        (long) (reads - 1 - i) * size, size));
            }
            for (var f : posted) {
                Completions.await(f, TIMEOUT, "read");
            }
            for (int i = 0; i < reads; i++) {
                assertSameBytes(remote, (long) i * size, local, (long) (reads - 1 - i) * size, size);
            }
        }
    }

    @Test
    void threadsSharingAPeerReadAndWriteWithoutMixingUp() throws Exception {
        int threads = 4;
        int ops = 100;
        int size = 4096;
        int bytes = threads * ops * size;
        try (ArrowBuf remote = allocator.buffer(bytes); ArrowBuf local = allocator.buffer(bytes);
                ArrowBuf back = allocator.buffer(bytes);
                Region remoteRegion = owner.register(remote, 0, bytes);
                Region localRegion = reader.register(local, 0, bytes);
                Region backRegion = reader.register(back, 0, bytes);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            fill(local, 11);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int first = t * ops;
                    done.add(pool.submit(() -> {
                        List<CompletableFuture<Void>> writes = new ArrayList<>();
                        for (int i = first; i < first + ops; i++) {
                            writes.add(peer.write(localRegion, (long) i * size, remoteRegion.descriptor(),
                                    (long) i * size, size));
                        }
                        writes.forEach(w -> Completions.await(w, TIMEOUT, "write"));
                        List<CompletableFuture<Void>> reads = new ArrayList<>();
                        for (int i = first; i < first + ops; i++) {
                            reads.add(peer.read(remoteRegion.descriptor(), (long) i * size, backRegion,
                                    (long) i * size, size));
                        }
                        reads.forEach(r -> Completions.await(r, TIMEOUT, "read"));
                    }));
                }
                for (var f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertSameBytes(local, 0, remote, 0, bytes);
            assertSameBytes(local, 0, back, 0, bytes);
        }
    }

    @Test
    void aPeerThatStopsMidStreamFailsTheStreamPromptly() {
        Fabric doomed = newNode();
        int blockSize = 65536;
        int blocks = 256;
        try (ArrowBuf remote = allocator.buffer((long) blocks * blockSize)) {
            Region region = doomed.register(remote, 0, blocks * blockSize);
            List<BlockStream.BlockRef> refs = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                refs.add(new BlockStream.BlockRef(region.descriptor(), (long) b * blockSize, blockSize));
            }
            try (Peer peer = reader.connect(doomed.address(), TIMEOUT);
                    BlockStream stream = new BlockStream(reader, peer, allocator, refs, 8, blockSize, TIMEOUT)) {
                stream.next();
                stream.next();
                doomed.close();
                long start = System.nanoTime();
                FabricException e = assertThrows(FabricException.class, () -> {
                    while (stream.next() != null) {
                        // blocks that had already arrived are still handed out
                    }
                });
                assertEquals(SqlStates.CONNECTION_FAILURE, e.sqlState(), e.getMessage());
                assertTrue(System.nanoTime() - start < TIMEOUT.toNanos(), "failed only at the timeout");
            }
        }
    }

    @Test
    void aStoppedPeerFailsOperationsPromptly() {
        Fabric doomed = newNode();
        try (ArrowBuf remote = allocator.buffer(4096); ArrowBuf local = allocator.buffer(4096);
                Region localRegion = reader.register(local, 0, 4096)) {
            Region remoteRegion = doomed.register(remote, 0, 4096);
            try (Peer peer = reader.connect(doomed.address(), TIMEOUT)) {
                doomed.close();
                long start = System.nanoTime();
                FabricException e = assertThrows(FabricException.class, () -> Completions.await(
                        peer.read(remoteRegion.descriptor(), 0, localRegion, 0, 16), TIMEOUT, "read"));
                assertEquals(SqlStates.CONNECTION_FAILURE, e.sqlState(), e.getMessage());
                assertTrue(System.nanoTime() - start < TIMEOUT.toNanos(), "failed only at the timeout");
            }
        }
    }

    /**
     * Atomics on one word from several threads through two peers — the reader's, and the owner's own peer to itself,
     * as a node that updates a word others update remotely — each thread keeping several in flight: every
     * fetch-and-add returns a value no other returned, together exactly 0 .. N*M-1, and the word ends at N*M; every
     * compare-and-swap claim that succeeds claims a value once (I-Store skew paper section 4: a work queue's word).
     */
    @Test
    void atomicsFromManyThreadsClaimEveryValueExactlyOnce() throws Exception {
        int threads = 4;
        int claims = 400;
        int inFlight = 16;
        try (ArrowBuf words = allocator.buffer(64); Region region = owner.register(words, 0, 64);
                Peer remote = reader.connect(owner.address(), TIMEOUT);
                Peer self = owner.connect(owner.address(), TIMEOUT)) {
            words.setZero(0, 64);
            RegionDescriptor d = region.descriptor();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<long[]>> adds = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Peer peer = t % 2 == 0 ? remote : self;
                    adds.add(pool.submit(() -> {
                        long[] got = new long[claims];
                        for (int i = 0; i < claims; i += inFlight) {
                            List<CompletableFuture<Long>> posted = new ArrayList<>();
                            for (int k = i; k < Math.min(claims, i + inFlight); k++) {
                                posted.add(peer.fetchAndAdd(d, 8, 1));
                            }
                            for (int k = 0; k < posted.size(); k++) {
                                got[i + k] = Completions.result(posted.get(k), TIMEOUT, "fetch-and-add");
                            }
                        }
                        return got;
                    }));
                }
                assertEachOnce(adds, threads * claims);
                assertEquals(threads * claims, words.getLong(8), "the word after every fetch-and-add");

                List<Future<long[]>> swaps = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Peer peer = t % 2 == 0 ? remote : self;
                    swaps.add(pool.submit(() -> {
                        long[] got = new long[claims];
                        long seen = 0;
                        for (int i = 0; i < claims; i++) {
                            while (true) {
                                long was = Completions.result(peer.compareAndSwap(d, 16, seen, seen + 1), TIMEOUT,
                                        "compare-and-swap");
                                if (was == seen) {
                                    got[i] = seen;
                                    seen++;
                                    break;
                                }
                                seen = was;
                            }
                        }
                        return got;
                    }));
                }
                assertEachOnce(swaps, threads * claims);
                assertEquals(threads * claims, words.getLong(16), "the word after every compare-and-swap");
                assertEquals(0, words.getLong(0), "a neighbouring word is untouched");
                assertEquals(0, words.getLong(24), "a neighbouring word is untouched");
                // a swap that does not match leaves the word, and says what it held
                assertEquals(threads * claims, (long) Completions.result(remote.compareAndSwap(d, 16, -5, 99), TIMEOUT,
                        "cas"));
                assertEquals(threads * claims, words.getLong(16));
                // full 64-bit values, in the owner's byte order (what its ArrowBuf reads)
                words.setLong(24, 0x0102_0304_0506_0708L);
                assertEquals(0x0102_0304_0506_0708L, (long) Completions.result(remote.fetchAndAdd(d, 24, 1L << 40),
                        TIMEOUT, "fetch-and-add"));
                assertEquals(0x0102_0304_0506_0708L + (1L << 40), words.getLong(24));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static void assertEachOnce(List<Future<long[]>> results, int total) throws Exception {
        boolean[] seen = new boolean[total];
        int n = 0;
        for (Future<long[]> f : results) {
            for (long v : f.get()) {
                assertTrue(v >= 0 && v < total, "claimed " + v + ", outside 0.." + (total - 1));
                assertFalse(seen[(int) v], "claimed " + v + " twice");
                seen[(int) v] = true;
                n++;
            }
        }
        assertEquals(total, n);
    }

    @Test
    void anAtomicOnAWordItMayNotTouchFailsClearly() {
        try (ArrowBuf words = allocator.buffer(64); Region region = owner.register(words, 0, 64);
                Peer peer = reader.connect(owner.address(), TIMEOUT)) {
            RegionDescriptor d = region.descriptor();
            FabricException misaligned = assertThrows(FabricException.class, () -> Completions.await(
                    peer.fetchAndAdd(d, 4, 1), TIMEOUT, "fetch-and-add"));
            assertEquals(SqlStates.INVALID_PARAMETER_VALUE, misaligned.sqlState());
            assertTrue(misaligned.getMessage().contains("8-byte-aligned"), misaligned.getMessage());
            FabricException outside = assertThrows(FabricException.class, () -> Completions.await(
                    peer.compareAndSwap(d, 64, 0, 1), TIMEOUT, "compare-and-swap"));
            assertEquals(SqlStates.INVALID_PARAMETER_VALUE, outside.sqlState());
            Region gone = owner.register(words, 0, 64);
            gone.close();
            FabricException deregistered = assertThrows(FabricException.class, () -> Completions.await(
                    peer.fetchAndAdd(gone.descriptor(), 8, 1), TIMEOUT, "fetch-and-add"));
            assertTrue(deregistered.getMessage().contains("not registered"), deregistered.getMessage());
        }
    }

    @Test
    void anAtomicToAStoppedPeerFailsPromptly() {
        Fabric doomed = newNode();
        try (ArrowBuf remote = allocator.buffer(64)) {
            Region remoteRegion = doomed.register(remote, 0, 64);
            try (Peer peer = reader.connect(doomed.address(), TIMEOUT)) {
                doomed.close();
                long start = System.nanoTime();
                FabricException e = assertThrows(FabricException.class, () -> Completions.await(
                        peer.compareAndSwap(remoteRegion.descriptor(), 0, 0, 1), TIMEOUT, "compare-and-swap"));
                assertEquals(SqlStates.CONNECTION_FAILURE, e.sqlState(), e.getMessage());
                assertTrue(System.nanoTime() - start < TIMEOUT.toNanos(), "failed only at the timeout");
            }
        }
    }
}
