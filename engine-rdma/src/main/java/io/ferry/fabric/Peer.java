package io.ferry.fabric;

import java.util.concurrent.CompletableFuture;

/**
 * A connection to another node's fabric endpoint. Operations are one-sided and asynchronous: posting one returns
 * at once, and its future completes when the bytes have landed (READ) or been placed (WRITE). The remote node's
 * CPU runs no query code for them. If the connection breaks, every outstanding operation fails promptly with a
 * {@link FabricException}.
 */
public interface Peer extends AutoCloseable {
    NodeAddress address();

    /** Copies {@code length} bytes at {@code remoteOffset} of {@code remote} into {@code local} at {@code localOffset}. */
    CompletableFuture<Void> read(RegionDescriptor remote, long remoteOffset, Region local, long localOffset, int length);

    /** Copies {@code length} bytes of {@code local} at {@code localOffset} into {@code remote} at {@code remoteOffset}. */
    CompletableFuture<Void> write(Region local, long localOffset, RegionDescriptor remote, long remoteOffset, int length);

    @Override
    void close();
}
