package io.ferry.fabric.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

/** What a protocol does with the frames a {@link FrameDecoder} has checked. */
public interface FrameHandler {
    /**
     * A frame whose header and body passed every check. {@code body} is valid only during the call. Returns where
     * the frame's {@code dataLength} bulk bytes go (ignored when there are none).
     *
     * @throws MalformedFrameException if the body does not make sense for its type; the connection is closed
     */
    DataSink onFrame(ChannelHandlerContext ctx, int type, ByteBuf body, int dataLength);
}
