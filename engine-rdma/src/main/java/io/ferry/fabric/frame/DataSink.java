package io.ferry.fabric.frame;

import io.netty.buffer.ByteBuf;

/**
 * Where the bulk data of a frame goes as it arrives, chunk by chunk, so a block is never accumulated in a
 * receive buffer first: a READ reply streams into the reader's registered region, a WRITE into the target region.
 */
public interface DataSink {
    /** Consumes all readable bytes of {@code chunk} (the next bytes of the frame's data, in order). */
    void accept(ByteBuf chunk);

    /** The frame's data is complete. */
    void end();

    /** Drops the data: for a frame whose target turned out to be invalid, or whose request was abandoned. */
    DataSink DISCARD = new DataSink() {
        @Override
        public void accept(ByteBuf chunk) {
            chunk.skipBytes(chunk.readableBytes());
        }

        @Override
        public void end() {
        }
    };
}
