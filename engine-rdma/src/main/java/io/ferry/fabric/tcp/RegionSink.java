package io.ferry.fabric.tcp;

import io.ferry.fabric.frame.DataSink;
import io.netty.buffer.ByteBuf;

/**
 * Copies a frame's data into a region as it arrives, pinning the region for each chunk. If the region is
 * deregistered part-way, the rest is dropped and {@link Done#done} reports failure.
 */
final class RegionSink implements DataSink {
    interface Done {
        void done(boolean delivered);
    }

    private final TcpRegion region;
    private final ByteBuf target;
    private final Done done;
    private int position;
    private boolean lost;

    RegionSink(TcpRegion region, long offset, int length, Done done) {
        this.region = region;
        this.target = TcpFabric.wrap(region.descriptor().address() + offset, length);
        this.done = done;
    }

    @Override
    public void accept(ByteBuf chunk) {
        int n = chunk.readableBytes();
        if (!lost && region.pin()) {
            try {
                target.setBytes(position, chunk, chunk.readerIndex(), n);
            } finally {
                region.unpin();
            }
        } else {
            lost = true;
        }
        chunk.skipBytes(n);
        position += n;
    }

    @Override
    public void end() {
        done.done(!lost);
    }
}
