package io.ferry.fabric.tcp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ferry.core.FerryException;
import io.ferry.core.SqlStates;
import io.ferry.fabric.WordAtomics;
import io.ferry.fabric.frame.DataSink;
import io.ferry.fabric.frame.FrameHandler;
import io.ferry.fabric.frame.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/**
 * The owner's side of a connection: answers READs with the region's bytes, written to the socket straight from the
 * registered memory (no copy in the JVM), places WRITEs' data in the target region, and carries out atomics on a
 * word of it. It runs no query code:
 * this is the whole of the work a node does for the data it serves.
 */
final class ServingHandler implements FrameHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ServingHandler.class);

    private final TcpFabric fabric;

    ServingHandler(TcpFabric fabric) {
        this.fabric = fabric;
    }

    @Override
    public DataSink onFrame(ChannelHandlerContext ctx, int type, ByteBuf body, int dataLength) {
        switch (type) {
            case FabricMessages.READ -> {
                read(ctx, FabricMessages.access(body), dataLength);
                return null;
            }
            case FabricMessages.WRITE -> {
                return write(ctx, FabricMessages.access(body), dataLength);
            }
            case FabricMessages.COMPARE_AND_SWAP, FabricMessages.FETCH_AND_ADD -> {
                if (dataLength != 0) {
                    throw new MalformedFrameException("an atomic request carries " + dataLength + " data bytes");
                }
                atomic(ctx, type, FabricMessages.atomic(body));
                return null;
            }
            default -> throw new MalformedFrameException("frame type " + type + " is not a request");
        }
    }

    private void read(ChannelHandlerContext ctx, FabricMessages.Access a, int dataLength) {
        if (dataLength != 0) {
            throw new MalformedFrameException("a READ request carries " + dataLength + " data bytes");
        }
        TcpRegion region;
        try {
            region = fabric.resolve(a);
        } catch (FerryException e) {
            ctx.writeAndFlush(FabricMessages.error(ctx.alloc(), a.id(), e.sqlState(), e.getMessage()));
            return;
        }
        ByteBuf bytes = TcpFabric.wrap(region.descriptor().address() + a.offset(), a.length());
        if (!region.pin()) {
            ctx.writeAndFlush(FabricMessages.error(ctx.alloc(), a.id(), SqlStates.INVALID_PARAMETER_VALUE,
                    TcpFabric.notRegistered(a.key(), fabric.address())));
            return;
        }
        if (fabric.delaysReads()) {
            fabric.delay(() -> reply(ctx, a, bytes, region));
        } else {
            reply(ctx, a, bytes, region);
        }
    }

    /** The READ reply: a header, then the bytes straight from registered memory, the region pinned until sent. */
    private static void reply(ChannelHandlerContext ctx, FabricMessages.Access a, ByteBuf bytes, TcpRegion region) {
        ctx.write(FabricMessages.reply(ctx.alloc(), FabricMessages.READ_REPLY, a.id(), a.length()));
        ctx.writeAndFlush(bytes).addListener(f -> region.unpin());
    }

    /**
     * An atomic on a word of a region here, carried out on this network thread with a {@link WordAtomics} VarHandle:
     * atomic against every other atomic on the word, from any connection or from this node's own peers.
     */
    private void atomic(ChannelHandlerContext ctx, int type, FabricMessages.Atomic a) {
        long id = a.word().id();
        long value;
        try {
            TcpRegion region = fabric.resolve(a.word());
            WordAtomics.checkWord(fabric.address(), region.descriptor(), a.word().offset());
            if (!region.pin()) {
                throw new FerryException(SqlStates.INVALID_PARAMETER_VALUE,
                        TcpFabric.notRegistered(a.word().key(), fabric.address()));
            }
            try {
                long address = region.descriptor().address() + a.word().offset();
                value = type == FabricMessages.COMPARE_AND_SWAP
                        ? WordAtomics.compareAndSwap(address, a.first(), a.second())
                        : WordAtomics.fetchAndAdd(address, a.first());
            } finally {
                region.unpin();
            }
        } catch (FerryException e) {
            ctx.writeAndFlush(FabricMessages.error(ctx.alloc(), id, e.sqlState(), e.getMessage()));
            return;
        }
        ctx.writeAndFlush(FabricMessages.atomicReply(ctx.alloc(), id, value));
    }

    private DataSink write(ChannelHandlerContext ctx, FabricMessages.Access a, int dataLength) {
        if (dataLength != a.length()) {
            throw new MalformedFrameException("a WRITE of " + a.length() + " bytes carries " + dataLength);
        }
        TcpRegion region;
        try {
            region = fabric.resolve(a);
        } catch (FerryException e) {
            return new DataSink() {
                @Override
                public void accept(ByteBuf chunk) {
                    DISCARD.accept(chunk);
                }

                @Override
                public void end() {
                    ctx.writeAndFlush(FabricMessages.error(ctx.alloc(), a.id(), e.sqlState(), e.getMessage()));
                }
            };
        }
        return new RegionSink(region, a.offset(), a.length(), delivered -> ctx.writeAndFlush(delivered
                ? FabricMessages.reply(ctx.alloc(), FabricMessages.WRITE_ACK, a.id(), 0)
                : FabricMessages.error(ctx.alloc(), a.id(), SqlStates.INVALID_PARAMETER_VALUE,
                        TcpFabric.notRegistered(a.key(), fabric.address()))));
    }

    static void log(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("fabric connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
    }
}
