package io.ferry.fabric.frame;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Splits a byte stream into {@link Frames frames} and checks each before its handler sees it: magic, version,
 * body and data lengths against this side's limits, and the checksum. A frame that fails a check closes its
 * connection with a logged reason; the node and its other connections are unaffected. Bulk data is handed to the
 * frame's {@link DataSink} as it arrives, never accumulated.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

    private enum State { HEADER, BODY, DATA, CLOSED }

    private final FrameHandler handler;
    private final int maxBody;
    private final int maxData;
    private State state = State.HEADER;
    private int type;
    private int bodyLength;
    private int dataLength;
    private int checksum;
    private ByteBuf header;
    private DataSink sink;
    private int dataLeft;

    /**
     * @param maxBody the largest body accepted
     * @param maxData the largest bulk data accepted (a region's length is under 2 GiB)
     */
    public FrameDecoder(FrameHandler handler, int maxBody, int maxData) {
        this.handler = handler;
        this.maxBody = maxBody;
        this.maxData = maxData;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            while (in.isReadable() && state != State.CLOSED) {
                if (!step(ctx, in)) {
                    return;
                }
            }
        } catch (MalformedFrameException e) {
            reject(ctx, in, e.getMessage());
        } catch (RuntimeException e) {
            // The stream position is lost with the frame; nothing after it can be trusted.
            LOG.warn("handling a frame from {} failed", ctx.channel().remoteAddress(), e);
            reject(ctx, in, "handling a frame failed: " + e);
        }
    }

    /** Advances by one state; false when more bytes are needed. */
    private boolean step(ChannelHandlerContext ctx, ByteBuf in) {
        switch (state) {
            case HEADER -> {
                if (in.readableBytes() < Frames.HEADER_BYTES) {
                    return false;
                }
                readHeader(in);
                state = State.BODY;
            }
            case BODY -> {
                if (in.readableBytes() < bodyLength) {
                    return false;
                }
                ByteBuf body = in.readSlice(bodyLength);
                if (Frames.checksum(header, 0, body) != checksum) {
                    throw new MalformedFrameException("frame checksum mismatch (type " + type + ", " + bodyLength
                            + "-byte body): corrupt or not a Ferry peer");
                }
                DataSink s = handler.onFrame(ctx, type, body, dataLength);
                if (dataLength > 0) {
                    sink = s == null ? DataSink.DISCARD : s;
                    dataLeft = dataLength;
                    state = State.DATA;
                } else {
                    state = State.HEADER;
                }
            }
            case DATA -> {
                int n = Math.min(dataLeft, in.readableBytes());
                sink.accept(in.readSlice(n));
                dataLeft -= n;
                if (dataLeft == 0) {
                    DataSink done = sink;
                    sink = null;
                    state = State.HEADER;
                    done.end();
                }
            }
            case CLOSED -> in.skipBytes(in.readableBytes());
        }
        return true;
    }

    private void readHeader(ByteBuf in) {
        if (header == null) {
            header = in.alloc().heapBuffer(16, 16);
        }
        header.clear();
        in.getBytes(in.readerIndex(), header, 16);
        int magic = in.readInt();
        int version = in.readUnsignedByte();
        type = in.readUnsignedByte();
        in.skipBytes(2);
        bodyLength = in.readInt();
        dataLength = in.readInt();
        checksum = in.readInt();
        if (magic != Frames.MAGIC) {
            throw new MalformedFrameException(String.format("bad frame magic 0x%08x: not a Ferry peer", magic));
        }
        if (version != Frames.VERSION) {
            throw new MalformedFrameException("frame protocol version " + version + ", this node speaks "
                    + Frames.VERSION + ": run the same Ferry version on every node");
        }
        if (bodyLength < 0 || bodyLength > maxBody) {
            throw new MalformedFrameException("frame body of " + Integer.toUnsignedString(bodyLength)
                    + " bytes exceeds the limit of " + maxBody);
        }
        if (dataLength < 0 || dataLength > maxData) {
            throw new MalformedFrameException("frame data of " + Integer.toUnsignedString(dataLength)
                    + " bytes exceeds the limit of " + maxData);
        }
    }

    private void reject(ChannelHandlerContext ctx, ByteBuf in, String reason) {
        LOG.warn("closing the connection from {}: {}", ctx.channel().remoteAddress(), reason);
        state = State.CLOSED;
        in.skipBytes(in.readableBytes());
        ctx.close();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (header != null) {
            header.release();
            header = null;
        }
    }

    /**
     * The connection ended. A frame cut short is logged here; its operation's owner learns of it when the
     * channel closes, which fails every outstanding operation.
     */
    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (state == State.BODY || state == State.DATA || (state == State.HEADER && in.isReadable())) {
            LOG.warn("the connection from {} ended inside a frame", ctx.channel().remoteAddress());
        }
    }
}
