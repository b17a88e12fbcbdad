package io.ferry.fabric.tcp;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.ferry.core.SqlStates;
import io.ferry.fabric.FabricException;
import io.ferry.fabric.FabricRegion;
import io.ferry.fabric.NodeAddress;
import io.ferry.fabric.Peer;
import io.ferry.fabric.Region;
import io.ferry.fabric.RegionDescriptor;
import io.ferry.fabric.WordAtomics;
import io.ferry.fabric.frame.DataSink;
import io.ferry.fabric.frame.FrameHandler;
import io.ferry.fabric.frame.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;

/**
 * The reading side of a tcp fabric connection. Each posted READ, WRITE or atomic is a request frame with an id; its
 * future completes when the reply's data has been copied into the local region (READ), the owner acknowledged the
 * placement (WRITE) or sent the word's old value (atomics). When the connection breaks, every outstanding operation fails at once.
 */
final class TcpPeer implements Peer, FrameHandler {
    /** An operation posted and not yet answered. */
    private record Pending(boolean read, CompletableFuture<Void> future, TcpRegion target, long offset, int length) {
    }

    private final TcpFabric fabric;
    private final NodeAddress node;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    /** Atomics posted and not yet answered, by id (ids are shared with {@link #pending}). */
    private final Map<Long, CompletableFuture<Long>> atomics = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile Channel channel;
    private volatile String lost;

    TcpPeer(TcpFabric fabric, NodeAddress node) {
        this.fabric = fabric;
        this.node = node;
    }

    void attach(Channel channel) {
        this.channel = channel;
        channel.closeFuture().addListener(f -> lost("the connection was closed"));
    }

    @Override
    public NodeAddress address() {
        return node;
    }

    @Override
    public CompletableFuture<Void> read(RegionDescriptor remote, long remoteOffset, Region local, long localOffset,
            int length) {
        try {
            remote.checkAccess(node, remoteOffset, length);
            TcpRegion target = FabricRegion.local(local, TcpRegion.class, fabric, localOffset, length);
            return post(new Pending(true, new CompletableFuture<>(), target, localOffset, length), remote,
                    remoteOffset, null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Void> write(Region local, long localOffset, RegionDescriptor remote, long remoteOffset,
            int length) {
        try {
            remote.checkAccess(node, remoteOffset, length);
            TcpRegion source = FabricRegion.local(local, TcpRegion.class, fabric, localOffset, length);
            ByteBuf bytes = TcpFabric.wrap(source.descriptor().address() + localOffset, length);
            if (!source.pin()) {
                throw new FabricException(SqlStates.INVALID_PARAMETER_VALUE,
                        TcpFabric.notRegistered(source.descriptor().key(), fabric.address()));
            }
            // Sent straight from the source region; it stays pinned until the socket has taken the bytes.
            return post(new Pending(false, new CompletableFuture<>(), source, localOffset, length), remote,
                    remoteOffset, bytes);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Long> compareAndSwap(RegionDescriptor remote, long remoteOffset, long expect,
            long update) {
        return atomic(FabricMessages.COMPARE_AND_SWAP, remote, remoteOffset, expect, update);
    }

    @Override
    public CompletableFuture<Long> fetchAndAdd(RegionDescriptor remote, long remoteOffset, long delta) {
        return atomic(FabricMessages.FETCH_AND_ADD, remote, remoteOffset, delta, 0);
    }

    /** An atomic as a request frame, carried out by the region's owner ({@link ServingHandler}). */
    private CompletableFuture<Long> atomic(int type, RegionDescriptor remote, long remoteOffset, long first,
            long second) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        try {
            WordAtomics.checkWord(node, remote, remoteOffset);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        long id = ids.incrementAndGet();
        atomics.put(id, done);
        String why = lost;
        if (why != null) {
            fail(id, why);
            return done;
        }
        Channel ch = channel;
        var word = new FabricMessages.Access(id, remote.key(), remote.address(), remoteOffset, 8);
        ch.writeAndFlush(FabricMessages.atomic(ch.alloc(), type, new FabricMessages.Atomic(word, first, second)))
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        fail(id, "sending the request failed: " + f.cause());
                    }
                });
        return done;
    }

    private CompletableFuture<Void> post(Pending op, RegionDescriptor remote, long remoteOffset, ByteBuf data) {
        long id = ids.incrementAndGet();
        pending.put(id, op);
        String why = lost;
        if (why != null) {
            fail(id, why);
            if (data != null) {
                data.release();
                op.target().unpin();
            }
            return op.future();
        }
        var access = new FabricMessages.Access(id, remote.key(), remote.address(), remoteOffset, op.length());
        Channel ch = channel;
        if (data == null) {
            ch.writeAndFlush(FabricMessages.access(ch.alloc(), FabricMessages.READ, access, 0))
                    .addListener(f -> {
                        if (!f.isSuccess()) {
                            fail(id, "sending the request failed: " + f.cause());
                        }
                    });
        } else {
            // One message, so frames posted from several threads cannot interleave; a gathering write, no copy.
            ByteBuf frame = FabricMessages.access(ch.alloc(), FabricMessages.WRITE, access, op.length());
            ch.writeAndFlush(Unpooled.wrappedUnmodifiableBuffer(frame, data)).addListener(f -> {
                op.target().unpin();
                if (!f.isSuccess()) {
                    fail(id, "sending the data failed: " + f.cause());
                }
            });
        }
        return op.future();
    }

    private void fail(long id, String why) {
        Pending op = pending.remove(id);
        if (op != null) {
            op.future().completeExceptionally(FabricException.connectionLost(node, why));
        }
        CompletableFuture<Long> atomic = atomics.remove(id);
        if (atomic != null) {
            atomic.completeExceptionally(FabricException.connectionLost(node, why));
        }
    }

    /** The connection is gone: fail what is outstanding, and everything posted from now on. */
    void lost(String why) {
        if (lost == null) {
            lost = why;
        }
        for (Long id : pending.keySet()) {
            fail(id, why);
        }
        for (Long id : atomics.keySet()) {
            fail(id, why);
        }
    }

    @Override
    public DataSink onFrame(ChannelHandlerContext ctx, int type, ByteBuf body, int dataLength) {
        switch (type) {
            case FabricMessages.READ_REPLY -> {
                long id = FabricMessages.replyId(body);
                Pending op = answered(id, true);
                if (dataLength != op.length()) {
                    throw new MalformedFrameException("reply to read " + id + " carries " + dataLength
                            + " bytes, " + op.length() + " were asked for");
                }
                return new RegionSink(op.target(), op.offset(), op.length(), delivered -> {
                    pending.remove(id);
                    if (delivered) {
                        op.future().complete(null);
                    } else {
                        op.future().completeExceptionally(new FabricException(SqlStates.INVALID_PARAMETER_VALUE,
                                TcpFabric.notRegistered(op.target().descriptor().key(), fabric.address())));
                    }
                });
            }
            case FabricMessages.WRITE_ACK -> {
                long id = FabricMessages.replyId(body);
                answered(id, false);
                pending.remove(id).future().complete(null);
                return null;
            }
            case FabricMessages.ATOMIC_REPLY -> {
                long[] reply = FabricMessages.atomicReply(body);
                CompletableFuture<Long> done = atomics.remove(reply[0]);
                if (done == null) {
                    throw new MalformedFrameException("reply to atomic " + reply[0] + ", which is not outstanding");
                }
                done.complete(reply[1]);
                return null;
            }
            case FabricMessages.ERROR -> {
                FabricMessages.Error e = FabricMessages.error(body);
                Pending op = pending.remove(e.id());
                if (op != null) {
                    op.future().completeExceptionally(new FabricException(e.sqlState(), e.message()));
                }
                CompletableFuture<Long> atomic = atomics.remove(e.id());
                if (atomic != null) {
                    atomic.completeExceptionally(new FabricException(e.sqlState(), e.message()));
                }
                return null;
            }
            default -> throw new MalformedFrameException("frame type " + type + " is not a reply");
        }
    }

    private Pending answered(long id, boolean read) {
        Pending op = pending.get(id);
        if (op == null || op.read() != read) {
            throw new MalformedFrameException("reply to " + (read ? "read " : "write ") + id
                    + ", which is not outstanding");
        }
        return op;
    }

    @Override
    public void close() {
        Channel ch = channel;
        lost("the connection was closed by this node");
        if (ch != null) {
            ch.close().awaitUninterruptibly(TcpFabric.CLOSE_MILLIS);
        }
    }
}
