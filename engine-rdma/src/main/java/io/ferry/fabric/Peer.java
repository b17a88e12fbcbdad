package io.ferry.fabric;

import java.util.concurrent.CompletableFuture;

/**
 * A connection to another node's fabric endpoint. Operations are one-sided and asynchronous: posting one returns
 * at once, and its future completes when the bytes have landed (READ), been placed (WRITE) or the word has been
 * updated (the atomics). The remote node's CPU runs no query code for them. If the connection breaks, every
 * outstanding operation fails promptly with a {@link FabricException}.
 *
 * <p>The atomics act on an 8-byte-aligned word of a registered region, in the owner's byte order (little-endian on
 * every machine Ferry runs on, as Arrow's). They are atomic against every other atomic on that word through any
 * peer of any node — including the owner's own peer to itself, which is how a node updates a word others update
 * remotely — but not against plain READs and WRITEs of it, as with RDMA (I-Store skew paper section 4: a work
 * queue's {@code head<<32 | tail} word is claimed by compare-and-swap).
 */
public interface Peer extends AutoCloseable {
    NodeAddress address();

    /** Copies {@code length} bytes at {@code remoteOffset} of {@code remote} into {@code local} at {@code localOffset}. */
    CompletableFuture<Void> read(RegionDescriptor remote, long remoteOffset, Region local, long localOffset, int length);

    /** Copies {@code length} bytes of {@code local} at {@code localOffset} into {@code remote} at {@code remoteOffset}. */
    CompletableFuture<Void> write(Region local, long localOffset, RegionDescriptor remote, long remoteOffset, int length);

    /**
     * Replaces the word at {@code remoteOffset} of {@code remote} with {@code update} if it holds {@code expect};
     * completes with the value the word held, so the swap happened exactly when that equals {@code expect}.
     */
    CompletableFuture<Long> compareAndSwap(RegionDescriptor remote, long remoteOffset, long expect, long update);

    /** Adds {@code delta} to the word at {@code remoteOffset} of {@code remote}; completes with its value before. */
    CompletableFuture<Long> fetchAndAdd(RegionDescriptor remote, long remoteOffset, long delta);

    @Override
    void close();
}
